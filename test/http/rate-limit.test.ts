// The token bucket on a ManualClock: burst, refill, Retry-After, refunds, and bounded memory.
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/http/rate-limit.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { loadConfig } from '../../src/config/index.ts';

const T0 = new Date('2026-01-05T10:00:00Z');

describe('RateLimiter', () => {
  it('allows a burst of `limit`, then refuses with the seconds until the next token', () => {
    const clock = new ManualClock(T0);
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 }, clock);
    expect([1, 2, 3].map(() => limiter.take('k').ok)).toEqual([true, true, true]);
    // One token every 20 s.
    expect(limiter.take('k')).toEqual({ ok: false, retryAfter: 20 });
    clock.advance(19_001);
    expect(limiter.take('k')).toEqual({ ok: false, retryAfter: 1 });
    clock.advance(999);
    expect(limiter.take('k')).toEqual({ ok: true });
    // Another key has its own bucket.
    expect(limiter.take('other').ok).toBe(true);
  });

  it('refills at most to the limit, and a refund gives a token back', () => {
    const clock = new ManualClock(T0);
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000 }, clock);
    limiter.take('k');
    clock.advance(3_600_000);
    expect([limiter.take('k').ok, limiter.take('k').ok, limiter.take('k').ok]).toEqual([true, true, false]);
    limiter.refund('k');
    expect(limiter.take('k').ok).toBe(true);
  });

  it('forgets idle buckets as traffic goes on, and never keeps more than maxBuckets', () => {
    const clock = new ManualClock(T0);
    const limiter = new RateLimiter({ limit: 5, windowMs: 1_000 }, clock, 100);
    for (let i = 0; i < 50; i++) limiter.take(`a${i}`);
    expect(limiter.size).toBe(50);
    clock.advance(1_000);
    // Each call sweeps a couple of the oldest, now full again.
    for (let i = 0; i < 30; i++) limiter.take('busy');
    expect(limiter.size).toBe(1);
    for (let i = 0; i < 1_000; i++) limiter.take(`flood${i}`);
    expect(limiter.size).toBe(100);
  });

  it('does not drain a bucket when the clock goes backwards', () => {
    const clock = new ManualClock(T0);
    const limiter = new RateLimiter({ limit: 1, windowMs: 1_000 }, clock);
    limiter.take('k');
    clock.advance(-10_000);
    expect(limiter.take('k')).toEqual({ ok: false, retryAfter: 1 });
  });
});

describe('rate limit settings', () => {
  it('has generous defaults and reads "<n>/<window>" with units or off', () => {
    const c = loadConfig({});
    expect(c.rateLimits).toMatchObject({
      loginAccount: { limit: 20, windowMs: 3_600_000 },
      loginAddress: { limit: 100, windowMs: 600_000 },
      api: { limit: 1000, windowMs: 60_000 },
      graphql: { limit: 1000, windowMs: 60_000 },
      maxKeys: 50_000,
    });
    const d = loadConfig({ RATE_LIMIT_API: '50/30', RATE_LIMIT_GRAPHQL: 'off', RATE_LIMIT_LOGIN_ACCOUNT: '5/2h' });
    expect(d.rateLimits.api).toEqual({ limit: 50, windowMs: 30_000 });
    expect(d.rateLimits.graphql).toBeNull();
    expect(d.rateLimits.loginAccount).toEqual({ limit: 5, windowMs: 7_200_000 });
    expect(Object.values(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).filter((v) => v !== null)).toEqual([50_000]);
    expect(() => loadConfig({ RATE_LIMIT_API: 'lots' })).toThrow(/RATE_LIMIT_API/);
    expect(() => loadConfig({ RATE_LIMIT_API: '10/0' })).toThrow(/RATE_LIMIT_API/);
  });

  it('defaults access log and compression on, and /metrics open', () => {
    const c = loadConfig({});
    expect([c.accessLog, c.compressionMinBytes, c.metricsKey]).toEqual([true, 1024, null]);
    const d = loadConfig({ ACCESS_LOG: 'off', COMPRESSION: 'off', METRICS_KEY: 's3cret' });
    expect([d.accessLog, d.compressionMinBytes, d.metricsKey]).toEqual([false, null, 's3cret']);
  });
});
