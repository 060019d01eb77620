// The bot's own calls outside an alert: the answer to a /start (sendMessage) and the webhook's
// registration (setWebhook). Same HTTP attempt as the alerts: INTEGRATION_BASE_URLS' telegram
// entry, the private-address rule, NOTIFY_TIMEOUT_MS, Healthchecks' wording of a refusal.
import { randomUUID } from 'node:crypto';
import type { NotifySettings } from '../../../notifications/settings.ts';
import { httpAttempt } from '../shared/http.ts';
import { DeliveryError } from '../shared/transport.ts';
import { startReply, type BotStart } from './bot.ts';
import { authorizeTelegram, telegramFailure } from './transport.ts';

const TELEGRAM_API = 'https://api.telegram.org';

async function callBot(settings: NotifySettings, method: string, body: unknown, idempotencyKey: string): Promise<void> {
  const token = settings.telegramToken;
  if (!token) throw new DeliveryError('Telegram notifications are not enabled (TELEGRAM_TOKEN is not set).', true);
  await httpAttempt({
    method: 'POST',
    url: `${TELEGRAM_API}/bot${token}/${method}`,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: settings.timeoutMs,
    idempotencyKey,
    allowPrivateIps: settings.allowPrivateIps,
    baseUrl: Object.hasOwn(settings.baseUrls, 'telegram') ? settings.baseUrls.telegram : undefined,
    failure: (status, text) => telegramFailure(status, text).message,
  });
}

/**
 * Answers a /start with the chat's value. The answer counts against the chat's 6 messages a
 * minute like an alert, so a flood of /start (or of forged updates) cannot make the bot flood a
 * chat; over the limit nothing is sent (DeliveryError "Rate limit exceeded").
 */
export async function answerStart(settings: NotifySettings, start: BotStart): Promise<void> {
  if (!authorizeTelegram(start.chatId)) throw new DeliveryError('Rate limit exceeded');
  const idempotencyKey = start.updateId === null ? randomUUID() : `telegram-update-${start.updateId}`;
  await callBot(
    settings,
    'sendMessage',
    { chat_id: start.chatId, message_thread_id: start.threadId, text: startReply(start, settings.siteName), parse_mode: 'html' },
    idempotencyKey,
  );
}

/** Telegram's setWebhook: updates go to `url`, carrying `secret` (when given) in X-Telegram-Bot-Api-Secret-Token. */
export async function setWebhook(settings: NotifySettings, url: string, secret: string | null): Promise<void> {
  // Only what the webhook reads: messages and channel posts (Healthchecks' telegram_bot).
  const body: Record<string, unknown> = { url, allowed_updates: ['message', 'channel_post'] };
  if (secret !== null) body.secret_token = secret;
  await callBot(settings, 'setWebhook', body, randomUUID());
}
