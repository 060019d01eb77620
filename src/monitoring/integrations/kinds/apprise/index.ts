// Apprise (Healthchecks' "apprise"): the value is one or more Apprise URLs. Off unless the
// operator sets APPRISE_ENABLED (Healthchecks' default too) and APPRISE_API_URL, the Apprise API
// server that sends them (the configuration check refuses the one without the other).
import { defineChannelKind } from '../definition.ts';
import { validateAppriseUrls } from './config.ts';

export const apprise = defineChannelKind({
  kind: 'apprise',
  label: 'Apprise',
  validateValue: validateAppriseUrls,
  enabled: (settings) => settings.appriseApiUrl !== null,
  requires: 'APPRISE_ENABLED and APPRISE_API_URL',
  transport: async () => (await import('./transport.ts')).appriseTransport,
});
