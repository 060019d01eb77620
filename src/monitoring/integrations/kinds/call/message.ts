// What a phone call says (Healthchecks' call_message.html), and the TwiML that says it.
import { nameThenCode } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

export function callText(d: Pick<Delivery, 'check' | 'settings'>): string {
  return `Hello! A message from ${d.settings.siteName}: The check "${nameThenCode(d.check)}" is down.`;
}

/** The text escaped for XML (a check's name may hold "<" or "&"), inside <Say>. */
export function callTwiml(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<Response><Say>${escaped}</Say></Response>`;
}
