// Receiving pings and reading them back. A ping is acknowledged only after the check update
// and the ping row have committed together (ingest.ts), so nothing acknowledged is lost.
import { randomUUID } from 'node:crypto';
import { conflict, notFound, validationError } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import { getCheck } from '../checks/service.ts';
import { uniqueKeyFor } from '../checks/derived.ts';
import { validatePing, type PingRequest } from './request.ts';

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
    // Two first pings racing: the second finds the check the first created.
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

export async function listPings(deps: MonitoringDeps, access: ProjectAccess, code: string) {
  const check = await getCheck(deps, access, code);
  const project = await deps.db.project.findUniqueOrThrow({ where: { id: access.projectId }, select: { pingLogLimit: true } });
  const pings = await deps.db.ping.findMany({
    where: { checkId: check.id },
    orderBy: { id: 'desc' },
    take: Math.min(project.pingLogLimit, 1000),
    omit: { body: true },
  });
  const withBody = await deps.db.ping.findMany({
    where: { checkId: check.id, id: { in: pings.map((p) => p.id) }, body: { not: null } },
    select: { id: true },
  });
  const hasBody = new Set(withBody.map((p) => p.id));
  const durations = await pingDurations(deps, check.id, pings);
  return {
    check,
    pings: pings.map((p, i) => ({ ...p, hasBody: hasBody.has(p.id), durationMs: durations[i] ?? null })),
  };
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
type ListedPing = { id: number; n: number; kind: string; rid: string | null; createdAt: Date };

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
  if (misses.length > 10) return newestFirst.map(() => null);
  for (const i of misses) out[i] = await lookBackDuration(deps, checkId, newestFirst[i]!);
  return out;
}

/** Ping.duration: the nearest earlier ping with the same run id, if it is a start. */
async function lookBackDuration(deps: MonitoringDeps, checkId: number, ping: ListedPing): Promise<number | null> {
  if (ping.n === 1) return null;
  const since = new Date(ping.createdAt.getTime() - MAX_DURATION_MS);
  const earlier = await deps.db.ping.findFirst({
    where: { checkId, id: { lt: ping.id }, createdAt: { gte: since }, rid: ping.rid, kind: { in: ['start', 'success', 'fail'] } },
    orderBy: { id: 'desc' },
    select: { kind: true, createdAt: true },
  });
  return earlier?.kind === 'start' ? ping.createdAt.getTime() - earlier.createdAt.getTime() : null;
}

