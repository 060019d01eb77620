// Pushbullet (Healthchecks' "pushbullet"): the value is the access token Pushbullet's OAuth
// handed Healthchecks. Always on, as in Healthchecks (its switch is the OAuth client's presence,
// which only its "add" screen needs).
import { validationError } from '../../../../shared/errors.ts';
import { defineChannelKind } from '../definition.ts';

export const pushbullet = defineChannelKind({
  kind: 'pushbullet',
  label: 'Pushbullet',
  validateValue(value) {
    // Pushbullet's access tokens ("o.…"): printable, no spaces; they travel in a header.
    if (!/^[\x21-\x7e]{1,200}$/.test(value)) throw validationError('value must be a Pushbullet access token');
  },
  transport: async () => (await import('./transport.ts')).pushbulletTransport,
});
