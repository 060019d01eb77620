// The mail that tells a project owner the monthly SMS (or call) limit stopped a message
// (Healthchecks' sms-limit and phone-call-limit mails, their words). Healthchecks sends one per
// stopped message; we send one per account and quota per month, the first, so a check that
// flaps all night does not fill the owner's inbox with the same news.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { accountEmail } from '../../identity/accounts.ts';
import type { PreparedMail } from './prepared-mail.ts';
import type { PhoneQuota } from './phone-limits.ts';

/** How the mail names the service: Healthchecks' "SMS" and "WhatsApp", and its phone call mail. */
import type { LimitedService } from './phone-limits.ts';

export type { LimitedService };

export interface LimitNotice {
  service: LimitedService;
  /** The number the message was for (masked in the mail). */
  recipient: string;
  /** The message that was not sent (WhatsApp: the SMS text, as Healthchecks does: its templates live in Twilio). */
  message: string;
  siteName: string;
}

/** Healthchecks' mask_phone: the country code and the last three digits. */
export function maskPhone(phone: string): string {
  return phone.length > 7 ? `${phone.slice(0, 4)}******${phone.slice(-3)}` : phone;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function limitNoticeMail(to: string, limit: number, n: LimitNotice): PreparedMail {
  const call = n.service === 'phone call';
  const recipient = maskPhone(n.recipient);
  const reason = call
    ? `has reached its monthly phone call limit of ${limit} calls per month`
    : `has reached its monthly sending limit of ${limit} sends per month`;
  const lead = `We could not deliver a ${n.service} notification to ${recipient} because ${n.siteName} account ${to} ${reason}. The limit resets at the start of each month.`;
  const intro = call ? 'Here is the voice message we tried to deliver:' : 'Here is the message we tried to deliver:';
  const text = `Hello,\n\n${lead}\n\n${intro}\n\n***\n${n.message}\n***\n\n--\nRegards,\nThe ${n.siteName} Team\n`;
  const html = [
    '<p>Hello,</p>',
    `<p>We could not deliver a ${escapeHtml(n.service)} notification to <strong>${escapeHtml(recipient)}</strong> because ${escapeHtml(n.siteName)} account <strong>${escapeHtml(to)}</strong> ${escapeHtml(reason)}. The limit resets at the start of each month.</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<div style="background: #F2F4F6; padding: 20px;">${escapeHtml(n.message)}</div>`,
    `<p>Regards,<br>The ${escapeHtml(n.siteName)} Team</p>`,
  ].join('\n');
  return { to, subject: call ? 'Monthly Phone Call Limit Reached' : `Monthly ${n.service} Limit Reached`, text, html, headers: {} };
}

/**
 * Queues the notice for the owner unless this month's went out already. The month's marker and
 * the queued mail are one transaction: two workers stopped at the limit queue one mail.
 */
export async function queueLimitNotice(db: Db, personId: number, quota: PhoneQuota, limit: number, notice: LimitNotice, now: Date, monthStart: Date): Promise<boolean> {
  const to = await accountEmail(db, personId);
  if (!to) return false;
  const mail = limitNoticeMail(to, limit, notice);
  return db.$transaction(async (tx) => {
    const { count } =
      quota === 'messages'
        ? await tx.accountProfile.updateMany({ where: { personId, OR: [{ smsLimitNoticeAt: null }, { smsLimitNoticeAt: { lt: monthStart } }] }, data: { smsLimitNoticeAt: now } })
        : await tx.accountProfile.updateMany({ where: { personId, OR: [{ callLimitNoticeAt: null }, { callLimitNoticeAt: { lt: monthStart } }] }, data: { callLimitNoticeAt: now } });
    if (count !== 1) return false;
    await tx.notification.create({
      data: {
        code: randomUUID(),
        channelId: null,
        personId,
        checkId: null,
        flipId: null,
        reason: 'limit-notice',
        // The column wants a status: the message it is about was an alert that did not go out.
        status: 'down',
        eventAt: now,
        nextAttemptAt: now,
        createdAt: now,
        message: JSON.stringify(mail),
      },
    });
    return true;
  });
}
