// Email alerts over SMTP (nodemailer), the message shaped as Healthchecks' alert emails
// (message.ts). The Message-ID is the notification's stable id, so a repeated attempt is
// recognisably the same message.
import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailSettings, NotifySettings } from '../../../notifications/settings.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { emailMessage } from './message.ts';

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

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Headers beyond the notification id (account mail: List-Unsubscribe). */
  headers?: Record<string, string>;
}

/**
 * Sends one message of the outbox over the pooled SMTP connections: alerts, and the account
 * mail (reports, nags) that notifications/prepared-mail.ts queues. `id` is the notification's
 * stable code: the Message-ID, so a repeated attempt is recognisably the same message.
 */
export async function sendOutboxEmail(settings: NotifySettings, id: string, message: OutgoingEmail): Promise<void> {
  const email = settings.email;
  if (!email) throw new DeliveryError('Email notifications are not configured (set EMAIL_HOST).', true);
  const host = new URL(settings.siteRoot).hostname || 'localhost';
  try {
    await transporterFor(email, settings.timeoutMs).sendMail({
      from: email.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: `<${id}@${host}>`,
      headers: { ...message.headers, 'X-Notification-Id': id },
    });
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message?: string };
    // 5xx from the server refuses this message for good (bad address); anything else may pass later.
    if (e.responseCode && e.responseCode >= 500) throw new DeliveryError(`SMTP error: ${e.response ?? e.message}`, true);
    throw new DeliveryError(`SMTP error: ${e.response ?? e.message ?? String(err)}`);
  }
}

export const emailTransport: Transport = {
  close: (settings) => closeEmailTransport(settings.email),
  async send(d) {
    if (!d.settings.email) throw new DeliveryError('Email notifications are not configured (set EMAIL_HOST).', true);
    // Healthchecks' words: the recipient has not opened the verification link (or unsubscribed).
    if (!d.channel.emailVerified) throw new DeliveryError('Email not verified', true);
    const message = await emailMessage(d);
    await sendOutboxEmail(d.settings, d.id, { to: d.channel.value, ...message });
  },
};
