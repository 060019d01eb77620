// Monthly quotas on messages that cost money (Healthchecks' Profile.authorize_sms and
// authorize_call): SMS and WhatsApp messages, and phone calls, are counted against the account
// that owns the channel's project; past the operator's limit the message is not sent.
import type { Db } from '../../db/client.ts';
import { queueLimitNotice, type LimitNotice } from './limit-notice.ts';

/** Healthchecks' two counts: SMS and WhatsApp messages together, and phone calls. */
import type { PhoneQuota } from './phone-limits.ts';

export type { PhoneQuota };

/** The first instant of the month `now` falls in, in UTC (Healthchecks' month(now()): Django keeps UTC). */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

// The columns of each quota, so the two statements below read the same for both.
const COLUMNS = {
  messages: {
    freshMonth: (start: Date) => ({ OR: [{ lastSmsAt: null }, { lastSmsAt: { lt: start } }] }),
    startOver: (now: Date) => ({ smsSent: 1, lastSmsAt: now }),
    thisMonthUnder: (start: Date, limit: number) => ({ lastSmsAt: { gte: start }, smsSent: { lt: limit } }),
    countOne: (now: Date) => ({ smsSent: { increment: 1 }, lastSmsAt: now }),
  },
  calls: {
    freshMonth: (start: Date) => ({ OR: [{ lastCallAt: null }, { lastCallAt: { lt: start } }] }),
    startOver: (now: Date) => ({ callsSent: 1, lastCallAt: now }),
    thisMonthUnder: (start: Date, limit: number) => ({ lastCallAt: { gte: start }, callsSent: { lt: limit } }),
    countOne: (now: Date) => ({ callsSent: { increment: 1 }, lastCallAt: now }),
  },
};

export interface PhoneMessage {
  projectId: string;
  quota: PhoneQuota;
  /** The operator's monthly limit for the quota (SMS_MONTHLY_LIMIT, CALL_MONTHLY_LIMIT). */
  limit: number;
  now: Date;
  /** What the owner is told (by mail, once a month) when the limit stops this message; left out: nothing. */
  notice?: LimitNotice;
}

/**
 * Counts one message against the project owner's monthly quota and says whether it may go out.
 * Each step is one conditional UPDATE, so concurrent senders cannot both take the last unit:
 * the database re-checks the condition on the row it locks (no read-modify-write in JS).
 * A project without an owning account (made with the CLI or an API key) has no quota.
 */
export async function authorizePhoneMessage(db: Db, m: PhoneMessage): Promise<boolean> {
  const owner = await db.projectMember.findFirst({ where: { projectId: m.projectId, role: 'owner' }, select: { personId: true } });
  if (!owner) return true;
  const { personId } = owner;
  await ensureProfile(db, personId);
  const columns = COLUMNS[m.quota];
  const start = monthStart(m.now);
  if (m.limit > 0) {
    // The first message of a month starts the count over (Healthchecks: sent_this_month is 0).
    const fresh = await db.accountProfile.updateMany({ where: { personId, ...columns.freshMonth(start) }, data: columns.startOver(m.now) });
    if (fresh.count === 1) return true;
    const counted = await db.accountProfile.updateMany({ where: { personId, ...columns.thisMonthUnder(start, m.limit) }, data: columns.countOne(m.now) });
    if (counted.count === 1) return true;
  }
  if (m.notice) await queueLimitNotice(db, personId, m.quota, m.limit, m.notice, m.now, start);
  return false;
}

/** The account's profile row, made with its defaults if it has none yet (as reports/pass.ts does). */
async function ensureProfile(db: Db, personId: number): Promise<void> {
  if (await db.accountProfile.findUnique({ where: { personId }, select: { personId: true } })) return;
  try {
    await db.accountProfile.create({ data: { personId } });
  } catch (err) {
    // Another worker (or the report scheduler) made it first.
    if ((err as { code?: string }).code !== 'P2002') throw err;
  }
}
