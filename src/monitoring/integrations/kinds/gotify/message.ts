// The Gotify message, after Healthchecks' gotify_title.html (the name as |safe leaves it) and
// gotify_message.html (Markdown, names escaped by Django's autoescape, linked to their pages).
import { nameThenCode } from '../shared/text.ts';
import { checkPageUrl, djangoEscape, reasonSuffix, otherDownLines } from '../shared/incident.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';

export function gotifyTitle(d: Delivery): string {
  return `${nameThenCode(d.check)} is ${d.status.toUpperCase()}`;
}


export async function gotifyMessage(d: Delivery): Promise<string> {
  const lines: string[] = [];
  const link = `[${djangoEscape(nameThenCode(d.check))}](${checkPageUrl(d)})`;
  if (d.status === 'down') lines.push(`🔴 The check ${link} is **DOWN**${djangoEscape(reasonSuffix(d))}.`);
  else {
    lines.push(`🟢 The check ${link} is now **UP**.`);
    const downSince = await d.downSince();
    if (downSince) lines.push('', `The downtime lasted ${durationForSentence(d.at.getTime() - downSince.getTime())}.`);
  }
  lines.push(...(await otherDownLines(d, (c, lastPing) => `- [${djangoEscape(nameThenCode(c))}](${checkPageUrl(d, c)}) (last ping: ${lastPing})`)));
  return lines.join('\n');
}
