// A shell channel's value as Healthchecks stores it (AddShellForm.get_value, ShellConf):
// {"cmd_down": "…", "cmd_up": "…"}; an empty command sends nothing for its status (is_noop).
import { validationError } from '../../../../shared/errors.ts';
import { jsonObject, stringField } from '../shared/json-value.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface ShellConf {
  cmdDown: string;
  cmdUp: string;
}

export function shellConf(value: string): ShellConf {
  const doc = jsonObject(value);
  if (!doc) throw validationError('value must be {"cmd_down": "…", "cmd_up": "…"}');
  const conf: Partial<ShellConf> = {};
  for (const [key, field] of [['cmd_down', 'cmdDown'], ['cmd_up', 'cmdUp']] as const) {
    const cmd = stringField(doc, key);
    if (cmd === undefined) throw validationError(`${key} must be text (empty: nothing runs for that status)`);
    // Healthchecks' form: CharField(max_length=1000), Django's wording.
    if (cmd.length > 1000) throw validationError(`${key}: Ensure this value has at most 1000 characters (it has ${cmd.length}).`);
    conf[field] = cmd;
  }
  return conf as ShellConf;
}

/** AddShellForm.get_value: json.dumps(cleaned_data, sort_keys=True); a command left out is "" (runs nothing). */
export const shellConfig: ChannelConfigHooks<ShellConf, Partial<ShellConf>> = {
  read: shellConf,
  value: (conf) => pythonJson({ cmd_down: conf.cmdDown ?? '', cmd_up: conf.cmdUp ?? '' }),
};
