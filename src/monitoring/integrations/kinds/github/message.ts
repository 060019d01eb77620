// The issue, after Healthchecks' github_title.html and github_body.html (Markdown in linemode:
// one line each, values autoescaped except the title's name).
import { checkPageUrl, djangoEscape, kindAndWhen, reasonSuffix } from '../shared/incident.ts';
import { formatDuration, nameThenCode, pingBodyText, tagList } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

export function githubTitle(d: Delivery): string {
  return `${nameThenCode(d.check)} is ${d.status.toUpperCase()}`;
}

export async function githubBody(d: Delivery): Promise<string> {
  const check = d.check;
  const lines = [`The check [${djangoEscape(nameThenCode(check))}](${djangoEscape(checkPageUrl(d))}) is **DOWN**${djangoEscape(reasonSuffix(d))}.`, ''];
  if (check.project.name) lines.push(`**Project:** ${djangoEscape(check.project.name)}`);
  const tags = tagList(check.tags);
  // The template prints "`tag` " per tag: the line ends with a space.
  if (tags.length) lines.push(`**Tags:** ${tags.map((t) => `\`${djangoEscape(t)}\` `).join('')}`);
  if (check.kind === 'simple') lines.push(`**Period:** ${formatDuration(check.timeout)}`);
  else lines.push(`**Schedule:** \`${djangoEscape(check.schedule)}\``, `**Time Zone:** ${djangoEscape(check.tz)}`);
  const ping = await d.lastPing();
  lines.push(`**Total Pings:** ${ping ? ping.n : 0}`);
  lines.push(ping ? `**Last Ping:** ${kindAndWhen(d, ping)}` : '**Last Ping:** Never');
  // Left out when it holds ``` (it would end the Markdown code block early).
  const body = pingBodyText(ping, 1000);
  if (body && !body.includes('```')) lines.push('**Last Ping Body:**', `<pre>${djangoEscape(body)}</pre>`);
  return lines.join('\n').trim();
}
