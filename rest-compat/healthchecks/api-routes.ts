// The Management API (/api/v1/, /api/v2/, /api/v3/) on the shared domain functions.
// Each handler: parse, authorize, call the domain, serialize.
import type { IncomingMessage } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringDeps, ProjectAccess } from '../../src/monitoring/context.ts';
import { authenticate } from '../../src/monitoring/projects/service.ts';
import * as checks from '../../src/monitoring/checks/service.ts';
import { listPings, pingBody } from '../../src/monitoring/pings/service.ts';
import { pingEndpoint } from '../../src/monitoring/pings/url.ts';
import { listFlips } from '../../src/monitoring/flips/service.ts';
import { listChannels } from '../../src/monitoring/integrations/service.ts';
import { listBadges } from '../../src/monitoring/badges/service.ts';
import { BodyTooLarge, readBody, sendEmpty, sendJson, sendText } from '../../src/http/respond.ts';
import { BodyParseError, HttpError, parseJson } from '../../src/http/body.ts';
import { notFound, validationError } from '../../src/shared/errors.ts';
import { sendApiError } from './errors.ts';
import { channelJson, checkJson, flipJson, pingJson, type SerializeContext } from './serialize.ts';
import { lastParam } from './query.ts';
import { corsHeaders } from './cors.ts';

type Method = 'GET' | 'POST' | 'DELETE';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Django's <sha1:unique_key> converter: [A-z0-9]{40} (A-z also spans a few punctuation marks).
const UNIQUE_KEY = /^[A-z0-9]{40}$/;
// Django's DATA_UPLOAD_MAX_MEMORY_SIZE: any body Healthchecks accepts (`desc` has no maximum)
// we accept; past it Django answers 400, we answer 413 with a reason.
const MAX_API_BODY = 2.5 * 1024 * 1024;
// A check is a flat object (`unique` is the only array): 2 levels. Python's json module gives
// up near 1,000 levels (a 500 in Healthchecks); we refuse past 32 before parsing.
const MAX_API_DEPTH = 32;
// Ping numbers are 32-bit columns; a larger <int:n> is a ping the check does not have.
const MAX_PING_N = 2 ** 31 - 1;

interface Request {
  req: IncomingMessage;
  params: Record<string, string | undefined>;
  query: URLSearchParams;
  version: number;
  json: Record<string, unknown>;
}

type Result = Promise<{ status: number; body: unknown } | { raw: Buffer }>;

interface Endpoint {
  /** Which key the endpoint needs (Healthchecks' authorize vs authorize_read). */
  need: 'read' | 'write';
  run: (deps: MonitoringDeps, access: ProjectAccess, r: Request) => Result;
}

const ctxFor = (deps: MonitoringDeps, access: ProjectAccess, r: Request): SerializeContext => ({
  siteRoot: deps.settings.siteRoot,
  pingEndpoint: pingEndpoint(deps.settings),
  apiVersion: r.version,
  readOnly: access.readOnly,
  now: deps.clock.now(),
});

/** Which kind of identifier the path holds; anything else is a 404 from the router. */
function idKind(id: string | undefined): 'uuid' | 'unique_key' | null {
  if (id && UUID.test(id)) return 'uuid';
  if (id && UNIQUE_KEY.test(id)) return 'unique_key';
  return null;
}

