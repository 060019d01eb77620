// Healthchecks' Telegram transport: sendMessage through the bot (TELEGRAM_TOKEN) to the chat id,
// the HTML text of telegram_message.html. The errors Healthchecks treats as final (the bot was
// blocked or kicked, the chat is gone) fail the notification for good; others are retried. At
// most 6 messages a minute per chat leave this process (Healthchecks' TokenBucket).
import { postJson } from '../shared/incident.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { telegramConf } from './config.ts';
import { telegramText } from './message.ts';

const TELEGRAM_API = 'https://api.telegram.org';

/** Healthchecks' Telegram.PERMANENT_ERRORS: the descriptions no retry can change. */
export const PERMANENT_ERRORS: readonly string[] = [
  'Forbidden: the group chat was deleted',
  'Forbidden: bot was blocked by the user',
  'Forbidden: user is deactivated',
  'Forbidden: bot was kicked from the group chat',
  'Forbidden: bot was kicked from the supergroup chat',
  'Bad Request: chat not found',
];

/** Healthchecks' raise_for_response: the error's wording, and whether it is final. */
export function telegramFailure(status: number, body: string): { message: string; permanent: boolean } {
  const message = `Received status code ${status}`;
  let doc: { description?: unknown; parameters?: { migrate_to_chat_id?: unknown } };
  try {
    doc = JSON.parse(body);
  } catch {
    return { message, permanent: false };
  }
  if (typeof doc?.description !== 'string') return { message, permanent: false };
  const chatId = doc.parameters?.migrate_to_chat_id;
  // Healthchecks stores the new id and sends again; the channel's value must change first here.
  if (Number.isInteger(chatId)) return { message: `${doc.description} (the group is now the supergroup ${chatId}: update the channel's id)`, permanent: true };
  return { message: `${message} with a message: "${doc.description}"`, permanent: PERMANENT_ERRORS.includes(doc.description) };
}

const CAPACITY = 6;
const REFILL_MS = 60_000;
const buckets = new Map<number, { tokens: number; updated: number }>();

/** Healthchecks' TokenBucket.authorize_telegram, in memory: per process, not per installation. */
export function authorizeTelegram(chatId: number, now = Date.now()): boolean {
  const bucket = buckets.get(chatId) ?? { tokens: 1, updated: now };
  bucket.tokens = Math.min(1, bucket.tokens + (now - bucket.updated) / REFILL_MS);
  bucket.updated = now;
  buckets.set(chatId, bucket);
  if (bucket.tokens - 1 / CAPACITY < 0) return false;
  bucket.tokens -= 1 / CAPACITY;
  if (buckets.size > 10_000) for (const [k, b] of buckets) if (b.tokens + (now - b.updated) / REFILL_MS >= 1) buckets.delete(k);
  return true;
}

export const telegramTransport: Transport = {
  async send(d) {
    const token = d.settings.telegramToken;
    if (!token) throw new DeliveryError('Telegram notifications are not enabled (TELEGRAM_TOKEN is not set).', true);
    const conf = telegramConf(d.channel.value);
    if (!authorizeTelegram(conf.id)) throw new DeliveryError('Rate limit exceeded');
    let permanent = false;
    try {
      await postJson(d, {
        url: `${TELEGRAM_API}/bot${token}/sendMessage`,
        body: { chat_id: conf.id, message_thread_id: conf.threadId, text: await telegramText(d), parse_mode: 'html' },
        failure(status, body) {
          const f = telegramFailure(status, body);
          permanent = f.permanent;
          return f.message;
        },
      });
    } catch (err) {
      if (permanent && err instanceof DeliveryError) throw new DeliveryError(err.message, true, err.retryAfterMs);
      throw err;
    }
  },
};
