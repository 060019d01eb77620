// A token bucket per key, in memory, on the injected clock (Healthchecks' TokenBucket model:
// `limit` tokens that refill evenly over `windowMs`, so a burst of `limit` is allowed and the
// sustained rate is limit/window). Each process keeps its own counts: the whole story without
// REDIS_URL, and the fallback with it while Redis is away (src/rate-limits/redis-limiter.ts).
import type { Clock } from '../shared/clock.ts';

export interface RateRule {
  /** Requests allowed in a burst, and per window on average. */
  limit: number;
  windowMs: number;
}

export type Verdict = { ok: true } | { ok: false; /** whole seconds until one request is allowed again (>= 1) */ retryAfter: number };

interface Bucket {
  tokens: number;
  at: number;
}

/** How many of the least recently used buckets each call looks at for eviction. */
const SWEEP_PER_CALL = 2;

export class RateLimiter {
  // Map order is least recently used first: every use re-inserts its key at the end.
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly rule: RateRule,
    private readonly clock: Clock,
    /** Memory bound: past it the least recently used buckets go, full or not. */
    readonly maxBuckets = 50_000,
  ) {
    this.perMs = rule.limit / rule.windowMs;
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Takes one token for `key`, or says how long until one is there. */
  take(key: string): Verdict {
    const now = this.clock.now().getTime();
    this.sweep(now);
    const bucket = this.refilled(key, now);
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.bound();
      return { ok: true };
    }
    return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) };
  }

  /** Gives a token back (a login that succeeded is not a failure to count). */
  refund(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.rule.limit, bucket.tokens + 1);
  }

  private refilled(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: this.rule.limit, at: now };
    // A clock set backwards refills nothing rather than draining the bucket.
    const elapsed = Math.max(0, now - bucket.at);
    return { tokens: Math.min(this.rule.limit, bucket.tokens + elapsed * this.perMs), at: now };
  }

  /** A bucket that has refilled completely is the same as no bucket: forget it. */
  private isIdle(bucket: Bucket, now: number): boolean {
    return bucket.tokens + (now - bucket.at) * this.perMs >= this.rule.limit;
  }

  /** Incremental eviction: a few of the least recently used buckets per call, if idle. */
  private sweep(now: number): void {
    let looked = 0;
    for (const [key, bucket] of this.buckets) {
      if (looked++ >= SWEEP_PER_CALL || !this.isIdle(bucket, now)) break;
      this.buckets.delete(key);
    }
  }

  /** The hard bound: under a flood of distinct keys the least recently used go first. */
  private bound(): void {
    while (this.buckets.size > this.maxBuckets) {
      const oldest = this.buckets.keys().next().value as string;
      this.buckets.delete(oldest);
    }
  }
}
