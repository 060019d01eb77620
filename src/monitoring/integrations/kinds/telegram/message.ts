// The Telegram message, after Healthchecks' telegram_message.html (HTML, parse_mode "html";
// values autoescaped, one fact a line, linemode joining the lines with "\n").
import { checkPageUrl, djangoEscape, htmlCheckFacts, reasonSuffix, otherDownLines } from '../shared/incident.ts';
import { nameThenCode, pingBodyText } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';


export async function telegramText(d: Delivery): Promise<string> {
  const check = d.check;
  const link = `<a href="${djangoEscape(checkPageUrl(d))}">${djangoEscape(nameThenCode(check))}</a>`;
  const lines: string[] = [];
  if (d.status === 'down') lines.push(`🔴 The check ${link} is <b>DOWN</b>${djangoEscape(reasonSuffix(d))}.`);
  else {
    lines.push(`🟢 The check ${link} is now <b>UP</b>.`);
    const since = await d.downSince();
    if (since) lines.push(`The downtime lasted ${durationForSentence(d.at.getTime() - since.getTime())}.`);
  }
  lines.push('');
  const facts = await htmlCheckFacts(d);
  lines.push(...facts.lines);
  const ping = facts.ping;
  // Telegram takes 4096 characters; Healthchecks clips the body at 1000 like the other kinds.
  const body = pingBodyText(ping, 1000);
  if (body) lines.push('<b>Last Ping Body:</b>', `<pre>${djangoEscape(body)}</pre>`);
  lines.push(...(await otherDownLines(d, (c, lastPing) => `- <a href="${djangoEscape(checkPageUrl(d, c))}">${djangoEscape(nameThenCode(c))}</a> (last ping: ${lastPing})`)));
  return lines.join('\n').trim();
}
