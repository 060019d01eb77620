// The bot's webhook, the pure half (after Healthchecks' telegram_bot view): which Telegram updates
// are a /start, and the answer, which gives the chat's value for the "Add integration" form.
// Healthchecks answers with a signed link to its add page; our form takes the value itself, so
// the answer carries that value (docs/decisions.md, "Telegram's /start answers with the value").
import { djangoEscape } from '../shared/incident.ts';

/** Healthchecks' TelegramChat.type: the chats a channel can name. */
const CHAT_TYPES = ['private', 'group', 'supergroup', 'channel'] as const;
export type ChatType = (typeof CHAT_TYPES)[number];

/** A /start the bot answers: the chat it came from, and the forum topic when there is one. */
export interface BotStart {
  /** The update's id (Telegram's update_id), null when absent: the reply's idempotency key. */
  updateId: number | null;
  chatId: number;
  chatType: ChatType;
  /** Healthchecks' `chat.title or chat.username`; null: neither (a private chat without a username). */
  name: string | null;
  /** The forum topic's message_thread_id; null: the chat itself. */
  threadId: number | null;
}

type Doc = Record<string, unknown>;
const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** `/start`, `/start@SomeBot` and a deep link's `/start payload`, as the message's first word. */
const START = /^\/start(?:@[A-Za-z0-9_]+)?(?:\s|$)/;

/**
 * The /start in a Telegram Update (already parsed JSON), or null for anything else: other
 * texts, edits, joins, a shape Telegram does not send. Null is answered 200 and nothing is sent,
 * as Healthchecks does, or Telegram would deliver the same update again and again.
 */
export function startOf(update: unknown): BotStart | null {
  if (!isDoc(update)) return null;
  // A channel's posts come as "channel_post" in the shape of "message" (Healthchecks reads both).
  const message = isDoc(update.channel_post) ? update.channel_post : update.message;
  if (!isDoc(message) || typeof message.text !== 'string' || !START.test(message.text)) return null;
  const chat = message.chat;
  if (!isDoc(chat) || !Number.isSafeInteger(chat.id)) return null;
  const chatType = CHAT_TYPES.find((t) => t === chat.type);
  if (!chatType) return null;
  // Outside a forum a reply's message_thread_id names a reply thread, not a topic: sendMessage
  // with it would fail there, so only a topic message's thread id is kept.
  const threadId = message.is_topic_message === true && Number.isSafeInteger(message.message_thread_id) ? (message.message_thread_id as number) : null;
  return {
    updateId: Number.isSafeInteger(update.update_id) ? (update.update_id as number) : null,
    chatId: chat.id as number,
    chatType,
    name: nonEmpty(chat.title) ?? nonEmpty(chat.username),
    threadId,
  };
}

/**
 * The channel value for the chat, as Healthchecks stores it (json.dumps of id, type, name and
 * thread_id, with its ", " and ": "), so the telegram kind's config.ts reads it back as is.
 */
export function chatValue(s: BotStart): string {
  return `{"id": ${s.chatId}, "type": ${JSON.stringify(s.chatType)}, "name": ${JSON.stringify(s.name)}, "thread_id": ${s.threadId === null ? 'null' : s.threadId}}`;
}

/** The answer (HTML, parse_mode "html"): where to paste, and the value in <code> (one tap copies it). */
export function startReply(s: BotStart, siteName: string): string {
  const where = s.name === null ? 'this chat' : `<b>${djangoEscape(s.name)}</b>`;
  const topic = s.threadId === null ? '' : ' (this topic)';
  return [
    `Please paste this value into ${djangoEscape(siteName)}'s "Add integration" form (Telegram) to complete the integration for ${where}${topic}:`,
    '',
    `<code>${djangoEscape(chatValue(s))}</code>`,
  ].join('\n');
}
