// The phone number the Twilio kinds (sms, whatsapp, call) take: E.164, as Healthchecks' forms
// clean it ("+" and the country code, no spaces).
import { validationError } from '../../../../shared/errors.ts';

const PHONE = /^\+[1-9]\d{6,14}$/;

export function validatePhone(value: string): void {
  if (!PHONE.test(value)) throw validationError('value is not a valid phone number (E.164, e.g. +15551234567)');
}
