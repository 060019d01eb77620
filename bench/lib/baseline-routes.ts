// Hand-written REST handlers that serve the GraphQL benchmark's dashboard data (the project's
// first 100 checks, each with its 10 newest pings and their durations, and its flips) as JSON,
// with the same X-Api-Key check and no GraphQL. The GraphQL figure is measured against them, in
// the same process (baseline-server.ts; bench/profile-dashboard.ts in-process).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRouter } from '../../src/http/router.ts';
import type { Check, Flip } from '../../src/generated/prisma/client.ts';
import { sendJson } from '../../src/http/respond.ts';
import { checkState } from '../../src/monitoring/checks/derived.ts';
import type { MonitoringDeps, ProjectAccess } from '../../src/monitoring/context.ts';
import type { GatewayServices } from '../../src/services.ts';
import { latestPings, pingDurations } from '../../src/monitoring/pings/service.ts';
import { authenticate, isDomainError } from '../../src/monitoring/projects/service.ts';

const CHECKS = 100;
const PINGS = 10;

interface Listed {
  name: string;
  status: string;
  lastPing: Date | null;
  pings: { n: number; type: string; date: Date; duration: number | null }[];
  flips: { timestamp: Date; newStatus: string; oldStatus: string }[];
}

type Handler = (deps: MonitoringDeps, access: ProjectAccess) => Promise<Listed[]>;

/**
 * What an engineer writes with Prisma: one findMany with the relations nested (Prisma runs one
 * statement per relation; its nested `take` cuts each check's pings in memory), then the domain's
 * durations per check, which look back for the start of a run cut off by the window.
 */
const nested: Handler = async (deps, access) => {
  const now = deps.clock.now();
  const checks = await deps.db.check.findMany({
    where: { projectId: access.projectId },
    orderBy: { id: 'asc' },
    take: CHECKS,
    include: {
      project: { select: { pingLogLimit: true } },
      pings: { orderBy: { id: 'desc' }, take: PINGS, omit: { body: true } },
      flips: { orderBy: { id: 'desc' } },
    },
  });
  return Promise.all(checks.map((c) => listed(deps, c, c.pings.slice(0, c.project.pingLogLimit), now)));
};

/** The same data on GraphQL's own plan (latestPings' window query): isolates GraphQL's cost. */
const windowed: Handler = async (deps, access) => {
  const now = deps.clock.now();
  const checks = await deps.db.check.findMany({
    where: { projectId: access.projectId },
    orderBy: { id: 'asc' },
    take: CHECKS,
    include: { flips: { orderBy: { id: 'desc' } } },
  });
  const pings = await latestPings(deps, access, checks.map((c) => c.id), { first: PINGS });
  return Promise.all(checks.map((c) => listed(deps, c, pings.get(c.id) ?? [], now)));
};

const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : ms / 1000);

/** One check of the dashboard, its listed pings with the domain's durations. */
async function listed(deps: MonitoringDeps, c: Check & { flips: Flip[] }, pings: Parameters<typeof pingDurations>[2], now: Date): Promise<Listed> {
  const durations = await pingDurations(deps, c.id, pings);
  return {
    name: c.name,
    status: checkState(c, now).status,
    lastPing: c.lastPing,
    pings: pings.map((p, i) => ({ n: p.n, type: p.kind, date: p.createdAt, duration: seconds(durations[i]) })),
    flips: c.flips.map((f) => ({ timestamp: f.createdAt, newStatus: f.newStatus, oldStatus: f.oldStatus })),
  };
}

function serve(deps: MonitoringDeps, handler: Handler) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const header = req.headers['x-api-key'];
      // Pings are shown to read-write keys only, as GraphQL's `pings` field.
      const access = await authenticate(deps.db, Array.isArray(header) ? header[0] : header, 'write');
      sendJson(res, 200, { checks: await handler(deps, access) });
    } catch (err) {
      if (isDomainError(err) && err.code === 'UNAUTHENTICATED') return sendJson(res, 401, { error: err.message });
      sendJson(res, 500, { error: String(err) });
    }
  };
}

/** The two baselines, registered on the gateway's router (BuildOptions.routes). */
export function baselineRoutes(router: HttpRouter, { monitoring: deps }: GatewayServices): void {
  router.get('/bench/baseline', serve(deps, nested));
  router.get('/bench/baseline-window', serve(deps, windowed));
}
