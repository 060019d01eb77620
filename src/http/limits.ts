// Abuse limits at the front door, by route pattern: login attempts per account and per client
// address, Management API and GraphQL requests per credential. A refused request gets 429, a
// Retry-After in seconds and a body in its route family's error shape. Pings, badges, /healthz
// and /metrics are never limited: a cron job that pings must never be refused for its rate.
// A credential gets a budget of its own only when it is valid: an unknown key or token counts
// against the client's address, or a random header per request would be a fresh budget each.
// The client's address is the one behind a trusted proxy (client-address.ts); with REDIS_URL the
// counts are shared by every instance (src/rate-limits/redis-limiter.ts).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Clock } from '../shared/clock.ts';
import type { RateLimitSettings } from '../config/index.ts';
import { LoginRateLimitedError, LoginThrottle } from '../campus/login-throttle.ts';
import { RateLimiter, type RateRule, type Verdict } from './rate-limit.ts';
import { memoryLimiter, sharedLimiter, type Limiter, type LimitStore } from '../rate-limits/redis-limiter.ts';
import { clientOf } from './client-address.ts';
import { sendJson } from './respond.ts';

export const LIMIT_SCOPES = ['login_account', 'login_address', 'api', 'graphql'] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];

export interface AbuseLimitOptions {
  settings: RateLimitSettings;
  clock: Clock;
  onLimited(scope: LimitScope): void;
  /** The account a login request names (reads the body); null when it names none. */
  loginUsername(req: IncomingMessage): Promise<string | null>;
  /** The `api_key` of a Management API request's JSON body (Healthchecks reads it on POSTs), if any. */
  apiBodyKey(req: IncomingMessage): Promise<string | null>;
  /** Whether a credential belongs to someone: an API key of a project, a campus session token. */
  credentialValid(kind: CredentialKind, value: string): Promise<boolean>;
  /** With REDIS_URL: the counts shared by every instance, under `<keyPrefix>:<scope>`. */
  shared?: { redis: LimitStore; keyPrefix: string; log: Logger } | null;
}

export type CredentialKind = 'key' | 'token';

/** An operation's credentials as its transport found them (absent: null). */
export interface Credentials {
  apiKey: string | null;
  /** `Authorization` as sent (`Token <t>`). */
  authorization: string | null;
}

export interface AbuseLimits {
  /** Each scope's limiter (null: switched off), for the bucket gauge and tests. */
  limiters: Record<LimitScope, Limiter | null>;
  /**
   * Whether the request may go on to its handler; when not, the 429 has been sent. A limited
   * route answers asynchronously (a count may live in Redis), anything else synchronously.
   */
  admit(req: IncomingMessage, res: ServerResponse, route: string): boolean | Promise<boolean>;
  /** One GraphQL operation that did not come through admit (WebSocket), counted as a request. */
  admitOperation(credentials: Credentials, address: string | undefined): Promise<Verdict>;
  /** Login attempts, for every transport (the GraphQL mutation counts itself). */
  loginThrottle: LoginThrottle;
}

/** How long a credential found valid is trusted without asking the database again. */
const VALID_FOR_MS = 60_000;
const VALID_CACHE_MAX = 10_000;

type Family = 'healthchecks' | 'campus' | 'graphql';

const FAMILY: Record<LimitScope, Family> = { login_account: 'campus', login_address: 'campus', api: 'healthchecks', graphql: 'graphql' };

// Management API routes are registered as /api/v<n>/<path>; /api/v<n>/status/ is a health check.
const API_ROUTE = /^\/api\/v\d+\/(?!status\/$)/;

/**
 * Keys and usernames are kept hashed: no secret sits in the limiter's memory, and a long
 * value costs no more than a short one.
 */
