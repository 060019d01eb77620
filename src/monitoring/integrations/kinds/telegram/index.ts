// Telegram (Healthchecks' "telegram"): the value is Healthchecks' JSON (the chat id, its type and
// name, a forum topic's thread id); messages go through the bot whose TELEGRAM_TOKEN is set.
// Without a token the kind is off: deliveries are refused for good, and saying why.
import { defineChannelKind } from '../definition.ts';
import { telegramConf, telegramConfig } from './config.ts';

export const telegram = defineChannelKind({
  kind: 'telegram',
  label: 'Telegram',
  validateValue: (value) => void telegramConf(value),
  config: telegramConfig,
  enabled: (settings) => settings.telegramToken !== null,
  requires: 'TELEGRAM_TOKEN',
  transport: async () => (await import('./transport.ts')).telegramTransport,
});
