// Abuse limits at the front door, by route pattern: login attempts per account and per client
// address, Management API and GraphQL requests per key. A refused request gets 429, a
// Retry-After in seconds and a body in its route family's error shape. Pings, badges, /healthz
// and /metrics are never limited: a cron job that pings must never be refused for its rate.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../shared/clock.ts';
import type { RateLimitSettings } from '../config.ts';
import { RateLimiter, type RateRule } from './rate-limit.ts';
import { sendJson } from './respond.ts';

export const LIMIT_SCOPES = ['login_account', 'login_address', 'api', 'graphql'] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];

export interface AbuseLimitOptions {
  settings: RateLimitSettings;
  clock: Clock;
  onLimited(scope: LimitScope): void;
  /** The account a login request names (reads the body); null when it names none. */
  loginUsername(req: IncomingMessage): Promise<string | null>;
}

export interface AbuseLimits {
  /** Each scope's limiter (null: switched off), for the bucket gauge and tests. */
  limiters: Record<LimitScope, RateLimiter | null>;
  /**
   * Whether the request may go on to its handler; when not, the 429 has been sent. A login
   * answers asynchronously (its body names the account), anything else synchronously.
   */
  admit(req: IncomingMessage, res: ServerResponse, route: string): boolean | Promise<boolean>;
}

type Family = 'healthchecks' | 'campus' | 'graphql';

const FAMILY: Record<LimitScope, Family> = { login_account: 'campus', login_address: 'campus', api: 'healthchecks', graphql: 'graphql' };

// Management API routes are registered as /api/v<n>/<path>; /api/v<n>/status/ is a health check.
const API_ROUTE = /^\/api\/v\d+\/(?!status\/$)/;

/**
 * Keys and usernames are kept hashed: no secret sits in the limiter's memory, and a long
 * value costs no more than a short one.
 */
const digest = (kind: string, value: string) => `${kind}:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;

const addressOf = (req: IncomingMessage) => `addr:${req.socket.remoteAddress ?? 'unknown'}`;

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function sendRateLimited(res: ServerResponse, scope: LimitScope, retryAfter: number) {
  const headers = { 'Retry-After': String(retryAfter) };
  const wait = `try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`;
  switch (FAMILY[scope]) {
    case 'healthchecks':
      return sendJson(res, 429, { error: `rate limit exceeded, ${wait}` }, headers);
    case 'campus':
      return sendJson(res, 429, { success: false, message: `Too many login attempts, ${wait}` }, headers);
    case 'graphql':
      return sendJson(res, 429, { errors: [{ message: `Too many requests, ${wait}`, extensions: { code: 'RATE_LIMITED', retryAfter } }] }, headers);
  }
}

export function createAbuseLimits(options: AbuseLimitOptions): AbuseLimits {
  const { settings, clock, onLimited } = options;
  const make = (rule: RateRule | null) => (rule ? new RateLimiter(rule, clock, settings.maxKeys) : null);
  const limiters: Record<LimitScope, RateLimiter | null> = {
    login_account: make(settings.loginAccount),
    login_address: make(settings.loginAddress),
    api: make(settings.api),
    graphql: make(settings.graphql),
  };

  /** Takes a token; on refusal answers 429 and returns false. */
  function take(scope: LimitScope, key: string, res: ServerResponse): boolean {
    const verdict = limiters[scope]!.take(key);
    if (verdict.ok) return true;
    onLimited(scope);
    sendRateLimited(res, scope, verdict.retryAfter);
    return false;
  }

  async function admitLogin(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (limiters.login_address && !take('login_address', addressOf(req), res)) return false;
    const account = limiters.login_account;
    if (!account) return true;
    // A body that cannot be read names no account; its handler answers 400/413/415 as usual.
    const username = await options.loginUsername(req).catch(() => null);
    if (!username) return true;
    // Usernames differing only in case share a budget: the stricter reading.
    const key = digest('user', username.toLowerCase());
    if (!take('login_account', key, res)) return false;
    // Every attempt takes a token up front (concurrent guesses cannot slip past the count);
    // a successful login gives it back, so only failures add up.
    res.once('finish', () => {
      if (res.statusCode === 200) account.refund(key);
    });
    return true;
  }

  return {
    limiters,
    admit(req, res, route) {
      // CORS preflights carry no key and do no work.
      if (req.method === 'OPTIONS') return true;
      if (route === '/login') return req.method === 'POST' ? admitLogin(req, res) : true;
      if (limiters.api && API_ROUTE.test(route)) {
        const key = header(req, 'x-api-key');
        return take('api', key ? digest('key', key) : addressOf(req), res);
      }
      if (limiters.graphql && (route === '/graphql' || route === '/graphql/')) {
        const key = header(req, 'x-api-key');
        const token = header(req, 'authorization');
        return take('graphql', key ? digest('key', key) : token ? digest('token', token) : addressOf(req), res);
      }
      return true;
    },
  };
}
