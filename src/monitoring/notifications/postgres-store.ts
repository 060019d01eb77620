// The notification store on PostgreSQL, shared by every instance's notifier. A claim is one
// UPDATE over rows picked with FOR UPDATE SKIP LOCKED: two claims never take the same row, and
// neither waits for the other. Outcomes are compare-and-sets on (id, attempts, pending), as on
// SQLite (notifications/store.ts).
import type pg from 'pg';
import type { StatementListener } from '../../db/gated-adapter.ts';
import { poolSql, ts, type Sql } from '../../db/postgres/sql.ts';
import type { NewNotification } from './outbox.ts';
import { insertNotificationsSql, notificationArrays } from './postgres-notification-rows.ts';
import type { AttemptOutcome, ClaimedNotification, NotificationStore } from './store.ts';

// Notifications to one channel about one check go out one after another, in queue order (the
// notifier chains them within a process). Across instances only the oldest pending one of each
// (channel, check) is claimable: a later one waits until it is sent or failed, whoever holds it.
// This rule cannot race: claiming leaves a row pending, so the older row blocks the later one
// before, during and after any other claim. (A newer flip supersedes an older one waiting for
// a retry, see outbox.ts, so it does not wait out the backoff.)
const HEAD = `NOT EXISTS (SELECT 1 FROM "Notification" e WHERE e."channelId" = n."channelId" AND e."checkId" IS NOT DISTINCT FROM n."checkId"
      AND e."state" = 'pending' AND e."id" < n."id")`;

const RETURNED = `"id", "code", "channelId", "personId", "checkId", "flipId", "reason", "status", "eventAt", "createdAt", "attempts"`;

export const POSTGRES_CLAIM_SQL = `UPDATE "Notification" SET "attempts" = "attempts" + 1, "nextAttemptAt" = $1
  WHERE "id" IN (
    SELECT n."id" FROM "Notification" n
    WHERE n."state" = 'pending' AND n."nextAttemptAt" <= $2 AND ${HEAD}
    ORDER BY n."nextAttemptAt", n."id" LIMIT $3
    FOR UPDATE SKIP LOCKED)
  RETURNING ${RETURNED}`;

const INSERT_SQL = `${insertNotificationsSql(1)}
  RETURNING "id"`;

const SQL = {
  start: `UPDATE "Notification" SET "nextAttemptAt" = $1 WHERE "id" = $2 AND "attempts" = $3 AND "state" = 'pending'`,
  release: `UPDATE "Notification" n SET "attempts" = n."attempts" - 1, "nextAttemptAt" = $1
    FROM unnest($2::int[], $3::int[]) AS r("id", "attempts")
    WHERE n."id" = r."id" AND n."attempts" = r."attempts" AND n."state" = 'pending'`,
  sent: `UPDATE "Notification" SET "state" = 'sent', "sentAt" = $1, "lastAttemptAt" = $1, "lastError" = '', "durationMs" = $2
    WHERE "id" = $3 AND "attempts" = $4 AND "state" = 'pending'`,
  retry: `UPDATE "Notification" SET "nextAttemptAt" = $1, "lastAttemptAt" = $2, "lastError" = $3, "durationMs" = $4
    WHERE "id" = $5 AND "attempts" = $6 AND "state" = 'pending'`,
  failed: `UPDATE "Notification" SET "state" = 'failed', "lastAttemptAt" = $1, "lastError" = $2, "durationMs" = $3
    WHERE "id" = $4 AND "attempts" = $5 AND "state" = 'pending'`,
  // The earliest head of a queue (a later row of a (channel, check) cannot go before its head):
  // walks the (state, nextAttemptAt) index and stops at the first head.
  nextDue: `SELECT n."nextAttemptAt" AS "at" FROM "Notification" n WHERE n."state" = 'pending' AND ${HEAD}
    ORDER BY n."nextAttemptAt" LIMIT 1`,
  stats: `SELECT COUNT(*)::int AS "count", MIN("createdAt") AS "oldest" FROM "Notification" WHERE "state" = 'pending'`,
};

interface ClaimedRow {
  id: number;
  code: string;
  channelId: number | null;
  personId: number | null;
  checkId: number | null;
  flipId: number | null;
  reason: ClaimedNotification['reason'];
  status: ClaimedNotification['status'];
  eventAt: Date;
  createdAt: Date;
  attempts: number;
}

const claimed = ({ attempts, ...r }: ClaimedRow): ClaimedNotification => ({ ...r, attempt: attempts });

async function insertRows(sql: Sql, rows: NewNotification[], attempts: number): Promise<number[]> {
  const { rows: ids } = await sql.query<{ id: number }>(
    INSERT_SQL,
    notificationArrays(rows, attempts),
    'notification-insert',
  );
  return ids.map((r) => r.id);
}

export function postgresNotificationStore(pool: pg.Pool, observe: StatementListener): NotificationStore {
  const sql = poolSql(pool, observe);
  const changedOne = async (text: string, values: unknown[]) => (await sql.query(text, values)).rowCount === 1;
  return {
    // One statement is its own transaction: the rows are locked, updated and committed together.
    async claimDue(now, limit, leaseUntil) {
      const { rows } = await sql.query<ClaimedRow>(POSTGRES_CLAIM_SQL, [ts(leaseUntil), ts(now), limit], 'notification-claim');
      // RETURNING gives no order; deliver in queue order.
      return rows.map(claimed).sort((a, b) => a.id - b.id);
    },
    async insertClaimed(n, leaseUntil) {
      const [id] = await insertRows(sql, [{ ...n, nextAttemptAt: leaseUntil }], 1);
      return { ...n, personId: null, id: id!, attempt: 1 };
    },
    async insert(rows) {
      if (rows.length) await insertRows(sql, rows, 0);
    },
    startAttempt: (id, attempt, leaseUntil) => changedOne(SQL.start, [ts(leaseUntil), id, attempt]),
    async release(rows, at) {
      if (!rows.length) return;
      // One statement: all given back or none.
      await sql.query(SQL.release, [ts(at), rows.map((r) => r.id), rows.map((r) => r.attempt)]);
    },
    markSent: (o: AttemptOutcome) => changedOne(SQL.sent, [ts(o.at), o.durationMs, o.id, o.attempt]),
    markRetry: (o, nextAttemptAt, error) => changedOne(SQL.retry, [ts(nextAttemptAt), ts(o.at), error, o.durationMs, o.id, o.attempt]),
    markFailed: (o, error) => changedOne(SQL.failed, [ts(o.at), error, o.durationMs, o.id, o.attempt]),
    async nextDueAt() {
      const { rows } = await sql.query<{ at: Date }>(SQL.nextDue, [], 'notification-next-due');
      return rows[0]?.at ?? null;
    },
    async pendingStats() {
      const { rows } = await sql.query<{ count: number; oldest: Date | null }>(SQL.stats);
      return rows[0]!;
    },
  };
}
