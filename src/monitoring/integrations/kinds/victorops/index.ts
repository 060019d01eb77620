// Splunk On-Call, formerly VictorOps (Healthchecks' "victorops"): the value is the REST
// endpoint URL of the routing key. VICTOROPS_ENABLED switches it.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const victorops = defineChannelKind({
  kind: 'victorops',
  label: 'Splunk On-Call',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.victoropsEnabled,
  requires: 'VICTOROPS_ENABLED',
  transport: async () => (await import('./transport.ts')).victorOpsTransport,
});
