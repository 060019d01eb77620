// The one INSERT of a notification on SQLite, shared by the store (channel tests, reminders) and
// the outbox (a flip's notifications, inside the flip's transaction). Dates are Unix milliseconds.
import type { NewNotification } from './outbox.ts';

export const INSERT_NOTIFICATION = `INSERT INTO "Notification" ("code", "channelId", "checkId", "flipId", "reason", "status", "eventAt", "nextAttemptAt", "createdAt", "attempts")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** INSERT_NOTIFICATION's parameters for `n`, starting at `attempts`. */
export function notificationParams(n: NewNotification, attempts: number): unknown[] {
  return [n.code, n.channelId, n.checkId, n.flipId, n.reason, n.status, n.eventAt.getTime(), n.nextAttemptAt.getTime(), n.createdAt.getTime(), attempts];
}
