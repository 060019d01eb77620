// Healthchecks' alert email: subject "DOWN | <name>", a body with the check, its new status, the
// last ping and the project's other checks that are down, as text and as HTML.
import { checkUrl, describePing, formatDuration, nameThenCode, pingBodyText, tagList } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
  /** One-click unsubscribe (RFC 8058), as Healthchecks sends: mail clients show an "Unsubscribe" button. */
  headers: Record<string, string>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function emailMessage(d: Delivery): Promise<EmailMessage> {
  const check = d.check;
  const name = nameThenCode(check);
  const status = d.status.toUpperCase();
  const subject = `${d.reason === 'nag' ? 'Reminder: ' : ''}${status} | ${name}`;
  const ping = await d.lastPing();
  const facts: Array<[string, string]> = [];
  if (check.project.name) facts.push(['Project', check.project.name]);
  if (check.desc) facts.push(['Description', check.desc]);
  const tags = tagList(check.tags);
  if (tags.length) facts.push(['Tags', tags.join(', ')]);
  if (check.kind === 'simple') facts.push(['Period', formatDuration(check.timeout)]);
  else facts.push(['Schedule', check.schedule], ['Time zone', check.tz]);
  facts.push(['Total pings', String(ping?.n ?? 0)], ['Last ping', describePing(ping)]);
  const body = pingBodyText(ping, 1000);
  const others = await d.otherDownChecks();
  const lead = d.reason === 'nag' ? `"${name}" is still ${status}.` : `"${name}" is ${status}.`;
  const unsubscribe = await d.unsubscribeUrl();
  const why = `You receive this because the ${d.settings.siteName} project "${check.project.name}" sends its alerts to this address.`;

  const text = [
    lead,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(body ? ['', 'Last ping body:', body] : []),
    '',
    ...(others === null ? [] : others.length ? ['Other checks that are down:', ...others.map((c) => `- ${nameThenCode(c)}`)] : ['All the other checks are up.']),
    '',
    `Details: ${checkUrl(d.settings.siteRoot, check)}`,
    '',
    '-- ',
    why,
    `Unsubscribe: ${unsubscribe}`,
  ].join('\n');
  const html = [
    `<p><strong>${escapeHtml(lead)}</strong></p>`,
    `<table>${facts.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`,
    body ? `<p>Last ping body:</p><pre>${escapeHtml(body)}</pre>` : '',
    others === null
      ? ''
      : others.length
        ? `<p>Other checks that are down:</p><ul>${others.map((c) => `<li>${escapeHtml(nameThenCode(c))}</li>`).join('')}</ul>`
        : '<p>All the other checks are up.</p>',
    `<p><a href="${escapeHtml(checkUrl(d.settings.siteRoot, check))}">Details</a></p>`,
    `<p style="color: #666; font-size: small">${escapeHtml(why)} <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p>`,
  ].join('\n');
  const headers = { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  return { subject, text, html, headers };
}
