// PostgreSQL goes away under ping load and comes back: while it is away every ping, API and
// GraphQL request is answered 503 with Retry-After (never a 200 for a ping that was not
// stored, never a 500), the server stays up, and it serves again on its own once the database
// returns; every ping answered 200 is stored. Then it turns slow (every answer held longer than
// PG_QUERY_TIMEOUT_MS): requests are answered 503 within a bounded time instead of piling up,
// /readyz says so, and all is well again once it is quick. The database is reached through a
// TCP proxy the test cuts, restores and slows. Needs TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/postgres.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { gql } from '../helpers/gql.ts';

const admin = testPostgresUrl();

describe.skipIf(!admin)('a PostgreSQL outage', () => {
  let database: { url: string; drop(): Promise<void> };
  let proxy: TcpProxy;
  let w: World;
  beforeAll(async () => {
    database = await freshPostgresDatabase(admin!);
    const target = new URL(database.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    w = await createWorld({ DATABASE_URL: viaProxy.toString(), RATE_LIMITS: 'False', PG_QUERY_TIMEOUT_MS: '1000' });
  }, 60_000);
  afterAll(async () => {
    await w?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 with Retry-After while the database is away, and serves again when it returns, losing no acknowledged ping', async () => {
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'nightly' } });
    expect(created.status).toBe(201);
    const code = created.json.ping_url.split('/').pop() as string;
    let acknowledged = 0;
    const ping = async () => {
      const res = await w.ping(`/ping/${code}`);
      if (res.status === 200) acknowledged++;
      return res;
    };
    for (let i = 0; i < 10; i++) expect((await ping()).status).toBe(200);

    proxy.cut();
    const during = await Promise.all(Array.from({ length: 20 }, () => ping()));
    expect(during.map((r) => r.status)).toEqual(Array(20).fill(503));
    expect(during[0]!.headers.get('retry-after')).toBe('5');
    const api = await w.api('GET', '/api/v3/checks/');
    expect(api.status).toBe(503);
    expect(api.json).toEqual({ error: 'database unavailable, try again shortly' });
    const graph = await gql(w, '{ project { name } }');
    expect(graph.errors?.[0]).toMatchObject({ message: 'database unavailable, try again shortly', extensions: { code: 'UNAVAILABLE' } });

    proxy.restore();
    // Back on its own: the next pings are stored again (a few may still meet a dying connection).
    let back = false;
    for (let i = 0; i < 50 && !back; i++) {
      back = (await ping()).status === 200;
      if (!back) await new Promise((r) => setTimeout(r, 100));
    }
    expect(back).toBe(true);
    for (let i = 0; i < 10; i++) expect((await ping()).status).toBe(200);
    const stored = await w.app.db.ping.count({ where: { check: { code } } });
    expect(stored).toBe(acknowledged);
    expect((await w.api('GET', `/api/v3/checks/${code}`)).json.n_pings).toBe(acknowledged);
  }, 60_000);

  it('answers 503 within a bounded time while the database is too slow, says so on /readyz, and recovers when it is quick', async () => {
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'slow' } });
    expect(created.status).toBe(201);
    const code = created.json.ping_url.split('/').pop() as string;
    let acknowledged = 0;
    const ping = async () => {
      const res = await w.ping(`/ping/${code}`);
      if (res.status === 200) acknowledged++;
      return res;
    };
    expect((await ping()).status).toBe(200);

    // Every answer held 3 s: past the 1 s statement timeout.
    proxy.delay(3_000);
    const started = Date.now();
    const during = await Promise.all([...Array.from({ length: 20 }, () => ping()), w.api('GET', '/api/v3/checks/')]);
    const took = Date.now() - started;
    expect(during.map((r) => r.status)).toEqual(Array(21).fill(503));
    expect(during[0]!.headers.get('retry-after')).toBe('5');
    // Bounded: a statement timeout (1 s) and a wait for a connection (5 s at most), not a pile-up behind the slow answers.
    expect(took).toBeLessThan(15_000);
    const ready = await fetch(`${w.url}/readyz`);
    expect(ready.status).toBe(503);

    proxy.delay(0);
    let back = false;
    for (let i = 0; i < 100 && !back; i++) {
      back = (await ping()).status === 200;
      if (!back) await new Promise((r) => setTimeout(r, 100));
    }
    expect(back).toBe(true);
    expect((await fetch(`${w.url}/readyz`)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await ping()).status).toBe(200);
    expect(await w.app.db.ping.count({ where: { check: { code } } })).toBe(acknowledged);
  }, 60_000);
});
