// Receiving pings and reading them back. A ping is acknowledged only after the check update
// and the ping row have committed together (ingest.ts), so nothing acknowledged is lost.
import { randomUUID } from 'node:crypto';
import { Prisma, type Ping } from '../../generated/prisma/client.ts';
import { conflict, notFound, validationError } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import { getCheck } from '../checks/service.ts';
import { uniqueKeyFor } from '../checks/derived.ts';
import { validatePing, type PingRequest } from './request.ts';
import type { Provider } from '../../db/provider.ts';

export type { PingRequest, PingSignal } from './request.ts';

/** `/ping/<uuid>`: resolves once the ping is committed (see ingest.ts). */
export async function pingByCode(deps: MonitoringDeps, code: string, req: PingRequest): Promise<void> {
  validatePing(req);
  await deps.pings.submit({ code }, req);
}

/**
 * `/ping/<ping_key>/<slug>`: with `create` a missing check is provisioned (named after the
 * slug, with every channel of the project). Returns whether it was created.
 */
export async function pingBySlug(
  deps: MonitoringDeps,
  pingKeyHash: string,
  slug: string,
  req: PingRequest,
  create: boolean,
): Promise<{ created: boolean }> {
  if (slug !== slug.toLowerCase()) throw validationError('invalid url format');
  const project = await deps.db.project.findUnique({ where: { pingKeyHash }, select: { id: true } });
  if (!project) throw notFound('not found');
  const matches = await deps.db.check.findMany({ where: { projectId: project.id, slug }, select: { id: true }, take: 2 });
  if (matches.length > 1) throw conflict('ambiguous slug');
  if (matches.length === 1) {
    validatePing(req);
    await deps.pings.submit({ checkId: matches[0]!.id }, req);
    return { created: false };
  }
  if (!create) throw notFound('not found');
  validatePing(req);
  const id = await provisionCheck(deps, project.id, slug);
  await deps.pings.submit({ checkId: id }, req);
  return { created: true };
}

async function provisionCheck(deps: MonitoringDeps, projectId: string, slug: string): Promise<number> {
  return deps.db.$transaction(async (tx) => {
    // Two first pings racing: the second finds the check the first created. SQLite has one
    // writer at a time; PostgreSQL runs both transactions at once, so they queue on the slug.
    if (deps.provider === 'postgresql') await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${projectId}/${slug}`}, 0))`;
    const existing = await tx.check.findFirst({ where: { projectId, slug }, select: { id: true } });
    if (existing) return existing.id;
    const channels = await tx.channel.findMany({ where: { projectId }, select: { id: true } });
    const code = randomUUID();
    const check = await tx.check.create({
      data: {
        code,
        uniqueKey: uniqueKeyFor(code),
        badgeKey: randomUUID(),
        projectId,
        name: slug,
        slug,
        createdAt: deps.clock.now(),
        channels: { create: channels.map((c) => ({ channelId: c.id })) },
      },
      select: { id: true },
    });
    return check.id;
  });
}

/** REST's ping list: the check's newest pings (at most pingLogLimit), with their durations. */
export async function listPings(deps: MonitoringDeps, access: ProjectAccess, code: string) {
  const check = await getCheck(deps, access, code);
  const pings = (await latestPings(deps, access, [check.id], { first: PING_LIST_MAX })).get(check.id)!;
  const durations = await pingDurations(deps, check.id, pings);
  return { check, pings: pings.map((p, i) => ({ ...p, hasBody: p.hasBody === true, durationMs: durations[i] ?? null })) };
}

export async function pingBody(deps: MonitoringDeps, access: ProjectAccess, code: string, n: number): Promise<Buffer> {
  const check = await getCheck(deps, access, code);
  const project = await deps.db.project.findUniqueOrThrow({ where: { id: access.projectId }, select: { pingLogLimit: true } });
  if (n <= check.nPings - project.pingLogLimit) throw notFound();
  const ping = await deps.db.ping.findUnique({ where: { checkId_n: { checkId: check.id, n } }, select: { body: true } });
  if (!ping?.body || ping.body.length === 0) throw notFound();
  return Buffer.from(ping.body);
}

