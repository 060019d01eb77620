// Rate limits shared through Redis: two gateways on one database and one Redis give a key one
// budget, not one each. With Redis unreachable, or gone mid-way, requests are still served and
// each instance counts in its own memory again.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createWorld, type World } from '../helpers/world.ts';
import { freePort, privateRedis, SKIPPED, testRedisUrl, uniqueNamespace, waitFor, type PrivateRedis } from '../helpers/redis.ts';

const url = testRedisUrl();
const worlds: World[] = [];
const servers: PrivateRedis[] = [];
afterEach(async () => {
  // The second instance first: the first owns the database.
  for (const w of worlds.splice(0).reverse()) await w.stop();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function world(env: Record<string, string>) {
  const w = await createWorld({ RATE_LIMIT_API: '5/1m', ...env });
  worlds.push(w);
  return w;
}

/**
 * Waits until `w` counts in Redis: a request made while its connection is still opening counts
 * in memory (by design), which would make the budgets below off by one. Bob's key is the probe.
 */
async function countingInRedis(w: World, redisUrl: string, prefix: string, ms = 5000) {
  const redis = new Redis(redisUrl);
  const pattern = `${prefix}:limits:api:*`;
  try {
    await waitFor('limits counted in Redis', async () => {
      await checks(w, w.bob.api_key);
      return (await redis.keys(pattern)).length > 0;
    }, ms);
    // The probe's count goes: Bob's budget starts whole.
    await redis.del(...(await redis.keys(pattern)));
  } finally {
    redis.disconnect();
  }
}

const checks = (w: World, key: string) => w.api('GET', '/api/v3/checks/', { key });
const statuses = async (w: World, key: string, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await checks(w, key)).status);
  return out;
};

describe.skipIf(!url)(`rate limits shared by two gateways${url ? '' : SKIPPED}`, () => {
  it('gives a key one budget across both instances: 3 on A and 2 on B spend it, then both answer 429', async () => {
    const prefix = uniqueNamespace();
    const a = await world({ REDIS_URL: url!, REDIS_CHANNEL_PREFIX: prefix });
    const b = await world({ REDIS_URL: url!, REDIS_CHANNEL_PREFIX: prefix, DATABASE_URL: a.databaseUrl });
    await countingInRedis(a, url!, prefix);
    await countingInRedis(b, url!, prefix);
    const key = a.alice.api_key;
    expect(await statuses(a, key, 3)).toEqual([200, 200, 200]);
    expect(await statuses(b, key, 2)).toEqual([200, 200]);
    for (const w of [a, b]) {
      const refused = await checks(w, key);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.json.error).toBe(`rate limit exceeded, try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`);
    }
    // Another project's key has its own budget.
    expect(await statuses(b, a.bob.api_key, 1)).toEqual([200]);
  });

  it('shares the login limits too: failed logins for one account on A and B add up', async () => {
    const prefix = uniqueNamespace();
    const env = { REDIS_URL: url!, REDIS_CHANNEL_PREFIX: prefix, RATE_LIMIT_LOGIN_ACCOUNT: '3/1h' };
    const a = await world(env);
    const b = await world({ ...env, DATABASE_URL: a.databaseUrl });
    await countingInRedis(a, url!, prefix);
    await countingInRedis(b, url!, prefix);
    const login = (w: World) => w.campus('POST', '/login', { fields: { '_LOGIN[username]': 'nobody', '_LOGIN[password]': 'guess' } });
    expect([(await login(a)).status, (await login(b)).status, (await login(a)).status]).toEqual([401, 401, 401]);
    const refused = await login(b);
    expect(refused.status).toBe(429);
    expect(refused.json.message).toMatch(/^Too many login attempts, try again in \d+ seconds?$/);
  });

  it('keeps deployments with different REDIS_CHANNEL_PREFIX apart', async () => {
    const [first, second] = [uniqueNamespace(), uniqueNamespace()];
    const a = await world({ REDIS_URL: url!, REDIS_CHANNEL_PREFIX: first });
    const b = await world({ REDIS_URL: url!, REDIS_CHANNEL_PREFIX: second, DATABASE_URL: a.databaseUrl });
    await countingInRedis(a, url!, first);
    await countingInRedis(b, url!, second);
    expect(await statuses(a, a.alice.api_key, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await statuses(b, a.alice.api_key, 1)).toEqual([200]);
  });

  it('keeps serving when Redis goes away, counting per instance, and shares again when it is back', async () => {
    const redis = privateRedis(await freePort());
    servers.push(redis);
    await redis.start();
    const prefix = uniqueNamespace();
    const a = await world({ REDIS_URL: redis.url, REDIS_CHANNEL_PREFIX: prefix });
    await countingInRedis(a, redis.url, prefix);
    const key = a.alice.api_key;
    expect(await statuses(a, key, 2)).toEqual([200, 200]);
    await redis.stop();
    // The in-memory bucket has not counted the two Redis took: five more, then its own 429.
    expect(await statuses(a, key, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    // Back (empty: nothing is saved): the count is Redis's again, and the key has a whole budget.
    await redis.start();
    await countingInRedis(a, redis.url, prefix, 10_000);
    expect(await statuses(a, key, 1)).toEqual([200]);
  });
});

describe('rate limits with REDIS_URL pointing nowhere', () => {
  it('serves requests and still limits, in memory', async () => {
    const a = await world({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const started = performance.now();
    expect(await statuses(a, a.alice.api_key, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    // Nothing waits for a connection that is not there.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
