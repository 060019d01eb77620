// Phone calls (Healthchecks' "call"): the value is an E.164 phone number; Twilio calls it and
// reads the alert aloud. Down only: Healthchecks does not call to say a check is back up.
import { defineChannelKind } from '../definition.ts';
import { validatePhone } from '../shared/phone.ts';

export const call = defineChannelKind({
  kind: 'call',
  // "Call notifications are not enabled." as Healthchecks words it.
  label: 'Call',
  validateValue: validatePhone,
  notifies: () => ({ down: true, up: false }),
  enabled: (settings) => settings.twilio !== null,
  requires: 'TWILIO_ACCOUNT, TWILIO_AUTH and TWILIO_FROM',
  transport: async () => (await import('./transport.ts')).callTransport,
});
