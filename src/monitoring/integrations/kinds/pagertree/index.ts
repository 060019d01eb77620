// PagerTree (Healthchecks' "pagertree"): the value is the integration's webhook URL.
// PAGERTREE_ENABLED switches it.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const pagertree = defineChannelKind({
  kind: 'pagertree',
  label: 'PagerTree',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.pagertreeEnabled,
  requires: 'PAGERTREE_ENABLED',
  transport: async () => (await import('./transport.ts')).pagerTreeTransport,
});
