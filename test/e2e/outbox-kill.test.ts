// No event lost between commit and publish (issue #30), with real processes on one PostgreSQL
// database and one Redis. Instance A kills itself with SIGKILL right after a write commits and
// before its events are published (GATEWAY_FAULTS=after-commit, src/shared/fault-points.ts);
// a subscriber on instance B still gets them, from B's outbox relay, once. Twice: a pause
// through A's API (a check change and its flip), and a check going down in A's monitor (the
// flip nobody else would have told B about).
import pg from 'pg';
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
// The relay takes rows 3 s old, every second; the rest is the machine's load.
const WAIT_MS = 30_000;

describe.skipIf(missing.length > 0)(`an instance killed between commit and publish${SKIPPED}`, () => {
  let bundle: ServerBundle;
  let database: { url: string; drop(): Promise<void> };
  let sql: pg.Pool;
  let project: { id: string; api_key: string };
  let b: GatewayProcess;
  let client: Client;
  const changes: Array<{ change: string; name: string }> = [];
  const flips: Array<{ oldStatus: string; newStatus: string; name: string }> = [];
  const started: GatewayProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    [bundle, database] = await Promise.all([bundleServer(), freshPostgresDatabase(admin!)]);
    sql = testPool({ connectionString: database.url, max: 2 });
    const opened = openDb(database.url);
    try {
      project = await createProject(opened.db, { name: 'Outbox' });
    } finally {
      await opened.db.$disconnect();
      await opened.pool?.end();
    }
    env = { DATABASE_URL: database.url, REDIS_URL: redisUrl!, REDIS_CHANNEL_PREFIX: uniqueNamespace(), RATE_LIMITS: 'off', ACCESS_LOG: 'off', MONITOR_INTERVAL_MS: '100' };
    // B watches and relays; its monitor is off, so a check going down is A's to flip.
    b = await startGatewayProcess(bundle, { ...env, MONITOR: 'off' });
    started.push(b);
    await waitFor('fan-out up on B', async () => (await (await fetch(`${b.url}/healthz`)).text()) === 'OK', WAIT_MS);
    client = createClient({ url: `${b.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': project.api_key }, retryAttempts: 0 });
    client.subscribe(
      { query: 'subscription { checkChanged { change check { name } } }' },
      { next: (r) => changes.push({ change: (r.data as any).checkChanged.change, name: (r.data as any).checkChanged.check.name }), error: () => {}, complete: () => {} },
    );
    client.subscribe(
      { query: 'subscription { flips { oldStatus newStatus check { name } } }' },
      {
        next: (r) => {
          const f = (r.data as any).flips;
          flips.push({ oldStatus: f.oldStatus, newStatus: f.newStatus, name: f.check.name });
        },
        error: () => {},
        complete: () => {},
      },
    );
    await waitFor('both subscriptions on B', async () => (await counterSum(b.url, 'gateway_subscriptions_active')) === 2, WAIT_MS);
  }, 180_000);

  afterAll(async () => {
    await client?.dispose();
    await Promise.all(started.map((p) => p.stop()));
    await sql?.end();
    await database?.drop();
    bundle?.remove();
  }, 60_000);

  const create = async (name: string) => {
    const res = await fetch(`${b.url}/api/v3/checks/`, { method: 'POST', headers: { 'X-Api-Key': project.api_key }, body: JSON.stringify({ name, timeout: 60, grace: 60 }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { uuid: string }).uuid;
  };
  /** An instance that dies after its first commit with events. */
  const doomed = async (extra: Record<string, string> = {}) => {
    const a = await startGatewayProcess(bundle, { ...env, GATEWAY_FAULTS: 'after-commit', ...extra });
    started.push(a);
    const died = new Promise<string | null>((resolve) => a.child.once('exit', (_code, signal) => resolve(signal)));
    return { a, died };
  };
  const outboxRows = async () => (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM "EventOutbox"')).rows[0]!.n;

  it('delivers a pause committed through A to B’s subscribers, though A died before publishing it', async () => {
    const uuid = await create('paused-by-a');
    await waitFor('the creation on B', () => changes.some((c) => c.name === 'paused-by-a'), WAIT_MS);
    const { a, died } = await doomed({ MONITOR: 'off' });
    // A answers nothing: it dies as soon as the pause has committed.
    await expect(fetch(`${a.url}/api/v3/checks/${uuid}/pause`, { method: 'POST', headers: { 'X-Api-Key': project.api_key } })).rejects.toThrow();
    expect(await died).toBe('SIGKILL');
    expect((await sql.query('SELECT "status" FROM "Check" WHERE "code" = $1', [uuid])).rows).toEqual([{ status: 'paused' }]);

    await waitFor('the pause on B', () => changes.some((c) => c.name === 'paused-by-a' && c.change === 'PAUSED'), WAIT_MS);
    await waitFor('its flip on B', () => flips.some((f) => f.name === 'paused-by-a' && f.newStatus === 'paused'), WAIT_MS);
    await waitFor('the outbox emptied by B’s relay', async () => (await outboxRows()) === 0, WAIT_MS);
    expect(changes.filter((c) => c.name === 'paused-by-a')).toEqual([{ change: 'CREATED', name: 'paused-by-a' }, { change: 'PAUSED', name: 'paused-by-a' }]);
  });

  it('delivers a flip to down committed by A’s monitor, though A died before publishing it', async () => {
    const uuid = await create('down-by-a');
    await waitFor('the creation on B', () => changes.some((c) => c.name === 'down-by-a'), WAIT_MS);
    const { died } = await doomed();
    // Up, last pinged two minutes ago: due now, for A's monitor (B's is off).
    await sql.query(`UPDATE "Check" SET "status" = 'up', "nPings" = 1, "lastPing" = now() - interval '120 seconds', "alertAfter" = now() WHERE "code" = $1`, [uuid]);
    expect(await died).toBe('SIGKILL');
    expect((await sql.query('SELECT "status" FROM "Check" WHERE "code" = $1', [uuid])).rows).toEqual([{ status: 'down' }]);

    await waitFor('the flip on B', () => flips.some((f) => f.name === 'down-by-a'), WAIT_MS);
    expect(flips.filter((f) => f.name === 'down-by-a')).toEqual([{ oldStatus: 'up', newStatus: 'down', name: 'down-by-a' }]);
    await waitFor('the status change on B', () => changes.some((c) => c.name === 'down-by-a' && c.change === 'STATUS'), WAIT_MS);
    await waitFor('the outbox emptied by B’s relay', async () => (await outboxRows()) === 0, WAIT_MS);
  });
});
