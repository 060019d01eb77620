// PagerDuty (Healthchecks' "pd"): the value is the integration key, plain or as Healthchecks'
// JSON; alerts go to the Events API v2. PD_ENABLED switches it.
import { defineChannelKind } from '../definition.ts';
import { pdConf, pdConfig } from './config.ts';

export const pagerduty = defineChannelKind({
  kind: 'pagerduty',
  hcKind: 'pd',
  label: 'PagerDuty',
  validateValue: (value) => void pdConf(value),
  config: pdConfig,
  enabled: (settings) => settings.pdEnabled,
  requires: 'PD_ENABLED',
  transport: async () => (await import('./transport.ts')).pagerDutyTransport,
});
