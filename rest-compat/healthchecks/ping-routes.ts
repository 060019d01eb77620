// The Ping API: /ping/<uuid>[/start|/fail|/log|/<exit status>] and
// /ping/<ping_key>/<slug>[/...], any HTTP method, answered as Healthchecks answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringServices } from '../../src/monitoring/services.ts';
import { hashKey } from '../../src/monitoring/projects/keys.ts';
import { pingByCode, pingBySlug, type PingRequest, type PingSignal } from '../../src/monitoring/pings/service.ts';
import { DomainError } from '../../src/shared/errors.ts';
import { BodyTooLarge, neverCache, readBody, sendText } from '../../src/http/respond.ts';
import { lastParam } from './query.ts';
import { clientOf } from '../../src/http/client-address.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from '../../src/db/unavailable.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SLUG = /^[-a-zA-Z0-9_]+$/;
const SIGNALS = new Set(['start', 'fail', 'log']);
// Django refuses request bodies over 2.5 MB unless PING_BODY_LIMIT is larger.
const DEFAULT_MAX_BODY = 2.5 * 1024 * 1024;

type Target = { code: string } | { pingKey: string; slug: string };
interface Parsed {
  target: Target;
  signal: PingSignal;
  exitStatus?: number;
}

/** Maps path segments after /ping/ to a target and signal; null means "no such route". */
export function parsePingPath(segments: string[]): Parsed | null {
  const [a, b, c, ...rest] = segments;
  if (rest.length || !a) return null;
  const signalOf = (s: string): Pick<Parsed, 'signal' | 'exitStatus'> | null => {
    if (SIGNALS.has(s)) return { signal: s as PingSignal };
    if (/^\d+$/.test(s)) return { signal: 'success', exitStatus: Number(s) };
    return null;
  };
  if (b === undefined || (b === '' && c === undefined)) {
    return UUID.test(a) ? { target: { code: a }, signal: 'success' } : null;
  }
  if (c === undefined && UUID.test(a)) {
    const sig = signalOf(b);
    if (sig) return { target: { code: a }, ...sig };
  }
  if (!SLUG.test(b)) return null;
  if (c === undefined) return { target: { pingKey: a, slug: b }, signal: 'success' };
  const sig = signalOf(c);
  return sig ? { target: { pingKey: a, slug: b }, ...sig } : null;
}

/**
 * The client's address, port stripped. Healthchecks stores X-Forwarded-For's first entry from
 * anyone; here it is believed only from TRUSTED_PROXIES, and walked from the right, so a
 * client cannot write someone else's address into the ping log (src/http/client-address.ts).
 */
export function remoteAddress(req: IncomingMessage): string | null {
  return clientOf(req).address ?? null;
}

const NO_QUERY: URLSearchParams = new URLSearchParams();

/**
 * The query string's parameters (up to a `#`, as URL parsing would cut it): most pings have
 * none, and are spared parsing a whole URL for it (`new URL` was 2% of the server's CPU in a
 * profile of the ping benchmark; 0.7-0.9 µs a ping against 0.03 µs here).
 */
export function queryOf(url = '/'): URLSearchParams {
  const start = url.indexOf('?');
  if (start < 0) return NO_QUERY;
  const end = url.indexOf('#', start);
  return new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end));
}

export function registerPingRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringServices, log: Logger) {
  const okHeaders: Record<string, string> = { 'Access-Control-Allow-Origin': '*', ...neverCache };
  if (deps.settings.pingBodyLimit !== null) okHeaders['Ping-Body-Limit'] = String(deps.settings.pingBodyLimit);
  const maxBody = Math.max(DEFAULT_MAX_BODY, deps.settings.pingBodyLimit ?? 0);

  async function handle(req: IncomingMessage, res: ServerResponse, path: string) {
    const parsed = parsePingPath(path.split('/'));
    if (!parsed) return sendText(res, 404, 'not found');
    try {
      let body: Buffer;
      try {
        body = await readBody(req, maxBody);
      } catch (e) {
        if (e instanceof BodyTooLarge) return sendText(res, 400, 'request body too large');
        throw e;
      }
      const query = queryOf(req.url);
      const rid = lastParam(query, 'rid');
      const request: PingRequest = {
        signal: parsed.signal,
        exitStatus: parsed.exitStatus,
        rid: rid ?? undefined,
        method: req.method ?? 'GET',
        // X-Forwarded-Proto only from a trusted proxy, as Django's SECURE_PROXY_SSL_HEADER.
        scheme: clientOf(req).scheme,
        remoteAddr: remoteAddress(req),
        ua: req.headers['user-agent'] ?? '',
        body,
      };
      if ('code' in parsed.target) {
        await pingByCode(deps, parsed.target.code, request);
        return sendText(res, 200, 'OK', okHeaders);
      }
      const create = lastParam(query, 'create') === '1';
      const { created } = await pingBySlug(deps, hashKey(parsed.target.pingKey), parsed.target.slug, request, create);
      return created ? sendText(res, 201, 'Created', okHeaders) : sendText(res, 200, 'OK', okHeaders);
    } catch (err) {
      if (err instanceof DomainError) {
        const status = { VALIDATION: 400, NOT_FOUND: 404, CONFLICT: 409, FORBIDDEN: 403, UNAUTHENTICATED: 401 }[err.code];
        // The uuid route's view is @never_cache, its refusals included; the slug route's are plain.
        return sendText(res, status, err.message, 'code' in parsed.target ? neverCache : undefined);
      }
      // The database is away (restarting, disk full): not stored, so not OK; the sender retries.
      if (isDatabaseUnavailable(err)) {
        log.warn({ err }, 'ping refused: database unavailable');
        return sendText(res, 503, 'database unavailable, try again shortly', { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) });
      }
      log.error({ err }, 'ping failed');
      return sendText(res, 500, 'internal server error');
    }
  }

  router.all('/ping/*', (req, res, params) => handle(req, res, params['*'] ?? ''));
}
