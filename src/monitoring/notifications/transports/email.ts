// Email alerts over SMTP (nodemailer), shaped as Healthchecks' alert emails: subject
// "DOWN | <name>", a body with the check, its new status, the last ping and the project's other
// checks that are down. The Message-ID is the notification's stable id, so a repeated attempt
// is recognisably the same message.
import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailSettings } from '../settings.ts';
import { checkUrl, describePing, formatDuration, nameThenCode, pingBodyText, tagList } from './text.ts';
import { DeliveryError, type Delivery, type Transport } from './transport.ts';

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
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

  const text = [
    lead,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(body ? ['', 'Last ping body:', body] : []),
    '',
    ...(others === null ? [] : others.length ? ['Other checks that are down:', ...others.map((c) => `- ${nameThenCode(c)}`)] : ['All the other checks are up.']),
    '',
    `Details: ${checkUrl(d.settings.siteRoot, check)}`,
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
  ].join('\n');
  return { subject, text, html };
}

// One pooled SMTP connection set per settings object (the app has one).
const transporters = new WeakMap<EmailSettings, Transporter>();

function transporterFor(settings: EmailSettings, timeoutMs: number): Transporter {
  let t = transporters.get(settings);
  if (!t) {
    t = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      // Port 465 speaks TLS from the start; otherwise EMAIL_USE_TLS means STARTTLS, as in Django.
      secure: settings.port === 465,
      requireTLS: settings.useTls,
      ignoreTLS: !settings.useTls && settings.port !== 465,
      auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
      pool: true,
      maxConnections: 5,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    transporters.set(settings, t);
  }
  return t;
}

/** Closes pooled SMTP connections (app shutdown). */
export function closeEmailTransport(settings: EmailSettings | null) {
  if (!settings) return;
  transporters.get(settings)?.close();
  transporters.delete(settings);
}

export const emailTransport: Transport = {
  async send(d) {
    const settings = d.settings.email;
    if (!settings) throw new DeliveryError('Email notifications are not configured (set EMAIL_HOST).', true);
    const message = await emailMessage(d);
    const host = new URL(d.settings.siteRoot).hostname || 'localhost';
    try {
      await transporterFor(settings, d.settings.timeoutMs).sendMail({
        from: settings.from,
        to: d.channel.value,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${d.id}@${host}>`,
        headers: { 'X-Notification-Id': d.id },
      });
    } catch (err) {
      const e = err as { responseCode?: number; response?: string; message?: string };
      // 5xx from the server refuses this message for good (bad address); anything else may pass later.
      if (e.responseCode && e.responseCode >= 500) throw new DeliveryError(`SMTP error: ${e.response ?? e.message}`, true);
      throw new DeliveryError(`SMTP error: ${e.response ?? e.message ?? String(err)}`);
    }
  },
};
