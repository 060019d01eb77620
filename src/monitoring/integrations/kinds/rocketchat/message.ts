// Rocket.Chat's own payload (Healthchecks' RocketChat transport): a linked line and the facts.
import { chatFields } from '../shared/chat.ts';
import { checkUrl, nameThenCode } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

export async function rocketChatPayload(d: Delivery): Promise<Record<string, unknown>> {
  return {
    alias: d.settings.siteName,
    text: `[${nameThenCode(d.check)}](${checkUrl(d.settings.siteRoot, d.check)}) is ${d.status.toUpperCase()}.`,
    attachments: [{ color: d.status === 'up' ? '#5cb85c' : '#d9534f', fields: await chatFields(d, false) }],
  };
}
