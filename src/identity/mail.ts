// Identity mail (password resets, sign-in links, address confirmations, invitations): plain text
// and a simple HTML part, sent over SMTP with the alert mail's settings (EMAIL_HOST...). The
// transporter is built as the email channel's is (kinds/email/transport.ts), but not pooled:
// these messages are few, and a connection per message leaves nothing open at shutdown.
import nodemailer from 'nodemailer';
import type { EmailSettings } from '../monitoring/notifications/settings.ts';
import { DomainError, validationError } from '../shared/errors.ts';
import type { IdentitySettings } from './context.ts';

export const MAIL_NOT_CONFIGURED = 'mail is not configured on this server (EMAIL_HOST)';

/** One attempt's time limit, as for alert mail (Healthchecks: 10 s). */
const TIMEOUT_MS = 10_000;

export interface IdentityMail {
  to: string;
  subject: string;
  /** Paragraphs before the link. */
  intro: string[];
  link: { url: string; label: string };
  /** Paragraphs after the link: how long it works, why the mail came. */
  outro: string[];
}

/** The mail settings, or VALIDATION: checked before anything changes, so a refused request leaves no trace. */
export function requireMail(settings: IdentitySettings): EmailSettings {
  if (!settings.email) throw validationError(MAIL_NOT_CONFIGURED);
  return settings.email;
}

/** The pages emailed links open (the dashboard routes them; the server serves its page there). */
export const LINK_PAGES = ['reset', 'sign-in', 'verify', 'invite'] as const;
export type LinkPage = (typeof LINK_PAGES)[number];

/** An emailed link: `${SITE_ROOT}/<page>/<token>`. */
export const siteLink = (settings: Pick<IdentitySettings, 'siteRoot'>, page: LinkPage, token: string) => `${settings.siteRoot.replace(/\/+$/, '')}/${page}/${token}`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The text and HTML bodies of a message, signed with the site's name. */
export function renderMail(siteName: string, mail: IdentityMail): { text: string; html: string } {
  const text = [...mail.intro, `${mail.link.label}:\n${mail.link.url}`, ...mail.outro, `-- \n${siteName}`].join('\n\n') + '\n';
  const paragraphs = (lines: string[]) => lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
  const url = escapeHtml(mail.link.url);
  const html = [
    '<!DOCTYPE html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    paragraphs(mail.intro),
    `<p><a href="${url}" style="display: inline-block; padding: 8px 16px; background: #0b5cad; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(mail.link.label)}</a></p>`,
    `<p style="font-size: small">Or copy this address into your browser: ${url}</p>`,
    paragraphs(mail.outro),
    `<p style="color: #666">— ${escapeHtml(siteName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}

/** The reason a message was not sent, for the person who asked (the SMTP server's own text is `detail`, for the log). */
export class MailDeliveryError extends DomainError {
  constructor(
    readonly permanent: boolean,
    readonly detail: string,
  ) {
    super('VALIDATION', permanent ? 'the mail server refused the message: check the address' : 'the mail could not be sent; try again later');
    this.name = 'MailDeliveryError';
  }
}

/** Sends one message; VALIDATION without mail settings, MailDeliveryError when the server does not take it. */
export async function sendIdentityMail(settings: IdentitySettings, mail: IdentityMail): Promise<void> {
  const email = requireMail(settings);
  const transporter = nodemailer.createTransport({
    host: email.host,
    port: email.port,
    // Port 465 speaks TLS from the start; otherwise EMAIL_USE_TLS means STARTTLS, as in Django.
    secure: email.port === 465,
    requireTLS: email.useTls,
    ignoreTLS: !email.useTls && email.port !== 465,
    auth: email.user ? { user: email.user, pass: email.password } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  const { text, html } = renderMail(settings.siteName, mail);
  try {
    await transporter.sendMail({ from: email.from, to: mail.to, subject: mail.subject, text, html });
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message?: string };
    // 5xx: the server refuses this message for good (a bad address); anything else may pass later.
    throw new MailDeliveryError(!!e.responseCode && e.responseCode >= 500, e.response ?? e.message ?? String(err));
  } finally {
    transporter.close();
  }
}
