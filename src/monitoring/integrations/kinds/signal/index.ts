// Signal (Healthchecks' "signal"): the value is Healthchecks' PhoneConf JSON (a number or
// username, and which statuses it gets); messages go through signal-cli's JSON-RPC socket at
// SIGNAL_CLI_SOCKET. Without it the kind is off: deliveries are refused for good, saying why.
import { defineChannelKind } from '../definition.ts';
import { signalConf, signalConfig } from './config.ts';

export const signal = defineChannelKind({
  kind: 'signal',
  label: 'Signal',
  // Not HTTP: INTEGRATION_BASE_URLS cannot name it (SIGNAL_CLI_SOCKET is where it goes).
  overHttp: false,
  validateValue: (value) => void signalConf(value),
  config: signalConfig,
  notifies(value) {
    const conf = signalConf(value);
    return { down: conf.down, up: conf.up };
  },
  enabled: (settings) => settings.signalCliSocket !== null,
  requires: 'SIGNAL_CLI_SOCKET',
  transport: async () => (await import('./transport.ts')).signalTransport,
});
