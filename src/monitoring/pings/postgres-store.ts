// The ping store on PostgreSQL: a batch of any size is a handful of round trips on one pooled
// connection: BEGIN; read and lock its checks (one statement); [in memory: ingest.ts plans the
// batch]; write checks, pings and flips (one statement of arrays); prune, only when a check
// crossed a hundred pings; queue notifications, only for flips that notify; COMMIT.
import type pg from 'pg';
import type { Check } from '../../generated/prisma/client.ts';
import type { StatementListener } from '../../db/gated-adapter.ts';
import { transaction, ts, type Sql } from '../../db/postgres/sql.ts';
import { postgresOutbox } from '../notifications/postgres-outbox.ts';
import type { LoadedChecks, PingStore, PingTargets, PingTx, PingWrites, WrittenIds } from './store.ts';

// Locked in id order, so two batches (of two instances) sharing checks cannot deadlock; NO KEY
// UPDATE is the lock an UPDATE takes anyway, and does not block rows being inserted that
// reference the check (pings, notifications). A batch waiting here reads the row as committed
// by the transaction it waited for (READ COMMITTED re-reads a locked row).
const LOAD_SQL = `SELECT c.*, p."pingLogLimit" AS "projectPingLogLimit"
  FROM "Check" c JOIN "Project" p ON p."id" = c."projectId"
  WHERE c."code" = ANY($1::text[]) OR c."id" = ANY($2::int[])
  ORDER BY c."id" FOR NO KEY UPDATE OF c`;

// One statement for the whole batch. Rows are inserted in the order of the arrays and take
// their ids from the sequence in that order, so sorting the returned ids gives them back in
// the arrays' order (what Django's bulk_create relies on as well). `c."id" = ANY($1)` says
// nothing the join does not, but lets the planner fetch the batch's checks by primary key:
// without it, a table of some 10,000 checks was read whole for every batch (a hash join over
// a sequential scan, ~5-10 ms of a ping batch's transaction; docs/performance.md).
const WRITE_SQL = `WITH "updated" AS (
    UPDATE "Check" c SET "status" = v."status", "lastPing" = v."lastPing", "lastStart" = v."lastStart", "lastStartRid" = v."lastStartRid",
      "lastDurationMs" = v."lastDurationMs", "alertAfter" = v."alertAfter", "nPings" = v."nPings"
    FROM unnest($1::int[], $2::int[], $3::text[], $4::timestamp[], $5::timestamp[], $6::text[], $7::int[], $8::timestamp[], $9::int[])
      AS v("id", "before", "status", "lastPing", "lastStart", "lastStartRid", "lastDurationMs", "alertAfter", "nPings")
    WHERE c."id" = v."id" AND c."nPings" = v."before" AND c."id" = ANY($1::int[])
    RETURNING 1
  ), "pings" AS (
    INSERT INTO "Ping" ("checkId", "n", "createdAt", "kind", "scheme", "remoteAddr", "method", "ua", "rid", "exitStatus", "body")
    SELECT * FROM unnest($10::int[], $11::int[], $12::timestamp[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::int[], $20::bytea[])
    RETURNING "id"
  ), "flips" AS (
    INSERT INTO "Flip" ("checkId", "createdAt", "oldStatus", "newStatus", "reason")
    SELECT * FROM unnest($21::int[], $22::timestamp[], $23::text[], $24::text[], $25::text[])
    RETURNING "id"
  )
  SELECT (SELECT count(*) FROM "updated")::int AS "updated",
    ARRAY(SELECT "id" FROM "pings" ORDER BY "id") AS "pingIds",
    ARRAY(SELECT "id" FROM "flips" ORDER BY "id") AS "flipIds"`;

// Apart from the write: a statement does not see its own inserts, and a batch may hold more
// pings of one check than its log keeps.
const PRUNE_SQL = `DELETE FROM "Ping" p USING unnest($1::int[], $2::int[]) AS v("checkId", "n")
  WHERE p."checkId" = v."checkId" AND p."n" <= v."n"`;

type LoadedRow = Check & { projectPingLogLimit: number };

function pingTx(sql: Sql): PingTx {
  return {
    async load({ codes, ids }: PingTargets): Promise<LoadedChecks> {
      const { rows } = await sql.query<LoadedRow>(LOAD_SQL, [codes, ids], 'ping-load');
      const limits = new Map<string, number>();
      const checks = rows.map(({ projectPingLogLimit, ...check }) => {
        limits.set(check.projectId, projectPingLogLimit);
        return check;
      });
      return { checks, pingLogLimit: (projectId) => limits.get(projectId)! };
    },
    async write(w: PingWrites): Promise<WrittenIds | null> {
      const c = w.checks.map((u) => u.after);
      const p = w.pings;
      const f = w.flips;
      const { rows } = await sql.query<{ updated: number; pingIds: number[]; flipIds: number[] }>(
        WRITE_SQL,
        [
          c.map((x) => x.id),
          w.checks.map((u) => u.before.nPings),
          c.map((x) => x.status),
          c.map((x) => ts(x.lastPing)),
          c.map((x) => ts(x.lastStart)),
          c.map((x) => x.lastStartRid),
          c.map((x) => x.lastDurationMs),
          c.map((x) => ts(x.alertAfter)),
          c.map((x) => x.nPings),
          p.map((x) => x.checkId),
          p.map((x) => x.n),
          p.map((x) => ts(x.createdAt)),
          p.map((x) => x.kind),
          p.map((x) => x.scheme),
          p.map((x) => x.remoteAddr),
          p.map((x) => x.method),
          p.map((x) => x.ua),
          p.map((x) => x.rid),
          p.map((x) => x.exitStatus),
          p.map((x) => x.body),
          f.map((x) => x.checkId),
          f.map((x) => ts(x.createdAt)),
          f.map((x) => x.oldStatus),
          f.map((x) => x.newStatus),
          f.map((x) => x.reason),
        ],
        'ping-write',
      );
      const { updated, pingIds, flipIds } = rows[0]!;
      // The rows are locked since the load, so this only fails if something is badly wrong.
      if (updated !== w.checks.length) return null;
      if (w.prunes.length) await sql.query(PRUNE_SQL, [w.prunes.map((x) => x.checkId), w.prunes.map((x) => x.n)], 'ping-prune');
      return { pingIds, flipIds };
    },
    ...postgresOutbox(sql),
  };
}

/**
 * Ping batches in flight at once: while one batch's round trips and COMMIT (the WAL flush)
 * keep it waiting, the next is read, planned and written on a second pooled connection.
 * Two of the pool's connections (PG_POOL_SIZE, default 10); a third measured no better on
 * two cores (docs/performance.md).
 */
export const POSTGRES_PARALLEL_BATCHES = 2;

export function postgresPingStore(pool: pg.Pool, observe: StatementListener, parallelBatches = POSTGRES_PARALLEL_BATCHES): PingStore {
  return {
    parallelBatches,
    transaction: (work) => transaction(pool, observe, async (sql) => work(pingTx(sql))),
  };
}
