// ntfy's JSON publishing, as Healthchecks uses it: a POST to the server's root with the topic,
// the status's priority, title, Markdown message, a red or green circle tag and a link to the
// check. At most 6 messages a minute per server and topic leave this process, as Healthchecks'
// token bucket allows (a message over it is retried later, "Rate limit exceeded").
import { createHash } from 'node:crypto';
import { checkPageUrl, postJson } from '../shared/incident.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { ntfyConf } from './config.ts';
import { ntfyMessage, ntfyTitle } from './message.ts';

const NTFY_SH = 'https://ntfy.sh';
const CAPACITY = 6;
const REFILL_MS = 60_000;

/** Healthchecks' TokenBucket.authorize_ntfy, in memory: per process, not per installation. */
const buckets = new Map<string, { tokens: number; updated: number }>();

export function authorizeNtfy(server: string, topic: string, now = Date.now()): boolean {
  const key = createHash('sha1').update(`${server}-${topic}`).digest('hex');
  const bucket = buckets.get(key) ?? { tokens: 1, updated: now };
  bucket.tokens = Math.min(1, bucket.tokens + (now - bucket.updated) / REFILL_MS);
  bucket.updated = now;
  if (bucket.tokens - 1 / CAPACITY < 0) {
    buckets.set(key, bucket);
    return false;
  }
  bucket.tokens -= 1 / CAPACITY;
  buckets.set(key, bucket);
  // Forget buckets that have filled up again, so the map stays small.
  if (buckets.size > 10_000) for (const [k, b] of buckets) if (b.tokens + (now - b.updated) / REFILL_MS >= 1) buckets.delete(k);
  return true;
}

export const ntfyTransport: Transport = {
  async send(d) {
    const conf = ntfyConf(d.channel.value);
    const priority = d.status === 'up' ? conf.priorityUp : conf.priority;
    // Not queued at all (channel flags follow the priorities); a test of such a side says why.
    if (priority === 0) throw new DeliveryError(`ntfy notifications for ${d.status} are disabled (priority 0)`, true);
    if (!authorizeNtfy(conf.url, conf.topic)) throw new DeliveryError('Rate limit exceeded');
    const headers: Record<string, string> = {};
    if (conf.token) headers.Authorization = `Bearer ${conf.token}`;
    else if (conf.url === NTFY_SH && d.settings.ntfyShToken) headers.Authorization = `Bearer ${d.settings.ntfyShToken}`;
    await postJson(d, {
      url: conf.url,
      headers,
      body: {
        topic: conf.topic,
        priority,
        title: ntfyTitle(d),
        message: await ntfyMessage(d),
        markdown: true,
        tags: [d.status === 'down' ? 'red_circle' : 'green_circle'],
        actions: [{ action: 'view', label: `View on ${d.settings.siteName}`, url: checkPageUrl(d) }],
      },
    });
  },
};