const digest = (kind: string, value: string) => `${kind}:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;

const addressKey = (address: string | undefined) => `addr:${address ?? 'unknown'}`;

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
  const shared = options.shared ?? null;
  const make = (scope: LimitScope, rule: RateRule | null): Limiter | null => {
    if (!rule) return null;
    const bucket = new RateLimiter(rule, clock, settings.maxKeys);
    return shared ? sharedLimiter({ redis: shared.redis, keyPrefix: `${shared.keyPrefix}:${scope}`, fallback: bucket, log: shared.log }) : memoryLimiter(bucket);
  };
  const limiters: Record<LimitScope, Limiter | null> = {
    login_account: make('login_account', settings.loginAccount),
    login_address: make('login_address', settings.loginAddress),
    api: make('api', settings.api),
    graphql: make('graphql', settings.graphql),
  };

  const loginThrottle = new LoginThrottle({ account: limiters.login_account, address: limiters.login_address }, onLimited);

  /** Takes a token; on refusal answers 429 and returns false. */
  async function take(scope: LimitScope, key: string, res: ServerResponse): Promise<boolean> {
    const verdict = await limiters[scope]!.take(key);
    if (verdict.ok) return true;
    onLimited(scope);
    sendRateLimited(res, scope, verdict.retryAfter);
    return false;
  }

  async function admitLogin(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    // A body that cannot be read names no account; its handler answers 400/413/415 as usual.
    const username = limiters.login_account ? await options.loginUsername(req).catch(() => null) : null;
    try {
      const succeeded = await loginThrottle.attempt(clientOf(req).address ?? 'unknown', username);
      res.once('finish', () => {
        if (res.statusCode === 200) succeeded();
      });
      return true;
    } catch (err) {
      if (!(err instanceof LoginRateLimitedError)) throw err;
      sendRateLimited(res, err.scope, err.retryAfter);
      return false;
    }
  }

  // Digests of credentials found valid, and until when (least recently checked first).
  const valid = new Map<string, number>();
  async function isValid(kind: CredentialKind, value: string, bucketKey: string): Promise<boolean> {
    const now = clock.now().getTime();
    const until = valid.get(bucketKey);
    if (until !== undefined && until > now) return true;
    valid.delete(bucketKey);
    if (!(await options.credentialValid(kind, value).catch(() => false))) return false;
    valid.set(bucketKey, now + VALID_FOR_MS);
    if (valid.size > VALID_CACHE_MAX) valid.delete(valid.keys().next().value as string);
    return true;
  }

  /** The bucket a request goes to: its first valid credential's, else its address's. */
  async function bucketOf(candidates: Array<[CredentialKind, string | null]>, address: string | undefined): Promise<string> {
    for (const [kind, value] of candidates) {
      if (!value) continue;
      const key = digest(kind, value);
      if (await isValid(kind, value, key)) return key;
    }
    return addressKey(address);
  }

  async function admitKeyed(scope: 'api' | 'graphql', req: IncomingMessage, res: ServerResponse, candidates: Array<[CredentialKind, string | null]>): Promise<boolean> {
    return take(scope, await bucketOf(candidates, clientOf(req).address), res);
  }

  async function admitApi(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    // Healthchecks also takes the key from a POST's JSON body: it counts as the header would.
    const key = header(req, 'x-api-key') ?? (req.method === 'POST' ? await options.apiBodyKey(req).catch(() => null) : null);
    return admitKeyed('api', req, res, [['key', key]]);
  }

  const graphqlCandidates = (c: Credentials): Array<[CredentialKind, string | null]> => [
    ['key', c.apiKey],
    ['token', c.authorization],
  ];

  return {
    limiters,
    loginThrottle,
    admit(req, res, route) {
      // CORS preflights carry no key and do no work.
      if (req.method === 'OPTIONS') return true;
      if (route === '/login') return req.method === 'POST' ? admitLogin(req, res) : true;
      if (limiters.api && API_ROUTE.test(route)) return admitApi(req, res);
      if (limiters.graphql && (route === '/graphql' || route === '/graphql/')) {
        return admitKeyed('graphql', req, res, graphqlCandidates({ apiKey: header(req, 'x-api-key'), authorization: header(req, 'authorization') }));
      }
      return true;
    },
    async admitOperation(credentials, address) {
      const limiter = limiters.graphql;
      if (!limiter) return { ok: true };
      const verdict = await limiter.take(await bucketOf(graphqlCandidates(credentials), address));
      if (!verdict.ok) onLimited('graphql');
      return verdict;
    },
  };
}
