// A limit every instance shares: with REDIS_URL the counts live in Redis (rate-limiter-flexible's
// RateLimiterRedis, a fixed window of `limit` requests per `windowMs`), so N instances give a
// client one budget, not N. Redis is then on the limited requests' path, so it must never
// block or fail one: commands are not queued while disconnected and time out quickly, and any
// Redis error falls back to this process's own token bucket (the per-instance limits of
// before), logged once per outage. Without REDIS_URL the in-process bucket is all there is.
import { Redis } from 'ioredis';

/** The connection the shared counts live on (callers name it without importing the driver). */
export type LimitStore = Redis;
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import type { RateLimiter, RateRule, Verdict } from '../http/rate-limit.ts';

export interface Limiter {
  readonly rule: RateRule;
  /** Keys this process remembers (the fallback's, with Redis): for the bucket gauge. */
  readonly size: number;
  /** Takes one request from `key`'s budget, or says how long until one is there. */
  take(key: string): Promise<Verdict>;
  /** Gives one back (a login that succeeded is not a failure to count). */
  refund(key: string): Promise<void>;
}

export function memoryLimiter(bucket: RateLimiter): Limiter {
  return {
    rule: bucket.rule,
    get size() {
      return bucket.size;
    },
    take: async (key) => bucket.take(key),
    refund: async (key) => bucket.refund(key),
  };
}

/** How long a limited request waits for Redis before counting in memory instead. */
const COMMAND_TIMEOUT_MS = 250;

/** One Redis connection for every limit of an instance. */
export function limitStore(url: string): Redis {
  return new Redis(url, {
    connectionName: 'gateway-rate-limits',
    // Disconnected: fail at once (the request counts in memory) rather than wait in a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 6), 5000),
  });
}

export interface SharedLimiterOptions {
  redis: Redis;
  /** `<REDIS_CHANNEL_PREFIX>:limits:<scope>`: deployments on one Redis keep their counts apart. */
  keyPrefix: string;
  fallback: RateLimiter;
  log: Logger;
}

export function sharedLimiter({ redis, keyPrefix, fallback, log }: SharedLimiterOptions): Limiter {
  const rule = fallback.rule;
  const store = new RateLimiterRedis({ storeClient: redis, keyPrefix, points: rule.limit, duration: Math.max(1, Math.round(rule.windowMs / 1000)), rejectIfRedisNotReady: true });
  let degraded = false;
  const failedOver = (err: unknown) => {
    // Still making its first connection (the instance just started): not an outage to report.
    if (degraded || redis.status === 'connecting' || redis.status === 'wait') return;
    degraded = true;
    log.warn({ err, keyPrefix }, 'rate limits: redis unavailable, counting per instance until it is back');
  };
  const recovered = () => {
    if (!degraded) return;
    degraded = false;
    log.info({ keyPrefix }, 'rate limits: redis is back, budgets are shared again');
  };
  return {
    rule,
    get size() {
      return fallback.size;
    },
    async take(key) {
      try {
        await store.consume(key);
        recovered();
        return { ok: true };
      } catch (res) {
        // Refused: rate-limiter-flexible rejects with the result; anything else is Redis failing.
        if (res instanceof RateLimiterRes) {
          recovered();
          return { ok: false, retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
        }
        failedOver(res);
        return fallback.take(key);
      }
    },
    async refund(key) {
      try {
        await store.reward(key, 1);
      } catch (err) {
        failedOver(err);
        fallback.refund(key);
      }
    },
  };
}
