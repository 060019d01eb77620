// Pushover's Messages API, as Healthchecks calls it: a form POST with the operator's token, the
// user key, the status's priority, title, HTML message, the check's unique key as tag and a link.
// The emergency priority (2) repeats every PUSHOVER_EMERGENCY_RETRY_DELAY seconds until
// PUSHOVER_EMERGENCY_EXPIRATION; the up alert after an emergency down first cancels the repeats
// by that tag. At most 6 messages a minute per user key leave this process (Healthchecks' bucket).
// A 400 saying the user key is invalid marks the channel broken: trying again will not help.
import { createHash } from 'node:crypto';
import { checkPageUrl, uniqueKeyOf } from '../shared/incident.ts';
import { baseUrlFor, httpAttempt } from '../shared/http.ts';
import { DeliveryError, type Delivery, type Transport } from '../shared/transport.ts';
import { pushoverConf } from './config.ts';
import { pushoverMessage, pushoverTitle } from './message.ts';

export const PUSHOVER_URL = 'https://api.pushover.net/1/messages.json';
const CANCEL_URL = (tag: string) => `https://api.pushover.net/1/receipts/cancel_by_tag/${encodeURIComponent(tag)}.json`;
const CAPACITY = 6;
const REFILL_MS = 60_000;

const buckets = new Map<string, { tokens: number; updated: number }>();

/** Healthchecks' TokenBucket.authorize_pushover, in memory: per process, not per installation. */
export function authorizePushover(userKey: string, now = Date.now()): boolean {
  const key = createHash('sha1').update(userKey).digest('hex');
  const bucket = buckets.get(key) ?? { tokens: 1, updated: now };
  bucket.tokens = Math.min(1, bucket.tokens + (now - bucket.updated) / REFILL_MS);
  bucket.updated = now;
  const allowed = bucket.tokens - 1 / CAPACITY >= 0;
  if (allowed) bucket.tokens -= 1 / CAPACITY;
  buckets.set(key, bucket);
  if (buckets.size > 10_000) for (const [k, b] of buckets) if (b.tokens + (now - b.updated) / REFILL_MS >= 1) buckets.delete(k);
  return allowed;
}

/** Healthchecks' Pushover.raise_for_response: a 400 with {"user": "invalid"} is for good. */
export function pushoverFailure(status: number, body: string): DeliveryError {
  if (status === 400) {
    try {
      if ((JSON.parse(body) as { user?: unknown } | null)?.user === 'invalid') return new DeliveryError(`Received status code ${status} (invalid user)`, true);
    } catch {
      // Not JSON: an ordinary failure, retried.
    }
  }
  return new DeliveryError(`Received status code ${status}`);
}

async function postForm(d: Delivery, url: string, form: Record<string, string | number>): Promise<void> {
  let permanent = false;
  try {
    await httpAttempt({
      method: 'POST',
      url,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])),
      timeoutMs: d.settings.timeoutMs,
      idempotencyKey: d.id,
      allowPrivateIps: d.settings.allowPrivateIps,
      baseUrl: baseUrlFor(d),
      failure(status, body) {
        const err = pushoverFailure(status, body);
        permanent = err.permanent;
        return err.message;
      },
    });
  } catch (err) {
    // httpAttempt's error keeps Retry-After; only the permanence comes from the body.
    if (permanent && err instanceof DeliveryError) throw new DeliveryError(err.message, true);
    throw err;
  }
}

export const pushoverTransport: Transport = {
  async send(d) {
    const settings = d.settings.pushover;
    if (!settings) throw new DeliveryError('Pushover notifications are not enabled.', true);
    const conf = pushoverConf(d.channel.value);
    const priority = d.status === 'up' ? conf.priorityUp : conf.priority;
    // Not queued at all (channel flags follow the priorities); kept for a value changed since.
    if (priority === -3) throw new DeliveryError(`Pushover notifications for ${d.status} are disabled (priority -3)`, true);
    if (!authorizePushover(conf.userKey)) throw new DeliveryError('Rate limit exceeded');
    const tag = uniqueKeyOf(d);
    // The down alert repeats until acknowledged or expired: stop it before saying "up".
    if (d.status === 'up' && conf.priority === 2) await postForm(d, CANCEL_URL(tag), { token: settings.apiToken });
    const form: Record<string, string | number> = {
      token: settings.apiToken,
      user: conf.userKey,
      message: await pushoverMessage(d),
      title: pushoverTitle(d),
      html: 1,
      priority,
      tags: tag,
      url: checkPageUrl(d),
      url_title: `View on ${d.settings.siteName}`,
    };
    if (priority === 2) {
      form.retry = settings.emergencyRetryDelay;
      form.expire = settings.emergencyExpiration;
    }
    await postForm(d, PUSHOVER_URL, form);
  },
};