const MAX_DURATION_MS = 72 * 3600 * 1000;
/**
 * latestPings' statement in each database's words. SQLite (as sqlite-store.ts): MIN of two
 * values, IS for NULL-safe equality, dates stored as Unix milliseconds (db/adapter.ts), so date
 * arithmetic is integer arithmetic, and booleans are integers. PostgreSQL: LEAST, IS NOT DISTINCT
 * FROM, timestamps whose differences are intervals, booleans counted with FILTER.
 */
const DIALECTS: Record<Provider, { least: Prisma.Sql; maxDuration: Prisma.Sql; countMisses: Prisma.Sql; isNotDistinctFrom: Prisma.Sql; millisBetween(later: string, earlier: string): Prisma.Sql }> = {
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

/** Healthchecks never lists more than 1000 pings of a check. */
export const PING_LIST_MAX = 1000;
/** Beyond this many look-backs in one listing, Healthchecks shows no durations at all. */
const MAX_LOOK_BACKS = 10;

type ListedPing = {
  id: number;
  n: number;
  kind: string;
  rid: string | null;
  createdAt: Date;
  /** lookBackDuration's answer when it was read with the ping (latestPings); absent otherwise. */
  lookBackMs?: number | null;
};

/** A listed ping: every column, the body only when asked for (undefined otherwise). */
export type LatestPing = Omit<Ping, 'body'> & {
  body?: Uint8Array | null;
  /** Whether a body is stored (set by latestPings; a live ping event carries its body instead). */
  hasBody?: boolean;
  lookBackMs?: number | null;
};

/**
 * The newest `first` pings (at most the project's pingLogLimit, as listPings) of each of
 * `checkIds` that belongs to the caller's project, newest first, in one statement whatever the
 * number of checks. The window is read off the (checkId, n) index: ingest numbers a check's pings
 * 1, 2, 3… in insertion order under a compare-and-set on nPings, and pruning only removes the
 * oldest, so the newest `k` pings are exactly those with n > nPings - k (and n orders them as id
 * does). Prisma's nested `take` would read every ping of every check and cut in memory.
 *
 * The statement also answers the look-backs pingDurations will need (the same rule, marked in
 * SQL: a success or fail whose run id has no earlier start, success or fail in the listing, at
 * most ten per check), so durations cost no further query; pingDurations still looks back
 * itself for any ping that comes without its answer.
 */
export async function latestPings(
  deps: MonitoringDeps,
  access: ProjectAccess,
  checkIds: readonly number[],
  options: { first: number; withBody?: boolean },
): Promise<Map<number, LatestPing[]>> {
  const out = new Map<number, LatestPing[]>(checkIds.map((id) => [id, []]));
  const first = Math.max(0, Math.min(options.first, PING_LIST_MAX));
  if (checkIds.length === 0 || first === 0) return out;
  const d = DIALECTS[deps.provider];
  // One sort (the run ids' ROW_NUMBER) marks the misses: O(k log k) for k listed pings, where a
  // correlated "earlier in the listing?" test per ping would be O(k²).
  const rows = await deps.db.$queryRaw<(Omit<LatestPing, 'hasBody' | 'lookBackMs'> & { hasBody: number | bigint | boolean; lookedBack: number | bigint | boolean; lookBackMs: number | bigint | null })[]>`
    WITH "windows" AS (
      SELECT c."id" AS "checkId", c."nPings" - ${d.least}(${first}, pr."pingLogLimit") AS "floor"
      FROM "Check" c JOIN "Project" pr ON pr."id" = c."projectId"
      WHERE c."projectId" = ${access.projectId} AND c."id" IN (${Prisma.join(checkIds)})
    ), "listed" AS (
      SELECT p."id", p."checkId", p."n", p."createdAt", p."kind", p."scheme", p."remoteAddr", p."method", p."ua", p."rid", p."exitStatus",
        ${options.withBody ? Prisma.sql`p."body"` : Prisma.sql`NULL`} AS "body", p."body" IS NOT NULL AS "hasBody",
        -- pingDurations' misses: a success or fail within 72 h of the oldest listed ping, with no
        -- earlier start, success or fail of its run id in the listing
        p."kind" IN ('success', 'fail')
          AND p."createdAt" - (SELECT e."createdAt" FROM "Ping" e WHERE e."checkId" = w."checkId" AND e."n" > w."floor" ORDER BY e."n" LIMIT 1) < ${d.maxDuration}
          AND ROW_NUMBER() OVER (PARTITION BY p."checkId", p."rid", p."kind" IN ('start', 'success', 'fail') ORDER BY p."n") = 1 AS "miss"
      FROM "windows" w JOIN "Ping" p ON p."checkId" = w."checkId" AND p."n" > w."floor"
    ), "misses" AS (
      SELECT "checkId", ${d.countMisses} AS "count" FROM "listed" GROUP BY "checkId"
    )
    SELECT l."id", l."checkId", l."n", l."createdAt", l."kind", l."scheme", l."remoteAddr", l."method", l."ua", l."rid", l."exitStatus", l."body", l."hasBody",
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
    ORDER BY l."checkId", l."id" DESC`;
  for (const r of rows) {
    // One object of one shape per ping: a dashboard lists a thousand of them.
    out.get(r.checkId)!.push({
      id: r.id,
      checkId: r.checkId,
      n: r.n,
      createdAt: r.createdAt,
      kind: r.kind,
      scheme: r.scheme,
      remoteAddr: r.remoteAddr,
      method: r.method,
      ua: r.ua,
      rid: r.rid,
      exitStatus: r.exitStatus,
      body: options.withBody ? r.body : undefined,
      hasBody: Boolean(r.hasBody),
      lookBackMs: r.lookedBack ? (r.lookBackMs === null ? null : Number(r.lookBackMs)) : undefined,
    });
  }
  return out;
}

/** Healthchecks' prepare_durations: pair completions with their start by run id. */
export async function pingDurations(deps: MonitoringDeps, checkId: number, newestFirst: ListedPing[]): Promise<(number | null)[]> {
  const out: (number | null)[] = newestFirst.map(() => null);
  if (newestFirst.length === 0) return out;
  const earliest = newestFirst[newestFirst.length - 1]!.createdAt.getTime();
  const starts = new Map<string | null, number | null>();
  const misses: number[] = [];
  for (let i = newestFirst.length - 1; i >= 0; i--) {
    const p = newestFirst[i]!;
    const at = p.createdAt.getTime();
    if (p.kind === 'start') {
      starts.set(p.rid, at);
    } else if (p.kind === 'success' || p.kind === 'fail') {
      if (!starts.has(p.rid)) {
        if (at - earliest < MAX_DURATION_MS) misses.push(i);
      } else {
        const start = starts.get(p.rid);
        if (start != null && at - start < MAX_DURATION_MS) out[i] = at - start;
      }
      starts.set(p.rid, null);
    }
  }
  if (misses.length > MAX_LOOK_BACKS) return newestFirst.map(() => null);
  for (const i of misses) out[i] = await lookBackDuration(deps, checkId, newestFirst[i]!);
  return out;
}

/** Ping.duration: the nearest earlier ping with the same run id, if it is a start. */
async function lookBackDuration(deps: MonitoringDeps, checkId: number, ping: ListedPing): Promise<number | null> {
  if (ping.n === 1) return null;
  if (ping.lookBackMs !== undefined) return ping.lookBackMs;
  const since = new Date(ping.createdAt.getTime() - MAX_DURATION_MS);
  const earlier = await deps.db.ping.findFirst({
    where: { checkId, id: { lt: ping.id }, createdAt: { gte: since }, rid: ping.rid, kind: { in: ['start', 'success', 'fail'] } },
    orderBy: { id: 'desc' },
    select: { kind: true, createdAt: true },
  });
  return earlier?.kind === 'start' ? ping.createdAt.getTime() - earlier.createdAt.getTime() : null;
}
