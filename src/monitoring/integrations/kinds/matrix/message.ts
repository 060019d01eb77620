// The Matrix message, after Healthchecks' matrix_description.html (the plain `body`) and
// matrix_description_formatted.html (the HTML `formatted_body`). The plain text is not
// HTML-escaped: Healthchecks' template autoescapes it, which shows "&amp;" in clients that
// display `body`; the HTML one escapes as Django does.
import { agoAtEvent, checkPageUrl, djangoEscape, kindAndWhen, reasonSuffix } from '../shared/incident.ts';
import { formatDuration, nameThenCode, pingBodyText, tagList } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';

/** "The downtime lasted 38 minutes, 0 seconds." for an up alert after a down flip; null otherwise. */
async function downtime(d: Delivery): Promise<string | null> {
  if (d.status !== 'up') return null;
  const since = await d.downSince();
  return since ? `The downtime lasted ${durationForSentence(d.at.getTime() - since.getTime())}.` : null;
}

export async function matrixPlain(d: Delivery): Promise<string> {
  const name = nameThenCode(d.check);
  if (d.status === 'down') return `${name} is DOWN${reasonSuffix(d)}.`;
  const lasted = await downtime(d);
  return lasted ? `${name} is now UP. ${lasted}` : `${name} is now UP.`;
}

/** The HTML, one element a line (Healthchecks' template's blank lines and indentation dropped). */
export async function matrixFormatted(d: Delivery): Promise<string> {
  const check = d.check;
  const link = `<a href="${djangoEscape(checkPageUrl(d))}">${djangoEscape(nameThenCode(check))}</a>`;
  const lines: string[] = [];
  if (d.status === 'down') lines.push(`🔴 The check ${link} is <b>DOWN</b>${djangoEscape(reasonSuffix(d))}.`);
  else {
    lines.push(`🟢 The check ${link} is <b>UP</b>.`);
    const lasted = await downtime(d);
    if (lasted) lines.push(`<br>${lasted}`);
  }
  lines.push('<br>', '<br>');
  if (check.project.name) lines.push(`<b>Project:</b> ${djangoEscape(check.project.name)}<br>`);
  const tags = tagList(check.tags);
  if (tags.length) lines.push(`<b>Tags:</b> ${tags.map((t) => `<code>${djangoEscape(t)}</code> `).join('')}<br>`);
  if (check.kind === 'simple') lines.push(`<b>Period:</b> ${formatDuration(check.timeout)}<br>`);
  else lines.push(`<b>Schedule:</b> <code>${djangoEscape(check.schedule)}</code><br>`, `<b>Time Zone:</b> ${djangoEscape(check.tz)}<br>`);
  const ping = await d.lastPing();
  lines.push(`<b>Total Pings:</b> ${ping ? ping.n : 0}<br>`);
  lines.push(ping ? `<b>Last Ping:</b> ${kindAndWhen(d, ping)}<br>` : '<b>Last Ping:</b> Never<br>');
  const body = pingBodyText(ping, 1000);
  if (body) lines.push('<b>Last Ping Body:</b><br>', `<pre>${djangoEscape(body)}</pre>`);
  const others = await d.otherDownChecks();
  if (others !== null) {
    lines.push('<br>');
    const still = d.status === 'down' ? 'also' : 'still';
    if (others.length > 10) lines.push(`${others.length} other checks are ${still} down.<br>`);
    else if (others.length) {
      lines.push(`The following checks are ${still} down:<br>`, '<ul>');
      for (const c of others) lines.push(`<li><a href="${djangoEscape(checkPageUrl(d, c))}">${djangoEscape(nameThenCode(c))}</a> (last ping: ${c.lastPing ? agoAtEvent(d, c.lastPing) : 'never'})</li>`);
      lines.push('</ul>');
    } else lines.push('All the other checks are up.<br>');
  }
  return lines.join('\n');
}
