// Telegram's channel value as Healthchecks stores it (TelegramConf): {"id": <chat id>, "type":
// "private" | "group" | …, "name": "…"} and, for a forum topic, "thread_id".
import { validationError } from '../../../../shared/errors.ts';
import { intField, jsonObject } from '../shared/json-value.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface TelegramConf {
  /** The chat's id (negative for groups). */
  id: number;
  /** A forum topic's message_thread_id; null: the chat itself. */
  threadId: number | null;
}

const FORM = 'value must be {"id": <chat id>, "type": "…", "name": "…"} (and "thread_id" for a topic)';

export function telegramConf(value: string): TelegramConf {
  const doc = jsonObject(value);
  if (!doc) throw validationError(FORM);
  const id = intField(doc, 'id');
  if (id === undefined) throw validationError('id must be a whole number (the chat id)');
  const threadId = doc.thread_id === undefined || doc.thread_id === null ? null : intField(doc, 'thread_id');
  if (threadId === undefined) throw validationError('thread_id must be a whole number or null');
  for (const key of ['type', 'name'] as const) {
    if (doc[key] !== undefined && doc[key] !== null && typeof doc[key] !== 'string') throw validationError(`${key} must be text`);
  }
  return { id, threadId };
}

/** The chat as the value describes it: TelegramConf and the type and name the dashboard shows. */
export interface TelegramChat extends TelegramConf {
  /** Telegram's chat type ("private", "group", "supergroup", "channel"); null when not stored. */
  type: string | null;
  /** The chat's title or the user's username; null when not stored. */
  name: string | null;
}

/** What `config` takes: the chat id; type, name and thread optional. */
export type TelegramForm = Pick<TelegramChat, 'id'> & Partial<TelegramChat>;

export function telegramChat(value: string): TelegramChat {
  const conf = telegramConf(value);
  // telegramConf has checked the doc, and that type and name are text when present.
  const doc = jsonObject(value)!;
  const text = (key: 'type' | 'name') => (typeof doc[key] === 'string' ? (doc[key] as string) : null);
  return { ...conf, type: text('type'), name: text('name') };
}

/** The add view's json.dumps(recipient): id, type, name, thread_id in that order, absent ones null. */
export const telegramConfig: ChannelConfigHooks<TelegramChat, TelegramForm> = {
  read: telegramChat,
  value: (chat) => pythonJson({ id: chat.id, type: chat.type ?? null, name: chat.name ?? null, thread_id: chat.threadId ?? null }),
};
