// Zulip (Healthchecks' "zulip"): the value is Healthchecks' JSON (bot email, API key, site, a
// stream and topic or a private recipient); ZULIP_ENABLED switches it, as in Healthchecks.
import { defineChannelKind } from '../definition.ts';
import { zulipConf, zulipConfig } from './config.ts';

export const zulip = defineChannelKind({
  kind: 'zulip',
  label: 'Zulip',
  validateValue: (value) => void zulipConf(value),
  config: zulipConfig,
  enabled: (settings) => settings.zulipEnabled,
  requires: 'ZULIP_ENABLED',
  transport: async () => (await import('./transport.ts')).zulipTransport,
});
