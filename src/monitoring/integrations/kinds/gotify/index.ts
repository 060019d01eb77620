// Gotify (Healthchecks' "gotify"): the value is Healthchecks' JSON (server URL, app token, a
// priority for down and one for up). Always on, as in Healthchecks. The server is the user's:
// a private address needs INTEGRATIONS_ALLOW_PRIVATE_IPS, as for webhooks.
import { defineChannelKind } from '../definition.ts';
import { gotifyConf, gotifyConfig } from './config.ts';

export const gotify = defineChannelKind({
  kind: 'gotify',
  label: 'Gotify',
  validateValue: (value) => void gotifyConf(value),
  config: gotifyConfig,
  // Healthchecks' is_noop: priority 0 ("Disabled") sends nothing for that status.
  notifies(value) {
    const conf = gotifyConf(value);
    return { down: conf.priority !== 0, up: conf.priorityUp !== 0 };
  },
  transport: async () => (await import('./transport.ts')).gotifyTransport,
});
