// WhatsApp through Twilio's Messages API. WhatsApp lets a business start a conversation only
// with a template approved in advance, so the text lives in Twilio (the Content API): we send
// the template for the status and its one variable, the check's name (Healthchecks' shape).
import { nameThenCode } from '../shared/text.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { chargeQuota, statusCallbackUrl, twilioPost } from '../shared/twilio.ts';
import { smsText } from '../sms/message.ts';

export const whatsappTransport: Transport = {
  async send(d) {
    const twilio = d.settings.twilio;
    // The kind's switch refuses before this; a direct call still gets Healthchecks' words.
    if (!twilio?.whatsapp || !twilio.messagingServiceSid) throw new DeliveryError('WhatsApp notifications are not enabled.', true);
    // Healthchecks counts WhatsApp messages in the SMS quota, with a word of their own; the mail
    // to the owner quotes the SMS text (the template's words live in Twilio).
    await chargeQuota(d, 'messages', 'Monthly message limit exceeded', { service: 'WhatsApp', message: await smsText(d) });
    await twilioPost(d, twilio, 'Messages', {
      To: `whatsapp:${d.channel.value}`,
      From: `whatsapp:${twilio.from}`,
      MessagingServiceSid: twilio.messagingServiceSid,
      ContentSid: d.status === 'down' ? twilio.whatsapp.downContentSid : twilio.whatsapp.upContentSid,
      ContentVariables: JSON.stringify({ 1: nameThenCode(d.check) }),
      StatusCallback: statusCallbackUrl(d),
    });
  },
};
