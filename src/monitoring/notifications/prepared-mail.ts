// Account mail in the outbox: Healthchecks' reports and nags (src/monitoring/reports/) go to an
// account, not to a channel, so their rows carry the account (personId) and the message as it
// was prepared when queued. The notifier claims, leases, retries and records them like every
// other notification, and sends them over the email channel kind's SMTP transport: one outbox,
// one mail path, so a queued report goes out once however often the process restarts.
import type { Db } from '../../db/client.ts';
import type { NotifySettings } from './settings.ts';

// limit-notice: the monthly SMS or call limit stopped an alert (notifications/limit-notice.ts).
export const ACCOUNT_MAIL_REASONS = ['report', 'report-nag', 'limit-notice'] as const;
export type AccountMailReason = (typeof ACCOUNT_MAIL_REASONS)[number];

/** A claimed row (notifications/store.ts) that is account mail: an account, no channel. */
export const isAccountMail = (n: { channelId: number | null; personId: number | null }) => n.channelId === null && n.personId !== null;

/** A message ready to send: what the row's `message` column holds (JSON). */
export interface PreparedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers: Record<string, string>;
}

function parse(message: string | null): PreparedMail | null {
  if (!message) return null;
  try {
    const m = JSON.parse(message) as PreparedMail;
    return typeof m.to === 'string' && typeof m.subject === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** The prepared messages of claimed account-mail rows, in their order; null where a row has none (or is gone). */
export async function loadPreparedMail(db: Db, rows: ReadonlyArray<{ id: number }>): Promise<Array<PreparedMail | null>> {
  if (rows.length === 0) return [];
  const found = await db.notification.findMany({ where: { id: { in: rows.map((r) => r.id) } }, select: { id: true, message: true } });
  const byId = new Map(found.map((r) => [r.id, parse(r.message)]));
  return rows.map((r) => byId.get(r.id) ?? null);
}

/** Sends a prepared message over the email kind's SMTP transport (loaded with the other transports). */
export async function sendPreparedMail(settings: NotifySettings, code: string, mail: PreparedMail): Promise<void> {
  const { sendOutboxEmail } = await import('../integrations/kinds/email/transport.ts');
  await sendOutboxEmail(settings, code, mail);
}