const endpoints = {
  listChecks: {
    need: 'read',
    async run(deps, access, r) {
      const tags = r.query.getAll('tag');
      const slug = lastParam(r.query, 'slug') || undefined;
      const list = await checks.listChecks(deps, access, { tags, slug });
      const ctx = ctxFor(deps, access, r);
      return { status: 200, body: { checks: list.map((c) => checkJson(c, ctx)) } };
    },
  },
  createCheck: {
    need: 'write',
    async run(deps, access, r) {
      const { check, created } = await checks.createCheck(deps, access, r.json, r.version);
      return { status: created ? 201 : 200, body: checkJson(check, ctxFor(deps, access, r)) };
    },
  },
  getCheck: {
    need: 'read',
    async run(deps, access, r) {
      const id = r.params.id!;
      const check = idKind(id) === 'uuid' ? await checks.getCheck(deps, access, id) : await checks.getCheckByUniqueKey(deps, access, id);
      return { status: 200, body: checkJson(check, ctxFor(deps, access, r)) };
    },
  },
  updateCheck: {
    need: 'write',
    async run(deps, access, r) {
      const check = await checks.updateCheck(deps, access, r.params.id!, r.json, r.version);
      return { status: 200, body: checkJson(check, ctxFor(deps, access, r)) };
    },
  },
  deleteCheck: {
    need: 'write',
    async run(deps, access, r) {
      const check = await checks.deleteCheck(deps, access, r.params.id!);
      return { status: 200, body: checkJson(check, ctxFor(deps, access, r)) };
    },
  },
  pause: {
    need: 'write',
    async run(deps, access, r) {
      return { status: 200, body: checkJson(await checks.pauseCheck(deps, access, r.params.id!), ctxFor(deps, access, r)) };
    },
  },
  resume: {
    need: 'write',
    async run(deps, access, r) {
      return { status: 200, body: checkJson(await checks.resumeCheck(deps, access, r.params.id!), ctxFor(deps, access, r)) };
    },
  },
  pings: {
    need: 'write',
    async run(deps, access, r) {
      const { check, pings } = await listPings(deps, access, r.params.id!);
      const ctx = { siteRoot: deps.settings.siteRoot, apiVersion: r.version };
      return { status: 200, body: { pings: pings.map((p) => pingJson(p, check.code, ctx)) } };
    },
  },
  pingBody: {
    need: 'write',
    async run(deps, access, r) {
      const n = Number(r.params.n);
      if (!(n <= MAX_PING_N)) throw notFound();
      return { raw: await pingBody(deps, access, r.params.id!, n) };
    },
  },
  flips: {
    need: 'read',
    async run(deps, access, r) {
      const id = r.params.id!;
      const ref = idKind(id) === 'uuid' ? { code: id } : { uniqueKey: id };
      const query = { seconds: lastParam(r.query, 'seconds') ?? undefined, start: lastParam(r.query, 'start') ?? undefined, end: lastParam(r.query, 'end') ?? undefined };
      const flips = (await listFlips(deps, access, ref, query)).map(flipJson);
      // The seed documents a bare array for v2 (DECISIONS.md); v1 and v3 follow Healthchecks' code.
      return { status: 200, body: r.version === 2 ? flips : { flips } };
    },
  },
  channels: {
    need: 'write',
    async run(deps, access) {
      return { status: 200, body: { channels: (await listChannels(deps, access)).map(channelJson) } };
    },
  },
  badges: {
    need: 'read',
    async run(deps, access) {
      return { status: 200, body: { badges: await listBadges(deps, access) } };
    },
  },
} satisfies Record<string, Endpoint>;

type EndpointName = keyof typeof endpoints;

interface RouteSpec {
  path: string;
  methods: Partial<Record<Method, EndpointName>>;
  /** Which identifier kinds the :id segment may hold on this route. */
  ids?: { uuid?: Method[]; unique_key?: Method[] };
}

const routes: RouteSpec[] = [
  { path: 'checks/', methods: { GET: 'listChecks', POST: 'createCheck' } },
  {
    path: 'checks/:id',
    methods: { GET: 'getCheck', POST: 'updateCheck', DELETE: 'deleteCheck' },
    ids: { uuid: ['GET', 'POST', 'DELETE'], unique_key: ['GET'] },
  },
  { path: 'checks/:id/pause', methods: { POST: 'pause' }, ids: { uuid: ['POST'] } },
  { path: 'checks/:id/resume', methods: { POST: 'resume' }, ids: { uuid: ['POST'] } },
  { path: 'checks/:id/pings/', methods: { GET: 'pings' }, ids: { uuid: ['GET'] } },
  { path: 'checks/:id/pings/:n/body', methods: { GET: 'pingBody' }, ids: { uuid: ['GET'] } },
  { path: 'checks/:id/flips/', methods: { GET: 'flips' }, ids: { uuid: ['GET'], unique_key: ['GET'] } },
  { path: 'channels/', methods: { GET: 'channels' } },
  { path: 'badges/', methods: { GET: 'badges' } },
];

