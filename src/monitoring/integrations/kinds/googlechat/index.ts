// Google Chat (Healthchecks' "gchat"): the value is the space's incoming-webhook URL. Always on,
// as in Healthchecks (it has no GOOGLECHAT_ENABLED).
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const googlechat = defineChannelKind({
  kind: 'googlechat',
  hcKind: 'gchat',
  label: 'Google Chat',
  validateValue: requireHttpUrl,
  transport: async () => (await import('./transport.ts')).googlechatTransport,
});
