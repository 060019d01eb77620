// PostgreSQL goes away under ping load and comes back: while it is away every ping, API and
// GraphQL request is answered 503 with Retry-After (never a 200 for a ping that was not
// stored, never a 500), the server stays up, and it serves again on its own once the database
// returns; every ping answered 200 is stored. The database is reached through a TCP proxy the
// test cuts and restores. Needs TEST_DATABASE_URL.
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
    w = await createWorld({ DATABASE_URL: viaProxy.toString(), RATE_LIMITS: 'False' });
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
});
