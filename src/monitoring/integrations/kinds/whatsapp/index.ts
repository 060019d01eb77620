// WhatsApp (Healthchecks' "whatsapp"): the value is an E.164 phone number; messages go through
// Twilio's WhatsApp sender with the operator's two Content API templates.
import { defineChannelKind } from '../definition.ts';
import { validatePhone } from '../shared/phone.ts';

export const whatsapp = defineChannelKind({
  kind: 'whatsapp',
  label: 'WhatsApp',
  validateValue: validatePhone,
  // Healthchecks' TWILIO_USE_WHATSAPP, with every setting its transport needs.
  enabled: (settings) => settings.whatsappEnabled && !!settings.twilio?.whatsapp && !!settings.twilio.messagingServiceSid,
  requires: 'TWILIO_USE_WHATSAPP=True, TWILIO_ACCOUNT, TWILIO_AUTH, TWILIO_FROM, TWILIO_MESSAGING_SERVICE_SID, WHATSAPP_DOWN_CONTENT_SID and WHATSAPP_UP_CONTENT_SID',
  transport: async () => (await import('./transport.ts')).whatsappTransport,
});
