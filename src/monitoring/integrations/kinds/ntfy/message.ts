// The ntfy message, after Healthchecks' ntfy_title.html and ntfy_message.html (Markdown, one
// fact a line; values escaped as Django's autoescape leaves them, the title's name not).
import { formatDuration, nameThenCode, tagList } from '../shared/text.ts';
import { djangoEscape, kindAndWhen, reasonLong, reasonOf, otherDownLines } from '../shared/incident.ts';
import type { Delivery } from '../shared/transport.ts';

export function ntfyTitle(d: Delivery): string {
  return `${nameThenCode(d.check)} is ${d.status.toUpperCase()}`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Healthchecks' format_duration_for_sentence: "1 hour, 30 minutes". */
export function durationForSentence(ms: number): string {
  const total = Math.floor(ms / 1000);
  const secs = total % 60;
  const mins = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600) % 24;
  const days = Math.floor(total / 86400);
  if (days) return `${plural(days, 'day')}, ${plural(hours, 'hour')}`;
  if (hours) return `${plural(hours, 'hour')}, ${plural(mins, 'minute')}`;
  if (mins) return `${plural(mins, 'minute')}, ${plural(secs, 'second')}`;
  return plural(secs, 'second');
}

export async function ntfyMessage(d: Delivery): Promise<string> {
  const check = d.check;
  const lines: string[] = [];
  const reason = reasonLong(reasonOf(d));
  const downSince = d.status === 'up' ? await d.downSince() : null;
  if (d.status === 'down' && reason) lines.push(`Reason: ${reason}.`, '');
  else if (downSince) lines.push(`The downtime lasted ${durationForSentence(d.at.getTime() - downSince.getTime())}.`, '');
  if (check.project.name) lines.push(`**Project:** ${djangoEscape(check.project.name)}`);
  const tags = tagList(check.tags);
  if (tags.length) lines.push(`**Tags:** ${tags.map(djangoEscape).join(', ')}`);
  if (check.kind === 'simple') lines.push(`**Period:** ${formatDuration(check.timeout)}`);
  else lines.push(`**Schedule:** \`${djangoEscape(check.schedule)}\``, `**Time Zone:** ${djangoEscape(check.tz)}`);
  const ping = await d.lastPing();
  lines.push(`**Total Pings:** ${ping ? ping.n : 0}`);
  lines.push(ping ? `**Last Ping:** ${kindAndWhen(d, ping)}` : '**Last Ping:** Never');
  lines.push(...(await otherDownLines(d, (c, lastPing) => `• **${djangoEscape(nameThenCode(c))}** (last ping: ${lastPing})`)));
  return lines.join('\n');
}
