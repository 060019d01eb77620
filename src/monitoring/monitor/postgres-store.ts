// The monitor's page on PostgreSQL. Due checks are claimed with FOR NO KEY UPDATE SKIP LOCKED:
// instances running a monitor each take rows the others have not, a row another transaction
// holds (a ping batch, another pass) is left to it, and a row that changed before the lock is
// re-read by READ COMMITTED and dropped if no longer due. So each going-down flip is recorded
// once; the compare-and-set on status and nPings stays as a second guard.
import type pg from 'pg';
import type { Check } from '../../generated/prisma/client.ts';
import type { StatementListener } from '../../db/gated-adapter.ts';
import { transaction, ts, type Sql } from '../../db/postgres/sql.ts';
import { queueFlipNotifications, type FlipToNotify } from '../notifications/outbox.ts';
import { postgresOutbox } from '../notifications/postgres-outbox.ts';
import { dueAction } from './due.ts';
import type { MonitorCursor, MonitorPage, MonitorStore, RecordPageEvents } from './store.ts';

// Walks the alertAfter index; the row-value cursor is a range condition on it too. The first
// page starts at '-infinity'.
export const POSTGRES_DUE_SQL = `SELECT * FROM "Check" WHERE "alertAfter" <= $1 AND "status" <> 'down' AND ("alertAfter", "id") > ($2::timestamp, $3::int)
  ORDER BY "alertAfter", "id" LIMIT $4 FOR NO KEY UPDATE SKIP LOCKED`;

// The page's writes in one statement: downs and reschedules (each a compare-and-set), and a
// flip for each down that took.
const WRITE_SQL = `WITH "down" AS (
    UPDATE "Check" c SET "status" = 'down', "alertAfter" = NULL
    FROM unnest($1::int[], $2::text[], $3::int[]) AS v("id", "status", "nPings")
    WHERE c."id" = v."id" AND c."status" = v."status" AND c."nPings" = v."nPings"
    RETURNING c."id"
  ), "rescheduled" AS (
    UPDATE "Check" c SET "alertAfter" = v."alertAfter"
    FROM unnest($4::int[], $5::timestamp[], $6::int[]) AS v("id", "alertAfter", "nPings")
    WHERE c."id" = v."id" AND c."nPings" = v."nPings"
    RETURNING 1
  )
  INSERT INTO "Flip" ("checkId", "createdAt", "oldStatus", "newStatus", "reason")
  SELECT v."id", v."at", v."status", 'down', 'timeout' FROM unnest($1::int[], $7::timestamp[], $2::text[]) AS v("id", "at", "status")
  WHERE v."id" IN (SELECT "id" FROM "down")
  RETURNING "id", "checkId"`;

const cursorTime = (ms: number) => (ms === -Infinity ? '-infinity' : new Date(ms).toISOString());

async function passPage(sql: Sql, now: Date, after: MonitorCursor, pageSize: number, recordEvents: RecordPageEvents): Promise<MonitorPage> {
  const { rows } = await sql.query<Check>(POSTGRES_DUE_SQL, [ts(now), cursorTime(after.alertAfter), after.id, pageSize], 'monitor-due');
  const page: MonitorPage = { read: rows.length, last: after, down: [], flips: [], rescheduled: 0 };
  if (rows.length === 0) return page;
  const last = rows[rows.length - 1]!;
  page.last = { alertAfter: last.alertAfter!.getTime(), id: last.id };
  const down: Array<{ check: Check; at: Date }> = [];
  const reschedule: Array<{ check: Check; alertAfter: Date | null }> = [];
  for (const check of rows) {
    const action = dueAction(check, now);
    if (action.down) down.push({ check, at: action.at });
    else reschedule.push({ check, alertAfter: action.alertAfter });
  }
  page.rescheduled = reschedule.length;
  const written = await sql.query<{ id: number; checkId: number }>(
    WRITE_SQL,
    [
      down.map((d) => d.check.id),
      down.map((d) => d.check.status),
      down.map((d) => d.check.nPings),
      reschedule.map((r) => r.check.id),
      reschedule.map((r) => ts(r.alertAfter)),
      reschedule.map((r) => r.check.nPings),
      down.map((d) => ts(d.at)),
    ],
    'monitor-write',
  );
  const flipIds = new Map(written.rows.map((r) => [r.checkId, r.id]));
  const toNotify: FlipToNotify[] = [];
  for (const { check, at } of down) {
    const flipId = flipIds.get(check.id);
    if (flipId === undefined) continue;
    toNotify.push({ checkId: check.id, flipId, oldStatus: check.status, newStatus: 'down', at, sendAt: now });
    page.down.push({ ...check, status: 'down', alertAfter: null });
    page.flips.push({ check, oldStatus: check.status, newStatus: 'down', at, reason: 'timeout', processed: null });
  }
  // The outbox: the flips' notifications commit with them, and so do their events.
  const outbox = postgresOutbox(sql);
  await queueFlipNotifications(outbox, toNotify);
  await recordEvents(page, outbox);
  return page;
}

/**
 * Pages in flight at once when thousands of checks are due together: one page's round trips
 * and commit overlap another's work in PostgreSQL, so the last flip is recorded sooner. Two of
 * the pool's connections (PG_POOL_SIZE, default 10), leaving the rest to pings and requests.
 */
export const POSTGRES_PARALLEL_PAGES = 2;

export function postgresMonitorStore(pool: pg.Pool, observe: StatementListener, parallelPages = POSTGRES_PARALLEL_PAGES): MonitorStore {
  return {
    passPage: (now, after, pageSize, recordEvents) => transaction(pool, observe, (sql) => passPage(sql, now, after, pageSize, recordEvents)),
    parallelPages,
  };
}
