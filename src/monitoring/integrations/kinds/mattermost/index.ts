// Mattermost (Healthchecks' "mattermost"): the value is an incoming-webhook URL; MATTERMOST_ENABLED
// switches it.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const mattermost = defineChannelKind({
  kind: 'mattermost',
  label: 'Mattermost',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.mattermostEnabled,
  requires: 'MATTERMOST_ENABLED',
  transport: async () => (await import('./transport.ts')).mattermostTransport,
});
