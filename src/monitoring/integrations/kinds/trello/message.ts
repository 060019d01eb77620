// The card, after Healthchecks' trello_name.html and trello_desc.html (Markdown; the name and
// description printed as they are, the schedule, time zone and site name autoescaped).
import { agoAtEvent, checkPageUrl, djangoEscape } from '../shared/incident.ts';
import { formatDuration, nameThenCode } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

export function trelloName(d: Delivery): string {
  return `${d.status === 'down' ? 'Down' : 'Up'}: ${nameThenCode(d.check)}`;
}

/** The template's blank lines kept as Django renders them, then stripped (Transport.tmpl). */
export async function trelloDesc(d: Delivery): Promise<string> {
  const check = d.check;
  const period = check.kind === 'simple' ? `\n**Period:** ${formatDuration(check.timeout)}\n` : '';
  const schedule = check.kind === 'simple' ? '' : `\n**Schedule:** \`${djangoEscape(check.schedule)}\`\n\n**Time Zone:** ${djangoEscape(check.tz)}\n`;
  const ping = await d.lastPing();
  const last = ping ? agoAtEvent(d, ping.createdAt) : 'never';
  const text = `\n${check.desc}\n\n${period}\n\n${schedule}\n\n**Last Ping:** ${last}\n\n[Full Details @ ${djangoEscape(d.settings.siteName)}](${checkPageUrl(d)})`;
  return text.trim();
}
