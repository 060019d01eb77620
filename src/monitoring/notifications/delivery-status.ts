// Delivery reports that come back after a notification was handed over (Healthchecks'
// notification_status): Twilio calls the StatusCallback URL of each SMS, WhatsApp message and
// phone call as its status changes. A failure becomes the notification's error, and so the
// channel's last error (last-errors.ts reads it from the notification attempted last).
import type { Db } from '../../db/client.ts';

// Healthchecks ignores reports about notifications older than an hour; its Notification is made
// when it is sent, so ours counts from the last attempt.
const REPORT_WINDOW_MS = 60 * 60 * 1000;

const FAILED_MESSAGE = new Set(['failed', 'undelivered']);
// Healthchecks counts only "failed"; a call that was busy or not answered was not heard either.
const FAILED_CALL = new Set(['failed', 'busy', 'no-answer']);

/** The error a Twilio status report means, in Healthchecks' words; null when nothing went wrong (queued, sent, delivered, ringing, completed…). */
export function deliveryStatusError(report: URLSearchParams): string | null {
  const message = report.get('MessageStatus');
  if (message !== null && FAILED_MESSAGE.has(message)) return `Delivery failed (status=${message}).`;
  const call = report.get('CallStatus');
  if (call !== null && FAILED_CALL.has(call)) return `Delivery failed (status=${call}).`;
  return null;
}

export type DeliveryStatusOutcome = 'unknown' | 'recorded' | 'unchanged';

/**
 * Records a status report for the notification with this code. "unknown": no channel
 * notification has the code; "unchanged": the report is no failure, or comes too late.
 */
export async function recordDeliveryStatus(db: Db, code: string, report: URLSearchParams, now: Date): Promise<DeliveryStatusOutcome> {
  const notification = await db.notification.findUnique({ where: { code }, select: { id: true, channelId: true } });
  // Account mail has a code too, but no channel to report on.
  if (!notification || notification.channelId === null) return 'unknown';
  const error = deliveryStatusError(report);
  if (!error) return 'unchanged';
  const { count } = await db.notification.updateMany({
    // A report can overtake the end of the attempt that sent the message (still pending then):
    // marked failed first, that attempt's "sent" no longer applies (it expects "pending").
    where: { id: notification.id, OR: [{ state: 'pending' }, { lastAttemptAt: { gt: new Date(now.getTime() - REPORT_WINDOW_MS) } }] },
    // Dated now, the report is the channel's latest word, as Healthchecks overwrites last_error.
    data: { state: 'failed', lastError: error, lastAttemptAt: now },
  });
  return count === 1 ? 'recorded' : 'unchanged';
}
