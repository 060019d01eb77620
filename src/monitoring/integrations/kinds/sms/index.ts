// SMS (Healthchecks' "sms"): the value is an E.164 phone number; messages go through Twilio.
import { validationError } from '../../../../shared/errors.ts';
import { defineChannelKind } from '../definition.ts';

const PHONE = /^\+[1-9]\d{6,14}$/;

export const sms = defineChannelKind({
  kind: 'sms',
  label: 'SMS',
  validateValue(value) {
    if (!PHONE.test(value)) throw validationError('value is not a valid phone number (E.164, e.g. +15551234567)');
  },
  // Not a switch: without TWILIO_ACCOUNT/AUTH/FROM the transport fails with its own message.
  transport: async () => (await import('./transport.ts')).smsTransport,
});
