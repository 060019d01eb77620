// SMS through Twilio's Messages API (or any service that speaks it: TWILIO_API_URL), with
// Healthchecks' fields: the status callback, RiskCheck off, the messaging service if any.
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { chargeQuota, statusCallbackUrl, twilioPost } from '../shared/twilio.ts';
import { smsText } from './message.ts';

export const smsTransport: Transport = {
  async send(d) {
    const twilio = d.settings.twilio;
    if (!twilio) throw new DeliveryError('SMS notifications are not configured (set TWILIO_ACCOUNT, TWILIO_AUTH and TWILIO_FROM).', true);
    const body = await smsText(d);
    await chargeQuota(d, 'messages', 'Monthly SMS limit exceeded', { service: 'SMS', message: body });
    await twilioPost(d, twilio, 'Messages', {
      To: d.channel.value,
      Body: body,
      StatusCallback: statusCallbackUrl(d),
      // Healthchecks turns off Twilio's SMS pumping protection: alerts go to numbers their owners gave.
      RiskCheck: 'disable',
      // A messaging service picks the sender itself (Healthchecks sends one or the other).
      ...(twilio.messagingServiceSid ? { MessagingServiceSid: twilio.messagingServiceSid } : { From: twilio.from }),
    });
  },
};
