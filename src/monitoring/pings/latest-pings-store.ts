// The LatestPingsQuery store (port: latest-pings.ts): latestPings' statement (pings/service.ts) in
// each database's words, the one read the domain asks of the storage by SQL, chosen with the other
// stores (monitoring/storage.ts).
import { Prisma } from '../../generated/prisma/client.ts';
import type { Provider } from '../../db/provider.ts';
import { MAX_DURATION_MS, MAX_LOOK_BACKS, type LatestPingRow, type LatestPingsQuery } from './latest-pings.ts';

/**
 * latestPings' statement in each database's words. SQLite (as sqlite-store.ts): MIN of two
 * values, IS for NULL-safe equality, dates stored as Unix milliseconds (db/adapter.ts), so date
 * arithmetic is integer arithmetic, and booleans are integers. PostgreSQL: LEAST, IS NOT DISTINCT
 * FROM, timestamps whose differences are intervals, booleans counted with FILTER.
 */
interface Dialect {
  least: Prisma.Sql;
  maxDuration: Prisma.Sql;
  countMisses: Prisma.Sql;
  isNotDistinctFrom: Prisma.Sql;
  millisBetween(later: string, earlier: string): Prisma.Sql;
}

const DIALECTS: Record<Provider, Dialect> = {
  sqlite: {
    least: Prisma.raw('MIN'),
    maxDuration: Prisma.raw(String(MAX_DURATION_MS)),
    countMisses: Prisma.raw('SUM("miss")'),
    isNotDistinctFrom: Prisma.raw('IS'),
    millisBetween: (later, earlier) => Prisma.raw(`${later} - ${earlier}`),
  },
  postgresql: {
    least: Prisma.raw('LEAST'),
    maxDuration: Prisma.raw(`interval '${MAX_DURATION_MS} milliseconds'`),
    countMisses: Prisma.raw('COUNT(*) FILTER (WHERE "miss")'),
    isNotDistinctFrom: Prisma.raw('IS NOT DISTINCT FROM'),
    // Exact: timestamps have millisecond precision and EXTRACT returns numeric.
    millisBetween: (later, earlier) => Prisma.raw(`(EXTRACT(EPOCH FROM ${later} - ${earlier}) * 1000)::float8`),
  },
};

/** The Ping columns `withDetails` adds (with "hasBody", computed from the body). */
const DETAIL_COLUMNS = ['id', 'scheme', 'remoteAddr', 'method', 'ua', 'exitStatus'] as const;

export function latestPingsQuery(provider: Provider): LatestPingsQuery {
  const d = DIALECTS[provider];
  return (db, { projectId, checkIds, first, withBody, withDetails }) => {
    // The columns only some callers read: the row id, the request's details and whether a body
    // is stored (REST), the body itself (when asked for). "listed" computes them from the Ping
    // row, the outer SELECT passes them on; each entry is followed by a comma.
    const optional: Array<[name: string, expression: string]> = [];
    if (withDetails) {
      for (const c of DETAIL_COLUMNS) optional.push([c, `p."${c}"`]);
      optional.push(['hasBody', 'p."body" IS NOT NULL']);
    }
    if (withBody) optional.push(['body', 'p."body"']);
    const computed = Prisma.raw(optional.map(([name, expression]) => `${expression} AS "${name}", `).join(''));
    const passed = Prisma.raw(optional.map(([name]) => `l."${name}", `).join(''));
    // One sort (the run ids' ROW_NUMBER) marks the misses: O(k log k) for k listed pings, where a
    // correlated "earlier in the listing?" test per ping would be O(k²).
    return db.$queryRaw<LatestPingRow[]>`
      WITH "windows" AS (
        SELECT c."id" AS "checkId", c."nPings" - ${d.least}(${first}, pr."pingLogLimit") AS "floor"
        FROM "Check" c JOIN "Project" pr ON pr."id" = c."projectId"
        WHERE c."projectId" = ${projectId} AND c."id" IN (${Prisma.join(checkIds)})
      ), "listed" AS (
        SELECT p."checkId", p."n", p."createdAt", p."kind", p."rid", ${computed}
          -- pingDurations' misses: a success or fail within 72 h of the oldest listed ping, with no
          -- earlier start, success or fail of its run id in the listing
          p."kind" IN ('success', 'fail')
            AND p."createdAt" - (SELECT e."createdAt" FROM "Ping" e WHERE e."checkId" = w."checkId" AND e."n" > w."floor" ORDER BY e."n" LIMIT 1) < ${d.maxDuration}
            AND ROW_NUMBER() OVER (PARTITION BY p."checkId", p."rid", p."kind" IN ('start', 'success', 'fail') ORDER BY p."n") = 1 AS "miss"
        FROM "windows" w JOIN "Ping" p ON p."checkId" = w."checkId" AND p."n" > w."floor"
      ), "misses" AS (
        SELECT "checkId", ${d.countMisses} AS "count" FROM "listed" GROUP BY "checkId"
      )
      SELECT l."checkId", l."n", l."createdAt", l."kind", l."rid", ${passed}
        l."miss" AND m."count" <= ${MAX_LOOK_BACKS} AS "lookedBack",
        -- lookBackDuration's query, for the pings it will be asked about
        CASE WHEN l."miss" AND m."count" <= ${MAX_LOOK_BACKS} THEN (
          SELECT CASE WHEN q."kind" = 'start' THEN ${d.millisBetween('l."createdAt"', 'q."createdAt"')} END
          FROM "Ping" q
          WHERE q."checkId" = l."checkId" AND q."n" < l."n" AND q."createdAt" >= l."createdAt" - ${d.maxDuration}
            AND q."rid" ${d.isNotDistinctFrom} l."rid" AND q."kind" IN ('start', 'success', 'fail')
          ORDER BY q."n" DESC LIMIT 1
        ) END AS "lookBackMs"
      FROM "listed" l JOIN "misses" m ON m."checkId" = l."checkId"
      ORDER BY l."checkId", l."n" DESC`;
  };
}
