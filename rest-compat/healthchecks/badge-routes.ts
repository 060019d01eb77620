// Public badge URLs: /badge/<badge key>/<signature>[-2][/<tag>].<fmt> (and the form issued before
// badge keys were stored, with the project id in the key's place) and /b/<states>/<key>.<fmt>.
import type { ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../../src/monitoring/context.ts';
import { checkBadge, projectBadge } from '../../src/monitoring/badges/service.ts';
import { badgeJson, decodeTagSegment, isBadgeFormat, renderBadgeSvg, shieldsJson, type BadgeFormat, type BadgeStatus } from '../../src/monitoring/badges/badge.ts';
import { DomainError } from '../../src/shared/errors.ts';
import { neverCache, sendEmpty, sendJson } from '../../src/http/respond.ts';
import { corsHeaders } from './cors.ts';

// Healthchecks' badge views are @cors("GET") and @never_cache.
const cors = corsHeaders(['GET']);
const headers = { ...cors, ...neverCache };

function splitExtension(file: string): [string, string] | null {
  const dot = file.lastIndexOf('.');
  return dot > 0 ? [file.slice(0, dot), file.slice(dot + 1)] : null;
}

function sendBadge(res: ServerResponse, fmt: BadgeFormat, label: string, summary: { status: BadgeStatus }) {
  if (fmt === 'json') return sendJson(res, 200, badgeJson(summary as Parameters<typeof badgeJson>[0]), headers);
  if (fmt === 'shields') return sendJson(res, 200, shieldsJson(label, summary.status), headers);
  const svg = renderBadgeSvg(label, summary.status);
  res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Content-Length': Buffer.byteLength(svg), ...headers });
  res.end(svg);
}

export function registerBadgeRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringDeps, log: Logger) {
  // GET serves the badge; OPTIONS is the 204 preflight answer, any other method 405.
  const badgeRoute = (path: string, serve: Router.Handler<Router.HTTPVersion.V1>) =>
    router.all(path, (req, res, params, store, query) => {
      if (req.method === 'OPTIONS') return sendEmpty(res, 204, cors);
      if (req.method !== 'GET') return sendEmpty(res, 405, cors);
      return serve(req, res, params, store, query);
    });
  const notFound = (res: ServerResponse) => sendJson(res, 404, { error: 'not found' }, headers);
  async function guarded(res: ServerResponse, run: () => Promise<void>) {
    try {
      await run();
    } catch (err) {
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return notFound(res);
      log.error({ err }, 'badge failed');
      sendJson(res, 500, { error: 'internal server error' }, headers);
    }
  }

  // All checks of the project: /badge/<badge key>/<signature>.<fmt>
  badgeRoute('/badge/:key/:file', (_req, res, params) =>
    guarded(res, async () => {
      const parts = splitExtension(params.file!);
      if (!parts || !isBadgeFormat(parts[1])) return notFound(res);
      const { label, summary } = await projectBadge(deps, params.key!, parts[0], '*');
      sendBadge(res, parts[1], label === '*' ? deps.settings.siteName : label, summary);
    }),
  );

  // One tag: /badge/<badge key>/<signature>/<tag>.<fmt>
  badgeRoute('/badge/:key/:signature/:file', (_req, res, params) =>
    guarded(res, async () => {
      const parts = splitExtension(params.file!);
      if (!parts || !isBadgeFormat(parts[1])) return notFound(res);
      const tag = decodeTagSegment(parts[0]);
      const { label, summary } = await projectBadge(deps, params.key!, params.signature!, tag);
      sendBadge(res, parts[1], label, summary);
    }),
  );

  // One check: /b/<states>/<badge key>.<fmt>
  badgeRoute('/b/:states/:file', (_req, res, params) =>
    guarded(res, async () => {
      const parts = splitExtension(params.file!);
      if (!/^\d+$/.test(params.states!) || !parts || !isBadgeFormat(parts[1])) return notFound(res);
      const { label, summary } = await checkBadge(deps, parts[0], Number(params.states));
      sendBadge(res, parts[1], label, summary);
    }),
  );
}
