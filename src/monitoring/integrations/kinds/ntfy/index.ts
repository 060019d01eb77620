// ntfy (Healthchecks' "ntfy"): the value is Healthchecks' JSON (server URL, topic, a priority
// for down and one for up, an access token). Always on, as in Healthchecks; NTFY_SH_TOKEN is
// sent to https://ntfy.sh for channels without a token of their own.
import { defineChannelKind } from '../definition.ts';
import { ntfyConf, ntfyConfig } from './config.ts';

export const ntfy = defineChannelKind({
  kind: 'ntfy',
  label: 'ntfy',
  validateValue: (value) => void ntfyConf(value),
  config: ntfyConfig,
  // Healthchecks' is_noop: priority 0 ("Disabled") sends nothing for that status.
  notifies(value) {
    const conf = ntfyConf(value);
    return { down: conf.priority !== 0, up: conf.priorityUp !== 0 };
  },
  transport: async () => (await import('./transport.ts')).ntfyTransport,
});
