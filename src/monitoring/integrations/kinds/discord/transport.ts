// Discord takes Slack's attachment payload at "<webhook>/slack", as Healthchecks posts to it.
import { chatTransport, slackPayload } from '../shared/chat.ts';

// Discord answers 404 for a removed hook: it will not come back (Healthchecks agrees).
export const discordTransport = chatTransport({
  payload: slackPayload,
  url: (d) => `${d.channel.value.replace(/\/+$/, '')}/slack`,
  permanentStatuses: [404],
});
