// Pushover (Healthchecks' "po"): the value is Healthchecks' "user_key|prio|prio_up". Needs the
// operator's PUSHOVER_API_TOKEN: without it, Healthchecks' "Pushover notifications are not enabled."
import { defineChannelKind } from '../definition.ts';
import { pushoverConf, pushoverConfig } from './config.ts';

export const pushover = defineChannelKind({
  kind: 'pushover',
  hcKind: 'po',
  label: 'Pushover',
  validateValue: (value) => void pushoverConf(value),
  config: pushoverConfig,
  // Healthchecks' is_noop: priority -3 ("Disabled") sends nothing for that status.
  notifies(value) {
    const conf = pushoverConf(value);
    return { down: conf.priority !== -3, up: conf.priorityUp !== -3 };
  },
  enabled: (settings) => settings.pushover !== null,
  requires: 'PUSHOVER_API_TOKEN',
  transport: async () => (await import('./transport.ts')).pushoverTransport,
});
