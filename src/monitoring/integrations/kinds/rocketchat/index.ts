// Rocket.Chat (Healthchecks' "rocketchat"): the value is an incoming-webhook URL; ROCKETCHAT_ENABLED
// switches it.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const rocketchat = defineChannelKind({
  kind: 'rocketchat',
  label: 'Rocket.Chat',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.rocketchatEnabled,
  requires: 'ROCKETCHAT_ENABLED',
  transport: async () => (await import('./transport.ts')).rocketChatTransport,
});
