// The notification store on SQLite, on the driver's own connection: a claim is one
// UPDATE ... RETURNING inside BEGIN IMMEDIATE, so two processes on one file never take the
// same row (SQLite has one writer at a time).
import type Database from 'better-sqlite3';
import { immediateTransaction, type Exclusive } from '../../db/sqlite/transaction.ts';
import type { NewNotification } from './outbox.ts';
import { INSERT_NOTIFICATION, notificationParams } from './sqlite-notification-rows.ts';
import type { AttemptOutcome, ClaimedNotification, NotificationStore } from './store.ts';

const SQL = {
  claim: `UPDATE "Notification" SET "attempts" = "attempts" + 1, "nextAttemptAt" = ?
    WHERE "id" IN (SELECT "id" FROM "Notification" WHERE "state" = 'pending' AND "nextAttemptAt" <= ? ORDER BY "nextAttemptAt", "id" LIMIT ?)
    RETURNING "id", "code", "channelId", "personId", "checkId", "flipId", "reason", "status", "eventAt", "createdAt", "attempts"`,
  insert: INSERT_NOTIFICATION,
  start: `UPDATE "Notification" SET "nextAttemptAt" = ? WHERE "id" = ? AND "attempts" = ? AND "state" = 'pending'`,
  release: `UPDATE "Notification" SET "attempts" = "attempts" - 1, "nextAttemptAt" = ? WHERE "id" = ? AND "attempts" = ? AND "state" = 'pending'`,
  sent: `UPDATE "Notification" SET "state" = 'sent', "sentAt" = ?, "lastAttemptAt" = ?, "lastError" = '', "durationMs" = ?
    WHERE "id" = ? AND "attempts" = ? AND "state" = 'pending'`,
  retry: `UPDATE "Notification" SET "nextAttemptAt" = ?, "lastAttemptAt" = ?, "lastError" = ?, "durationMs" = ?
    WHERE "id" = ? AND "attempts" = ? AND "state" = 'pending'`,
  failed: `UPDATE "Notification" SET "state" = 'failed', "lastAttemptAt" = ?, "lastError" = ?, "durationMs" = ?
    WHERE "id" = ? AND "attempts" = ? AND "state" = 'pending'`,
  nextDue: `SELECT MIN("nextAttemptAt") AS "at" FROM "Notification" WHERE "state" = 'pending'`,
  stats: `SELECT COUNT(*) AS "count", MIN("createdAt") AS "oldest" FROM "Notification" WHERE "state" = 'pending'`,
};

function claimedFromRow(r: Record<string, unknown>): ClaimedNotification {
  return {
    id: r.id as number,
    code: r.code as string,
    channelId: r.channelId as number | null,
    personId: r.personId as number | null,
    checkId: r.checkId as number | null,
    flipId: r.flipId as number | null,
    reason: r.reason as ClaimedNotification['reason'],
    status: r.status as ClaimedNotification['status'],
    eventAt: new Date(r.eventAt as number),
    createdAt: new Date(r.createdAt as number),
    attempt: r.attempts as number,
  };
}

export function sqliteNotificationStore(exclusive: Exclusive): NotificationStore {
  const run = <T>(sql: string, work: (s: Database.Statement) => T) =>
    exclusive((connection, observe) => {
      observe(sql);
      return work((connection as Database.Database).prepare(sql).safeIntegers(false));
    });
  const insertRow = (s: Database.Statement, n: NewNotification, attempts: number) =>
    Number(s.run(...notificationParams(n, attempts)).lastInsertRowid);
  return {
    claimDue: (now, limit, leaseUntil) =>
      immediateTransaction(exclusive, (db, observe) => {
        observe(SQL.claim);
        const rows = db.prepare(SQL.claim).safeIntegers(false).all(leaseUntil.getTime(), now.getTime(), limit) as Record<string, unknown>[];
        // RETURNING gives no order; deliver in queue order.
        return rows.map(claimedFromRow).sort((a, b) => a.id - b.id);
      }),
    insertClaimed: (n, leaseUntil) =>
      run(SQL.insert, (s) => {
        const id = insertRow(s, { ...n, nextAttemptAt: leaseUntil }, 1);
        return { ...n, personId: null, id, attempt: 1 };
      }),
    insert: async (rows) => {
      if (!rows.length) return;
      await immediateTransaction(exclusive, (db, observe) => {
        const s = db.prepare(SQL.insert).safeIntegers(false);
        for (const n of rows) {
          observe(SQL.insert);
          insertRow(s, n, 0);
        }
      });
    },
    startAttempt: (id, attempt, leaseUntil) => run(SQL.start, (s) => s.run(leaseUntil.getTime(), id, attempt).changes === 1),
    release: async (rows, at) => {
      if (!rows.length) return;
      await immediateTransaction(exclusive, (db, observe) => {
        const s = db.prepare(SQL.release).safeIntegers(false);
        for (const r of rows) {
          observe(SQL.release);
          s.run(at.getTime(), r.id, r.attempt);
        }
      });
    },
    markSent: (o: AttemptOutcome) => run(SQL.sent, (s) => s.run(o.at.getTime(), o.at.getTime(), o.durationMs, o.id, o.attempt).changes === 1),
    markRetry: (o, nextAttemptAt, error) => run(SQL.retry, (s) => s.run(nextAttemptAt.getTime(), o.at.getTime(), error, o.durationMs, o.id, o.attempt).changes === 1),
    markFailed: (o, error) => run(SQL.failed, (s) => s.run(o.at.getTime(), error, o.durationMs, o.id, o.attempt).changes === 1),
    nextDueAt: () =>
      run(SQL.nextDue, (s) => {
        const row = s.get() as { at: number | null };
        return row.at === null ? null : new Date(row.at);
      }),
    pendingStats: () =>
      run(SQL.stats, (s) => {
        const row = s.get() as { count: number; oldest: number | null };
        return { count: row.count, oldest: row.oldest === null ? null : new Date(row.oldest) };
      }),
  };
}
