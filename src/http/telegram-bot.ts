// POST /integrations/telegram/bot/: the Telegram bot's webhook (Healthchecks' telegram_bot). A
// /start in a chat is answered, through the bot, with the value to paste into the Telegram form;
// everything else is 200 and nothing happens. Reading the update and wording the answer are
// src/monitoring/integrations/kinds/telegram/bot.ts; the call to Telegram is bot-api.ts.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { NotifySettings } from '../monitoring/notifications/settings.ts';
import { startOf } from '../monitoring/integrations/kinds/telegram/bot.ts';
import { answerStart } from '../monitoring/integrations/kinds/telegram/bot-api.ts';
import { BodyParseError, parseJson } from './body.ts';
import { BodyTooLarge, readBody, sendEmpty, sendJson } from './respond.ts';

/** An update with a message is a few KB; Telegram's own limit on a text is 4096 characters. */
const MAX_BODY = 64 * 1024;
const MAX_DEPTH = 32;

export function registerTelegramBotRoute(router: Router.Instance<Router.HTTPVersion.V1>, settings: NotifySettings, webhookSecret: string | null, log: Logger) {
  const secret = webhookSecret === null ? null : Buffer.from(webhookSecret);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    // Read per request: a bot that is not configured has no webhook.
    if (!settings.telegramToken) return sendJson(res, 404, { error: 'not found' });
    // Healthchecks checks nothing; Telegram sends setWebhook's secret_token in this header.
    if (secret && !sameSecret(req.headers['x-telegram-bot-api-secret-token'], secret)) {
      return sendJson(res, 403, { error: 'X-Telegram-Bot-Api-Secret-Token does not match TELEGRAM_WEBHOOK_SECRET' });
    }
    let update: unknown;
    try {
      update = parseJson(await readBody(req, MAX_BODY), MAX_DEPTH);
    } catch (err) {
      if (err instanceof BodyTooLarge) return sendJson(res, 413, { error: 'request body too large' });
      if (err instanceof BodyParseError) return sendJson(res, 400, { error: 'request body is not valid JSON' });
      throw err;
    }
    const start = startOf(update);
    if (start) {
      // Answered 200 whatever happens: Telegram repeats an update until it gets a 2xx.
      await answerStart(settings, start).catch((err: unknown) => log.warn({ err, chatId: start.chatId }, 'telegram bot: the answer to /start was not sent'));
    }
    sendEmpty(res, 200);
  }

  router.post('/integrations/telegram/bot/', (req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err }, 'telegram bot webhook failed');
      // Never a 5xx: Telegram would send the same update again and again.
      if (!res.headersSent) sendEmpty(res, 200);
    });
  });
}

function sameSecret(header: string | string[] | undefined, expected: Buffer): boolean {
  const given = Buffer.from(typeof header === 'string' ? header : '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
