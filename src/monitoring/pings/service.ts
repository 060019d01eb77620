// Receiving pings and reading them back. A ping is acknowledged only after the check update
// and the ping row have committed together (ingest.ts), so nothing acknowledged is lost.
import { randomUUID } from 'node:crypto';
import type { Ping } from '../../generated/prisma/client.ts';
import { conflict, notFound, validationError } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import type { MonitoringServices } from '../services.ts';
import { getCheck } from '../checks/service.ts';
import { writableProject } from '../access.ts';
import { uniqueKeyFor } from '../checks/derived.ts';
import { validatePing, type PingRequest } from './request.ts';
import { MAX_DURATION_MS, MAX_LOOK_BACKS, PING_LIST_MAX, type LatestPing } from './latest-pings.ts';

export { MAX_DURATION_MS, MAX_LOOK_BACKS, PING_LIST_MAX, type LatestPing } from './latest-pings.ts';

export type { PingRequest, PingSignal } from './request.ts';

/** `/ping/<uuid>`: resolves once the ping is committed (see ingest.ts). */
export async function pingByCode(deps: MonitoringServices, code: string, req: PingRequest): Promise<void> {
  try {
    validatePing(req);
  } catch (err) {
    // Healthchecks looks the check up first: for an unknown check the answer is 404, whatever
    // else is wrong with the ping. (A valid ping's lookup is the ingest batch's own.)
    const known = await deps.db.check.findUnique({ where: { code }, select: { id: true } });
    if (!known) throw notFound('not found');
    throw err;
  }
  await deps.pings.submit({ code }, req);
}

/**
 * `/ping/<ping_key>/<slug>`: with `create` a missing check is provisioned (named after the
 * slug, with every channel of the project). Returns whether it was created.
 */
export async function pingBySlug(
  deps: MonitoringServices,
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
    // Two first pings racing: the second finds the check the first created.
    await deps.storage.locks.slug(tx, projectId, slug);
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

/**
 * Pings by (check row id, serial number), in the order asked, in one statement: null for a ping
 * of another project, or one the ping log no longer lists (pingBody's window). Read-write keys.
 */
export async function pingsByNumber(deps: MonitoringDeps, access: ProjectAccess, refs: ReadonlyArray<{ checkId: number; n: number }>): Promise<(LatestPing | null)[]> {
  const projectId = writableProject(access);
  if (refs.length === 0) return [];
  const rows = await deps.db.ping.findMany({
    where: { OR: refs.map(({ checkId, n }) => ({ checkId, n })), check: { projectId } },
    include: { check: { select: { nPings: true, project: { select: { pingLogLimit: true } } } } },
  });
  const found = new Map(rows.map(({ check, ...ping }) => [`${ping.checkId}:${ping.n}`, ping.n > check.nPings - check.project.pingLogLimit ? ping : null]));
  return refs.map(({ checkId, n }) => found.get(`${checkId}:${n}`) ?? null);
}


type ListedPing = {
  n: number;
  kind: string;
  rid: string | null;
  createdAt: Date;
  /** lookBackDuration's answer when it was read with the ping (latestPings); absent otherwise. */
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
 *
 * `withDetails: false` leaves the row id, scheme, remoteAddr, method, ua, exitStatus and hasBody
 * unread (undefined on the returned pings, whatever their type says): for a caller that shows
 * none of them, as a GraphQL query that does not select them (graphql/schema/monitoring/ping.ts).
 * Nothing here needs the row id: a check's pings are ordered by n.
 */
export async function latestPings(
  deps: MonitoringDeps,
  access: ProjectAccess,
  checkIds: readonly number[],
  options: { first: number; withBody?: boolean; withDetails?: boolean },
): Promise<Map<number, LatestPing[]>> {
  const out = new Map<number, LatestPing[]>(checkIds.map((id) => [id, []]));
  const first = Math.max(0, Math.min(options.first, PING_LIST_MAX));
  if (checkIds.length === 0 || first === 0) return out;
  const withDetails = options.withDetails ?? true;
  const rows = await deps.storage.latestPings(deps.db, { projectId: access.projectId, checkIds, first, withBody: !!options.withBody, withDetails });
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
      hasBody: withDetails ? Boolean(r.hasBody) : undefined,
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
    // By n, as the listing's own look-back (latest-pings-store.ts): a listing may leave the row id unread.
    where: { checkId, n: { lt: ping.n }, createdAt: { gte: since }, rid: ping.rid, kind: { in: ['start', 'success', 'fail'] } },
    orderBy: { n: 'desc' },
    select: { kind: true, createdAt: true },
  });
  return earlier?.kind === 'start' ? ping.createdAt.getTime() - earlier.createdAt.getTime() : null;
}
