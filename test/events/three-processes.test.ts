// Three gateway processes on one PostgreSQL database and one Redis, each running its monitor,
// as three instances behind a load balancer run: a flip caused through one reaches a
// subscriber on every one, once; 100 checks going down together are each flipped once, by
// whichever monitor claimed them; after one instance is killed (SIGKILL) the other two flip
// the rest on time. Checks are made due by writing their going-down time (alertAfter, what the
// monitors read) a moment ahead of the real clock the processes run on.
import pg from 'pg';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, testPostgresUrl, testPool } from '../helpers/postgres.ts';
import { testRedisUrl, uniqueNamespace, waitFor } from '../helpers/redis.ts';
import { openDb } from '../../src/db/client.ts';
import { createProject } from '../../src/monitoring/projects/service.ts';
import { bundleServer, counterSum, startGatewayProcess, type GatewayProcess, type ServerBundle } from '../helpers/gateway-process.ts';

const admin = testPostgresUrl();
const redisUrl = testRedisUrl();
const missing = [!admin && 'TEST_DATABASE_URL', !redisUrl && 'TEST_REDIS_URL'].filter(Boolean);
const SKIPPED = missing.length ? ` (skipped: ${missing.join(' and ')} not set)` : '';

// In the DATABASE_URL the processes get; PostgreSQL here trusts local connections, so any
// password connects, and none may appear in what the processes print.
const SECRET = 'three-processes-Secret-9f2c';
// From the going-down time to the event at a subscriber (about 0.5 s idle, 2.5 s seen with the
// machine's load at 15 on 2 cores): what it tells apart is "not waiting for a dead instance".
const ON_TIME_MS = 8_000;
const LEAD_MS = 1_500;
const WAIT_MS = 30_000;

interface Received {
  name: string;
  oldStatus: string;
  newStatus: string;
  reason: string;
  timestamp: string;
  /** When this subscriber got it (Date.now()). */
  at: number;
}

interface Instance {
  name: string;
  process: GatewayProcess;
  client: Client;
  flips: Received[];
}

const FLIPS = 'subscription { flips { oldStatus newStatus reason timestamp check { name } } }';

