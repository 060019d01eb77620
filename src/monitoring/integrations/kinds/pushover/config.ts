// Pushover's channel value as Healthchecks stores it: "user_key|prio|prio_up" (older values
// "user_key|prio", the up priority then the same). Priorities are Pushover's -2 to 2, and
// Healthchecks' -3: "Disabled: Will not notify" for that status.
import { validationError } from '../../../../shared/errors.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface PushoverConf {
  userKey: string;
  /** Healthchecks keeps the priorities as the text it stored ("2" is the emergency priority). */
  priority: number;
  priorityUp: number;
}

export const PUSHOVER_PRIORITIES = [-3, -2, -1, 0, 1, 2] as const;
const FORM = 'value must be "<user key>|<priority>|<priority for up>", priorities -3 (no notification) to 2 (emergency)';

export function pushoverConf(value: string): PushoverConf {
  const pieces = value.split('|');
  if (pieces.length < 2 || pieces.length > 3) throw validationError(FORM);
  const [userKey, down, up = down] = pieces as [string, string, string?];
  // Pushover's user and group keys: 30 letters and digits (Healthchecks takes what Pushover hands back).
  if (!/^[A-Za-z0-9]{1,50}$/.test(userKey)) throw validationError('user key must be letters and digits (up to 50)');
  const prio = (s: string | undefined) => (s !== undefined && /^-?\d$/.test(s) && (PUSHOVER_PRIORITIES as readonly number[]).includes(Number(s)) ? Number(s) : undefined);
  const priority = prio(down);
  const priorityUp = prio(up);
  if (priority === undefined || priorityUp === undefined) throw validationError(FORM);
  return { userKey, priority, priorityUp };
}

/** AddPushoverForm.get_value: f"{key}|{prio}|{prio_up}". */
export const pushoverConfig: ChannelConfigHooks<PushoverConf> = {
  read: pushoverConf,
  value: (conf) => `${conf.userKey}|${conf.priority}|${conf.priorityUp}`,
};
