// Discord (Healthchecks' "discord"): the value is a webhook URL; DISCORD_ENABLED switches it.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const discord = defineChannelKind({
  kind: 'discord',
  label: 'Discord',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.discordEnabled,
  requires: 'DISCORD_ENABLED',
  transport: async () => (await import('./transport.ts')).discordTransport,
});
