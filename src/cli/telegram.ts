// `gateway telegram set-webhook`: tells Telegram where the bot's updates go (setWebhook), so the
// bot answers /start with a chat's value (src/http/telegram-bot.ts). Healthchecks leaves this
// call to the operator; here it is one command, with TELEGRAM_WEBHOOK_SECRET as secret_token.
import type { Command } from 'commander';
import { setWebhook } from '../monitoring/integrations/kinds/telegram/bot-api.ts';
import { isHttpUrl } from '../monitoring/integrations/kinds/shared/url.ts';
import type { CliContext } from './context.ts';

export function registerTelegramCommands(program: Command, cli: CliContext) {
  const telegram = program.command('telegram').description('the Telegram bot (TELEGRAM_TOKEN)');

  telegram
    .command('set-webhook')
    .description("point the bot's webhook at <SITE_ROOT>/integrations/telegram/bot/ (Telegram's setWebhook), with TELEGRAM_WEBHOOK_SECRET as its secret_token")
    .option('--url <url>', 'another address for the webhook (e.g. behind a proxy); Telegram takes https only')
    .option('--json', 'print JSON: {"url","secret"}')
    .action(async (opts: { url?: string }, command: Command) => {
      if (opts.url !== undefined && !isHttpUrl(opts.url)) cli.usage(command, `--url must be an http(s) URL: ${opts.url}`);
      const config = cli.config();
      if (!config.notify.telegramToken) throw new Error('TELEGRAM_TOKEN is not set: there is no bot');
      const url = opts.url ?? `${config.siteRoot}/integrations/telegram/bot/`;
      const secret = config.telegramWebhookSecret;
      await setWebhook(config.notify, url, secret);
      if (secret === null) cli.warn('TELEGRAM_WEBHOOK_SECRET is not set: anyone who knows the address can make the bot answer /start');
      if (cli.json) return cli.out.json({ url, secret: secret !== null });
      cli.out.line(`Telegram now sends the bot's updates to ${url}${secret === null ? '' : ' with TELEGRAM_WEBHOOK_SECRET'}.`);
    });
}
