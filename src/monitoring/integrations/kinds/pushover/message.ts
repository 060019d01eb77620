// The Pushover message, after Healthchecks' pushover_title.html and pushover_message.html (HTML,
// sent with html=1: one fact a line, values escaped by Django's autoescape, the title's name not).
import { nameThenCode } from '../shared/text.ts';
import { djangoEscape, htmlCheckFacts, reasonLong, reasonOf, otherDownLines } from '../shared/incident.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';

export function pushoverTitle(d: Delivery): string {
  return `${d.status === 'down' ? '🔴' : '🟢'} ${nameThenCode(d.check)} is ${d.status.toUpperCase()}`;
}

export async function pushoverMessage(d: Delivery): Promise<string> {
  const lines: string[] = [];
  const reason = reasonLong(reasonOf(d));
  const downSince = d.status === 'up' ? await d.downSince() : null;
  if (d.status === 'down' && reason) lines.push(`Reason: ${reason}.`);
  else if (downSince) lines.push(`The downtime lasted ${durationForSentence(d.at.getTime() - downSince.getTime())}.`);
  lines.push('');
  const facts = await htmlCheckFacts(d);
  lines.push(...facts.lines);
  const ping = facts.ping;
  lines.push(...(await otherDownLines(d, (c, lastPing) => `• <b>${djangoEscape(nameThenCode(c))}</b> (last ping: ${lastPing})`)));
  // linemode drops a leading empty line (a flip without a reason or downtime).
  while (lines[0] === '') lines.shift();
  return lines.join('\n');
}
