// SMS (Healthchecks' "sms"): the value is an E.164 phone number; messages go through Twilio.
import { defineChannelKind } from '../definition.ts';
import { validatePhone } from '../shared/phone.ts';

export const sms = defineChannelKind({
  kind: 'sms',
  label: 'SMS',
  validateValue: validatePhone,
  // Not a switch: without TWILIO_ACCOUNT/AUTH/FROM the transport fails with its own message.
  transport: async () => (await import('./transport.ts')).smsTransport,
});
