// Opsgenie (Healthchecks' "opsgenie"): the value is Healthchecks' JSON, an API key and its
// region (US or EU); alerts open and close an Opsgenie alert. OPSGENIE_ENABLED switches it.
import { defineChannelKind } from '../definition.ts';
import { opsgenieConf, opsgenieConfig } from './config.ts';

export const opsgenie = defineChannelKind({
  kind: 'opsgenie',
  label: 'Opsgenie',
  validateValue: (value) => void opsgenieConf(value),
  config: opsgenieConfig,
  enabled: (settings) => settings.opsgenieEnabled,
  requires: 'OPSGENIE_ENABLED',
  transport: async () => (await import('./transport.ts')).opsgenieTransport,
});