describe.skipIf(missing.length > 0)(`three gateway processes on one PostgreSQL database and one Redis${SKIPPED}`, () => {
  let bundle: ServerBundle;
  let database: { url: string; drop(): Promise<void> };
  let databaseUrl: string;
  let sql: pg.Pool;
  let redisTap: Redis;
  const tapped: string[] = [];
  const prefix = uniqueNamespace();
  let project: { id: string; api_key: string };
  const instances: Instance[] = [];
  const a = () => instances[0]!;
  const b = () => instances[1]!;
  const c = () => instances[2]!;

  beforeAll(async () => {
    [bundle, database] = await Promise.all([bundleServer(), freshPostgresDatabase(admin!)]);
    const withSecret = new URL(database.url);
    withSecret.password = SECRET;
    databaseUrl = withSecret.toString();
    sql = testPool({ connectionString: database.url, max: 2 });
    // A plain Redis client on the channels the prefix names: the events really cross Redis there.
    redisTap = new Redis(redisUrl!);
    redisTap.on('message', (channel: string) => tapped.push(channel));
    await redisTap.subscribe(`${prefix}:flip`);

    const opened = openDb(database.url);
    try {
      project = await createProject(opened.db, { name: 'Three' });
    } finally {
      await opened.db.$disconnect();
      await opened.pool?.end();
    }

    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl!,
      REDIS_CHANNEL_PREFIX: prefix,
      MONITOR_INTERVAL_MS: '100',
      PG_POOL_SIZE: '4',
      RATE_LIMITS: 'off',
      ACCESS_LOG: 'off',
      NOTIFIER: 'on',
    };
    const processes = await Promise.all(['A', 'B', 'C'].map(() => startGatewayProcess(bundle, env)));
    for (const [i, p] of processes.entries()) {
      const inst: Instance = { name: 'ABC'[i]!, process: p, client: null as unknown as Client, flips: [] };
      await waitFor(`fan-out up on ${inst.name}`, async () => (await (await fetch(`${p.url}/healthz`)).text()) === 'OK', WAIT_MS);
      inst.client = createClient({
        url: `${p.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'X-Api-Key': project.api_key },
        retryAttempts: 0,
      });
      inst.client.subscribe(
        { query: FLIPS },
        {
          next: (result) => {
            const f = (result.data as { flips: Omit<Received, 'name' | 'at'> & { check: { name: string } } } | undefined)?.flips;
            if (!f) throw new Error(`subscription error on ${inst.name}: ${JSON.stringify(result.errors)}`);
            inst.flips.push({ name: f.check.name, oldStatus: f.oldStatus, newStatus: f.newStatus, reason: f.reason, timestamp: f.timestamp, at: Date.now() });
          },
          error: () => {},
          complete: () => {},
        },
      );
      instances.push(inst);
    }
    // Subscribed (not only connected) on every instance before anything happens.
    for (const inst of instances) {
      await waitFor(`the subscription on ${inst.name}`, async () => (await counterSum(inst.process.url, 'gateway_subscriptions_active')) === 1, WAIT_MS);
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.client?.dispose()));
    await Promise.all(instances.map((i) => i.process.stop()));
    await redisTap?.quit();
    await sql?.end();
    await database?.drop();
    bundle?.remove();
  }, 60_000);

  const api = async (inst: Instance, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${inst.process.url}${path}`, {
      method,
      headers: { 'X-Api-Key': project.api_key, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.json();
  };
  const ping = async (inst: Instance, path: string) => {
    const res = await fetch(`${inst.process.url}${path}`);
    expect(await res.text()).toBe('OK');
  };
  const named = (inst: Instance, prefixOfName: string) => inst.flips.filter((f) => f.name.startsWith(prefixOfName));

  /** `count` checks named `<group>-000`…, created through the instances in turn; their names and UUIDs. */
  async function createChecks(group: string, count: number, through: Instance[]): Promise<Array<{ name: string; uuid: string }>> {
    const names = Array.from({ length: count }, (_, i) => `${group}-${String(i).padStart(3, '0')}`);
    const created: Array<{ name: string; uuid: string }> = [];
    for (let i = 0; i < names.length; i += 10) {
      const page = names.slice(i, i + 10).map((name, j) => api(through[(i + j) % through.length]!, 'POST', '/api/v3/checks/', { name, timeout: 60, grace: 60 }));
      for (const check of await Promise.all(page)) created.push({ name: check.name, uuid: check.uuid });
    }
    return created;
  }

  /**
   * Makes the group's checks "up, last pinged two minutes before `goesDown`", so each goes down
   * at `goesDown`: what a ping 120 s earlier would have stored (timeout 60 + grace 60). Written
   * in one statement so that no monitor sees half of them.
   */
  async function dueAt(group: string, goesDown: number) {
    const { rowCount } = await sql.query(
      `UPDATE "Check" SET "status" = 'up', "nPings" = 1, "lastPing" = $1::timestamp, "alertAfter" = $2::timestamp WHERE "projectId" = $3 AND "name" LIKE $4`,
      [new Date(goesDown - 120_000).toISOString(), new Date(goesDown).toISOString(), project.id, `${group}-%`],
    );
    return rowCount;
  }

  /** Flip rows per check of the group, from the database. */
  async function storedFlips(group: string) {
    const { rows } = await sql.query<{ name: string; flips: number; down: number; at: Date[] }>(
      `SELECT c."name", COUNT(f."id")::int AS "flips", COUNT(f."id") FILTER (WHERE f."newStatus" = 'down' AND f."reason" = 'timeout')::int AS "down"
       FROM "Check" c LEFT JOIN "Flip" f ON f."checkId" = c."id" WHERE c."projectId" = $1 AND c."name" LIKE $2 GROUP BY c."name" ORDER BY c."name"`,
      [project.id, `${group}-%`],
    );
    return rows;
  }

  /**
   * Barrier: a flip caused through `via` after everything before it was received. Every earlier
   * flip was published (to one Redis channel) before this one, so a repeat of any of them would
   * reach each subscriber before this flip does: once it has arrived, the counts are final.
   */
  async function barrier(via: Instance, subscribers: Instance[], label: string) {
    const [check] = await createChecks(`barrier-${label}`, 1, [via]);
    await ping(via, `/ping/${check!.uuid}/fail`);
    for (const inst of subscribers) await waitFor(`the barrier flip on ${inst.name}`, () => named(inst, `barrier-${label}`).length === 1, WAIT_MS);
  }

  function expectEachOnceOnTime(inst: Instance, names: string[], goesDown: number) {
    const got = named(inst, names[0]!.slice(0, 2));
    expect(got.map((f) => f.name).sort(), `flips received on ${inst.name}`).toEqual(names);
    for (const f of got) {
      expect(f).toMatchObject({ oldStatus: 'up', newStatus: 'down', reason: 'timeout', timestamp: new Date(goesDown).toISOString() });
    }
    const lags = got.map((f) => f.at - goesDown);
    expect(Math.max(...lags), `latest flip on ${inst.name}, ms after its going-down time`).toBeLessThan(ON_TIME_MS);
    return lags;
  }

  it('delivers a flip caused through one instance once to a subscriber on each of the three', async () => {
    const [check] = await createChecks('a', 1, [a()]);
    const code = check!.uuid;
    await ping(a(), `/ping/${code}/fail`);
    for (const inst of instances) await waitFor(`the down flip on ${inst.name}`, () => named(inst, 'a-').length >= 1, WAIT_MS);
    // Back up through another instance: it arrives after the first everywhere, and nothing twice.
    await ping(b(), `/ping/${code}`);
    for (const inst of instances) await waitFor(`the up flip on ${inst.name}`, () => named(inst, 'a-').length >= 2, WAIT_MS);
    await barrier(c(), instances, 'a');
    for (const inst of instances) {
      expect(named(inst, 'a-').map(({ oldStatus, newStatus, reason }) => ({ oldStatus, newStatus, reason })), inst.name).toEqual([
        { oldStatus: 'new', newStatus: 'down', reason: 'fail' },
        { oldStatus: 'down', newStatus: 'up', reason: '' },
      ]);
    }
    expect(await storedFlips('a')).toEqual([{ name: 'a-000', flips: 2, down: 0 }]);
    // The events went through Redis on the prefix the processes were given.
    expect(tapped.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tapped)).toEqual(new Set([`${prefix}:flip`]));
  }, 120_000);

  it('flips each of 100 checks going down at once exactly once, with three monitors running', async () => {
    const names = (await createChecks('b', 100, instances)).map((x) => x.name);
    const before = await Promise.all(instances.map((i) => counterSum(i.process.url, 'gateway_flips_recorded_total', 'reason="timeout"')));
    const goesDown = Date.now() + LEAD_MS;
    expect(await dueAt('b', goesDown)).toBe(100);
    for (const inst of instances) await waitFor(`100 flips on ${inst.name}`, () => named(inst, 'b-').length >= 100, WAIT_MS);
    await barrier(a(), instances, 'b');

    const stored = await storedFlips('b');
    expect(stored.map((r) => r.name)).toEqual(names);
    expect(stored.filter((r) => r.flips !== 1 || r.down !== 1)).toEqual([]);
    const { rows } = await sql.query(`SELECT DISTINCT f."createdAt" FROM "Flip" f JOIN "Check" c ON c."id" = f."checkId" WHERE c."name" LIKE 'b-%'`);
    expect(rows.map((r) => (r.createdAt as Date).getTime())).toEqual([goesDown]);
    const lags = instances.map((inst) => expectEachOnceOnTime(inst, names, goesDown));
    // Each instance counts the flips its own monitor recorded: together, each check once.
    const after = await Promise.all(instances.map((i) => counterSum(i.process.url, 'gateway_flips_recorded_total', 'reason="timeout"')));
    const byInstance = after.map((n, i) => n - before[i]!);
    expect(byInstance.reduce((x, y) => x + y, 0)).toBe(100);
    // Sizing (docs/operations.md): PG_POOL_SIZE (4 here) bounds each instance's connections;
    // the 2 are this test's own pool.
    const { rows: sessions } = await sql.query(`SELECT COUNT(*)::int AS "n" FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`);
    expect(sessions[0].n).toBeLessThanOrEqual(3 * 4 + 2);
    console.info(`three monitors: flips recorded by A/B/C ${byInstance.join('/')}; ${sessions[0].n} database sessions; latest received ${Math.max(...lags.flat())} ms after the going-down time`);
  }, 120_000);

  it('after one instance is killed, the other two flip the rest on time', async () => {
    // Made through all three; C is killed before they are due. (Killed between its commit and
    // its publish, an instance would take those events with it: pub/sub keeps nothing. The
    // flips themselves would stand.)
    const names = (await createChecks('c', 100, instances)).map((x) => x.name);
    const killed = c();
    await killed.client.dispose();
    await killed.process.kill9();
    const goesDown = Date.now() + LEAD_MS;
    expect(await dueAt('c', goesDown)).toBe(100);
    const survivors = [a(), b()];
    for (const inst of survivors) await waitFor(`100 flips on ${inst.name}`, () => named(inst, 'c-').length >= 100, WAIT_MS);
    await barrier(b(), survivors, 'c');

    const stored = await storedFlips('c');
    expect(stored.map((r) => r.name)).toEqual(names);
    expect(stored.filter((r) => r.flips !== 1 || r.down !== 1)).toEqual([]);
    const lags = survivors.map((inst) => expectEachOnceOnTime(inst, names, goesDown));
    console.info(`two monitors after SIGKILL: latest received ${Math.max(...lags.flat())} ms after the going-down time`);
  }, 120_000);

  it('prints the database URL without its password', () => {
    for (const inst of instances) {
      expect(inst.process.output()).not.toContain(SECRET);
      const listening = inst.process.logLines().find((l) => l.msg === 'gateway listening');
      expect(listening?.database).toBe(databaseUrl.replace(`:${SECRET}@`, ':***@'));
    }
  });
});
