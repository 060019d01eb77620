// The one INSERT of notifications on PostgreSQL, shared by the store (channel tests, reminders)
// and the outbox (a flip's notifications, inside the flip's transaction): many rows as one
// statement over parallel arrays (unnest), whatever their number.
import { ts } from '../../db/postgres/sql.ts';
import type { NewNotification } from './outbox.ts';

/** The INSERT with its ten array parameters numbered from `$first` (the outbox puts it after a CTE's). */
export function insertNotificationsSql(first: number): string {
  const p = (i: number, type: string) => `$${first + i}::${type}[]`;
  const types = ['text', 'int', 'int', 'int', 'text', 'text', 'timestamp', 'timestamp', 'timestamp', 'int'];
  return `INSERT INTO "Notification" ("code", "channelId", "checkId", "flipId", "reason", "status", "eventAt", "nextAttemptAt", "createdAt", "attempts")
  SELECT * FROM unnest(${types.map((type, i) => p(i, type)).join(', ')})`;
}

/** The INSERT's ten parameters for `rows`, each starting at `attempts`. */
export function notificationArrays(rows: readonly NewNotification[], attempts: number): unknown[] {
  return [
    rows.map((n) => n.code),
    rows.map((n) => n.channelId),
    rows.map((n) => n.checkId),
    rows.map((n) => n.flipId),
    rows.map((n) => n.reason),
    rows.map((n) => n.status),
    rows.map((n) => ts(n.eventAt)),
    rows.map((n) => ts(n.nextAttemptAt)),
    rows.map((n) => ts(n.createdAt)),
    rows.map(() => attempts),
  ];
}
