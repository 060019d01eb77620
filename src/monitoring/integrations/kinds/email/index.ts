// Email (Healthchecks' "email"): the value is an address; messages go out over SMTP (EMAIL_HOST).
import { validationError } from '../../../../shared/errors.ts';
import { defineChannelKind } from '../definition.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const email = defineChannelKind({
  kind: 'email',
  label: 'Email',
  // SMTP (EMAIL_HOST), not HTTP: INTEGRATION_BASE_URLS cannot name it.
  overHttp: false,
  // An address that is not the creator's own waits for its recipient's consent (integrations/consent.ts).
  confirmsRecipient: true,
  validateValue(value) {
    if (!EMAIL.test(value)) throw validationError('value is not a valid email address');
  },
  // Not a switch: without EMAIL_HOST the transport fails with its own message.
  transport: async () => (await import('./transport.ts')).emailTransport,
});