/** Healthchecks' `authorize`: parse a POST body, then find the key (header, else body). */
/**
 * The `api_key` a POST's JSON body carries, for the rate limiter (which runs before the
 * handler; the body is read once and kept, readBody). Null when the body has none or cannot be
 * read: the handler then answers as usual.
 */
export async function apiKeyInBody(req: IncomingMessage): Promise<string | null> {
  if (req.method !== 'POST') return null;
  const parsed = parseJson(await readBody(req, MAX_API_BODY), MAX_API_DEPTH) as { api_key?: unknown } | null;
  const key = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed.api_key : undefined;
  return key === undefined || key === null ? null : String(key);
}

async function parseRequest(req: IncomingMessage, need: 'read' | 'write'): Promise<{ json: Record<string, unknown>; key: string }> {
  let json: Record<string, unknown> = {};
  if (need === 'write' && req.method === 'POST') {
    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_API_BODY);
    } catch (e) {
      if (e instanceof BodyTooLarge) throw new HttpError(413, `request body too large: at most ${MAX_API_BODY / 1024 / 1024} MB`);
      throw e;
    }
    if (raw.length) {
      let parsed: unknown;
      try {
        parsed = parseJson(raw, MAX_API_DEPTH);
      } catch (e) {
        // Not UTF-8, not JSON, or nested too deeply: Healthchecks' one message for a body it cannot read.
        if (e instanceof BodyParseError) throw validationError('could not parse request body');
        throw e;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw validationError('json validation error: value is not an object');
      }
      json = parsed as Record<string, unknown>;
    }
  }
  const header = req.headers['x-api-key'];
  let key = '';
  if (header !== undefined) key = Array.isArray(header) ? header[0] ?? '' : header;
  // The key in the JSON body counts only on write endpoints (Healthchecks reads it for POST).
  else if (need === 'write' && json.api_key !== undefined && json.api_key !== null) key = String(json.api_key);
  return { json, key };
}

export function registerApiRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringDeps, log: Logger) {
  for (const version of [1, 2, 3]) {
    for (const route of routes) {
      const allowed = Object.keys(route.methods) as Method[];
      const cors = corsHeaders(allowed);
      router.all(`/api/v${version}/${route.path}`, async (req, res, params) => {
        const kind = idKind(params.id);
        if (route.ids) {
          const permitted = kind ? route.ids[kind] : undefined;
          // An identifier of the wrong shape matches no route in Healthchecks: plain 404.
          if (!permitted) return sendJson(res, 404, { error: 'not found' });
          if (params.n !== undefined && !/^\d+$/.test(params.n)) return sendJson(res, 404, { error: 'not found' });
          if (req.method === 'OPTIONS') return sendEmpty(res, 204, corsHeaders(permitted));
          if (!permitted.includes(req.method as Method)) return sendEmpty(res, 405, corsHeaders(permitted));
        } else {
          if (req.method === 'OPTIONS') return sendEmpty(res, 204, cors);
          if (!allowed.includes(req.method as Method)) return sendEmpty(res, 405, cors);
        }
        const endpoint: Endpoint = endpoints[route.methods[req.method as Method]!];
        const headers = kind && route.ids ? corsHeaders(route.ids[kind]!) : cors;
        try {
          const { json, key } = await parseRequest(req, endpoint.need);
          const access = await authenticate(deps.db, key, endpoint.need);
          // Repeated parameters (?tag=a&tag=b) need the full query, not the router's last-wins map.
          const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
          const result = await endpoint.run(deps, access, { req, params, query, version, json });
          if ('raw' in result) return sendText(res, 200, result.raw, { ...headers, 'Content-Type': 'text/plain' });
          return sendJson(res, result.status, result.body, headers);
        } catch (err) {
          return sendApiError(res, err, headers, log);
        }
      });
    }
    // Healthchecks' status endpoint: any method, "OK" when the database answers.
    router.all(`/api/v${version}/status/`, async (_req, res) => {
      try {
        await deps.storage.database.healthCheck();
        sendText(res, 200, 'OK');
      } catch (err) {
        log.error({ err }, 'status check failed');
        sendText(res, 503, 'database unavailable');
      }
    });
  }
}

