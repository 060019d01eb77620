// What the Twilio kinds (sms, whatsapp, call) share: the API's URLs and authentication, the
// delivery-status callback, Healthchecks' reading of Twilio's refusals, and the monthly quota.
import type { TwilioSettings } from '../../../notifications/settings.ts';
import type { PhoneQuota } from '../../../notifications/phone-quota.ts';
import type { LimitedService } from '../../../notifications/limit-notice.ts';
import { baseUrlFor, httpAttempt } from './http.ts';
import { DeliveryError, type Delivery } from './transport.ts';

/**
 * Where Twilio reports how the delivery went (Healthchecks' Notification.status_url): a failed
 * or undelivered message, or a call nobody answered, becomes the notification's error.
 */
export function statusCallbackUrl(d: Pick<Delivery, 'id' | 'settings'>): string {
  return `${d.settings.siteRoot}/api/v3/notifications/${d.id}/status`;
}

// Twilio's "The 'To' number is not a valid phone number": trying again cannot help.
const INVALID_NUMBER = 21211;

/** POSTs a form to the account's Messages.json or Calls.json, judged as Healthchecks judges it. */
export async function twilioPost(d: Delivery, twilio: TwilioSettings, resource: 'Messages' | 'Calls', form: Record<string, string>): Promise<void> {
  const url = `${twilio.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(twilio.account)}/${resource}.json`;
  const auth = Buffer.from(`${twilio.account}:${twilio.auth}`).toString('base64');
  try {
    await httpAttempt({
      method: 'POST',
      url,
      headers: { Authorization: `Basic ${auth}` },
      body: new URLSearchParams(form),
      timeoutMs: d.settings.timeoutMs,
      idempotencyKey: d.id,
      // TWILIO_API_URL is the operator's own setting, not a user's URL; INTEGRATION_BASE_URLS
      // follows the private-address rule of every kind.
      allowPrivateIps: baseUrlFor(d) === undefined || d.settings.allowPrivateIps,
      baseUrl: baseUrlFor(d),
      failure: (status, body) => (status === 400 && errorCode(body) === INVALID_NUMBER ? 'Invalid phone number' : `Received status code ${status}`),
    });
  } catch (err) {
    if (err instanceof DeliveryError && err.message === 'Invalid phone number') throw new DeliveryError(err.message, true);
    throw err;
  }
}

function errorCode(body: string): number | null {
  try {
    const doc = JSON.parse(body) as { code?: unknown };
    return typeof doc.code === 'number' ? doc.code : null;
  } catch {
    return null;
  }
}

/**
 * Counts the message against the owner's monthly quota; over it, the owner is told (once a
 * month) and the alert fails for good with Healthchecks' words ("Monthly SMS limit exceeded"),
 * nothing sent.
 */
export async function chargeQuota(d: Delivery, quota: PhoneQuota, refusal: string, notice: { service: LimitedService; message: string }): Promise<void> {
  if (!(await d.authorizePhoneMessage(quota, notice))) throw new DeliveryError(refusal, true);
}
