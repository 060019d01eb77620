// Phone calls through Twilio's Calls API: the TwiML rides along with the request, so Twilio
// needs nothing of ours to fetch while the call rings.
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { chargeQuota, statusCallbackUrl, twilioPost } from '../shared/twilio.ts';
import { callText, callTwiml } from './message.ts';

export const callTransport: Transport = {
  async send(d) {
    const twilio = d.settings.twilio;
    if (!twilio) throw new DeliveryError('Call notifications are not enabled.', true);
    // An up alert cannot reach here (the channel notifies of down only); a test is a down alert.
    const text = callText(d);
    await chargeQuota(d, 'calls', 'Monthly phone call limit exceeded', { service: 'phone call', message: text });
    await twilioPost(d, twilio, 'Calls', {
      From: twilio.from,
      To: d.channel.value,
      Twiml: callTwiml(text),
      StatusCallback: statusCallbackUrl(d),
    });
  },
};
