// Microsoft Teams through a Workflows webhook (Healthchecks' "msteamsw"): the value is the
// workflow's URL; MSTEAMS_ENABLED switches it, as in Healthchecks.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const msteams = defineChannelKind({
  kind: 'msteams',
  hcKind: 'msteamsw',
  // Healthchecks' wording: "MS Teams notifications are not enabled."
  label: 'MS Teams',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.msteamsEnabled,
  requires: 'MSTEAMS_ENABLED',
  transport: async () => (await import('./transport.ts')).msteamsTransport,
});
