// Spike.sh (Healthchecks' "spike"): the value is the integration's webhook URL.
// SPIKE_ENABLED switches it.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const spike = defineChannelKind({
  kind: 'spike',
  label: 'Spike',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.spikeEnabled,
  requires: 'SPIKE_ENABLED',
  transport: async () => (await import('./transport.ts')).spikeTransport,
});
