// Shell commands (Healthchecks' "shell"): the value is Healthchecks' JSON, a command for down and
// one for up (empty: that status sends nothing). The commands run on this host with the
// server's rights, so the kind is off unless the operator sets SHELL_ENABLED.
import { defineChannelKind } from '../definition.ts';
import { shellConf, shellConfig } from './config.ts';

export const shell = defineChannelKind({
  kind: 'shell',
  label: 'Shell',
  overHttp: false,
  validateValue: (value) => void shellConf(value),
  config: shellConfig,
  notifies: (value) => {
    const conf = shellConf(value);
    return { down: conf.cmdDown !== '', up: conf.cmdUp !== '' };
  },
  enabled: (settings) => settings.shellEnabled,
  requires: 'SHELL_ENABLED=True',
  transport: async () => (await import('./transport.ts')).shellTransport,
});
