// /readyz (readiness) beside /healthz (liveness): 200 with every check ok; 503 with Retry-After
// and the failing checks named when the database is away, a migration is pending, or Redis
// (configured) is down.
import { rmSync } from 'node:fs';
import net from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import { providerOf } from '../../src/db/provider.ts';
import { createReadinessProbe } from '../../src/http/readiness.ts';
import { createWorld, type World } from '../helpers/world.ts';
import { freshPostgresDatabase, postgresUnderTest } from '../helpers/postgres.ts';
import { freePort, privateRedis, SKIPPED, testRedisUrl, uniqueNamespace, waitFor } from '../helpers/redis.ts';

const silent = pino({ level: 'silent' });
let worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.map((w) => w.stop()));
  worlds = [];
});
async function world(env: Record<string, string> = {}, options: Parameters<typeof createWorld>[1] = {}) {
  const w = await createWorld(env, options);
  worlds.push(w);
  return w;
}
async function readyz(w: World) {
  const res = await fetch(`${w.url}/readyz`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), type: res.headers.get('content-type'), body: (await res.json()) as any };
}

describe('/readyz', () => {
  it('is 200 with every check ok on a migrated database without Redis', async () => {
    const w = await world();
    const r = await readyz(w);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.retryAfter).toBeNull();
    expect(r.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  });

  it('is 503 with Retry-After naming the migration when one is not applied', async () => {
    const w = await world();
    // The test's own database: the newest migration's row removed, as if it had not run.
    const [last] = await w.app.db.$queryRaw<Array<{ migration_name: string }>>`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await w.app.db.$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = ${last!.migration_name}`;
    const r = await readyz(w);
    expect(r.status).toBe(503);
    expect(r.retryAfter).toBe('5');
    expect(r.body).toEqual({ status: 'not ready', failing: ['migrations'], checks: { database: 'ok', migrations: `pending: ${last!.migration_name}` } });
    // Liveness is another question: the process is fine.
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
  });

  it('is 503 when the database is gone (the SQLite file removed)', async (ctx) => {
    const w = await world();
    if (providerOf(w.databaseUrl) !== 'sqlite') return ctx.skip();
    const file = sqliteFilePath(w.databaseUrl);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    const r = await readyz(w);
    expect(r.status).toBe(503);
    expect(r.retryAfter).toBe('5');
    // Gone, or already recreated empty by the server's own open connections (the WAL checkpoint
    // worker runs every second): either way not this gateway's database any more.
    expect(r.body.status).toBe('not ready');
    expect([
      { failing: ['database', 'migrations'], checks: { database: 'missing', migrations: 'unknown' } },
      { failing: ['migrations'], checks: { database: 'ok', migrations: 'none applied' } },
    ]).toContainEqual({ failing: r.body.failing, checks: r.body.checks });
  });

  // PostgreSQL's equivalent: the database reached through a forwarder that then stops accepting
  // (the server's own pooled connections stay open, as when a database refuses new ones).
  it.skipIf(!postgresUnderTest())('is 503 when the PostgreSQL server stops accepting connections', async () => {
    const database = await freshPostgresDatabase();
    const target = new URL(database.url);
    const sockets = new Set<net.Socket>();
    const forwarder = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    const via = new URL(database.url);
    via.hostname = '127.0.0.1';
    via.port = String((forwarder.address() as net.AddressInfo).port);
    const w = await createWorld({ DATABASE_URL: via.toString() });
    try {
      expect((await readyz(w)).status).toBe(200);
      // Stops listening at once; the callback would wait for the pooled connections to end.
      forwarder.close();
      const r = await readyz(w);
      expect(r.status).toBe(503);
      expect(r.retryAfter).toBe('5');
      expect(r.body).toEqual({ status: 'not ready', failing: ['database', 'migrations'], checks: { database: 'unreachable', migrations: 'unknown' } });
    } finally {
      await w.stop();
      for (const s of sockets) s.destroy();
      await database.drop();
    }
  });

  it('is 503 with Redis configured but down, and the body says so', async () => {
    const port = await freePort();
    const w = await world({ REDIS_URL: `redis://127.0.0.1:${port}` }, { eventFanout: { namespace: uniqueNamespace(), retryMinMs: 50, retryMaxMs: 100 } });
    const r = await readyz(w);
    expect(r.status).toBe(503);
    expect(r.retryAfter).toBe('5');
    expect(r.body).toEqual({ status: 'not ready', failing: ['redis'], checks: { database: 'ok', migrations: 'ok', redis: 'unreachable' } });
    // Liveness stays 200 (degraded fan-out is not a reason to restart).
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
  });

  // Gated like the other Redis tests: TEST_REDIS_URL says this machine runs redis-server.
  it.skipIf(!testRedisUrl())(`follows Redis: 200 while up, 503 while down, 200 once back${testRedisUrl() ? '' : SKIPPED}`, async () => {
    const redis = privateRedis(await freePort());
    await redis.start();
    try {
      const w = await world({ REDIS_URL: redis.url }, { eventFanout: { namespace: uniqueNamespace(), retryMinMs: 20, retryMaxMs: 50 } });
      await waitFor('ready', async () => (await readyz(w)).status === 200);
      expect((await readyz(w)).body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', redis: 'ok' } });
      await redis.stop();
      await waitFor('not ready', async () => (await readyz(w)).status === 503);
      expect((await readyz(w)).body).toMatchObject({ failing: ['redis'], checks: { redis: 'unreachable' } });
      await redis.start();
      await waitFor('ready again', async () => (await readyz(w)).status === 200);
    } finally {
      await redis.stop();
    }
  });
});

describe('the readiness probe', () => {
  it('finds a PostgreSQL database on a closed port unreachable', async () => {
    const port = await freePort();
    const probe = createReadinessProbe({ databaseUrl: `postgresql://postgres@127.0.0.1:${port}/gateway`, redisUp: null, log: silent });
    expect(await probe()).toEqual({ ready: false, failing: ['database', 'migrations'], checks: { database: 'unreachable', migrations: 'unknown' } });
  });

  it('gives up on a database that accepts the connection but never answers', async () => {
    const sockets = new Set<net.Socket>();
    const silentServer = net.createServer((s) => sockets.add(s));
    await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silentServer.address() as net.AddressInfo;
      const probe = createReadinessProbe({ databaseUrl: `postgresql://postgres@127.0.0.1:${port}/gateway`, redisUp: null, log: silent, timeoutMs: 200 });
      const started = performance.now();
      const [a, b] = await Promise.all([probe(), probe()]);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(a.checks.database).toBe('unreachable');
      // Concurrent probes share one look: one connection, one answer.
      expect(b).toBe(a);
      expect(sockets.size).toBe(1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silentServer.close(resolve));
    }
  });
});
