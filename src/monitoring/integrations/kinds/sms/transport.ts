// SMS through Twilio's Messages API (or any service that speaks it: TWILIO_API_URL).
import { httpAttempt } from '../shared/http.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { smsText } from './message.ts';

export const smsTransport: Transport = {
  async send(d) {
    const twilio = d.settings.twilio;
    if (!twilio) throw new DeliveryError('SMS notifications are not configured (set TWILIO_ACCOUNT, TWILIO_AUTH and TWILIO_FROM).', true);
    const url = `${twilio.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(twilio.account)}/Messages.json`;
    const auth = Buffer.from(`${twilio.account}:${twilio.auth}`).toString('base64');
    await httpAttempt({
      method: 'POST',
      url,
      headers: { Authorization: `Basic ${auth}` },
      body: new URLSearchParams({ From: twilio.from, To: d.channel.value, Body: await smsText(d) }),
      timeoutMs: d.settings.timeoutMs,
      idempotencyKey: d.id,
      // TWILIO_API_URL is the operator's own setting, not a user's URL.
      allowPrivateIps: true,
    });
  },
};
