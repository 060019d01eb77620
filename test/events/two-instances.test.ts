// Two gateways on one database and one Redis: a subscriber on B sees the flips and pings caused
// through A. With Redis gone an instance keeps serving (pings, its own subscribers) and says
// so on /healthz and /metrics, then recovers by itself.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { FANOUT_DEGRADED } from '../../src/app.ts';
import { createWorld, type World } from '../helpers/world.ts';
import { freePort, privateRedis, SKIPPED, testRedisUrl, uniqueNamespace, waitFor, type PrivateRedis } from '../helpers/redis.ts';

const url = testRedisUrl();
const fast = { retryMinMs: 10, retryMaxMs: 50 };
const worlds: World[] = [];
const clients: Client[] = [];
const servers: PrivateRedis[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  // The second instance first: the first owns the database.
  for (const w of worlds.splice(0).reverse()) await w.stop();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function world(env: Record<string, string>, namespace: string) {
  const w = await createWorld(env, { eventFanout: { namespace, ...fast } });
  worlds.push(w);
  return w;
}

/** Subscribes over graphql-ws; `events` fills as results arrive. */
function subscription(w: World, key: string, query: string, variables: Record<string, unknown>) {
  const client = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': key }, retryAttempts: 0 });
  clients.push(client);
  const events: any[] = [];
  client.subscribe({ query, variables }, { next: (v) => events.push(v), error: (err) => events.push({ error: err }), complete: () => {} });
  return events;
}

const newCheck = async (w: World, key: string) => (await w.api('POST', '/api/v2/checks/', { key, body: { name: 'nightly', timeout: 60, grace: 60 } })).json.uuid as string;
const gauge = async (w: World) => /^gateway_event_fanout_up (\d)$/m.exec(await (await fetch(`${w.url}/metrics`)).text())?.[1];
const health = async (w: World) => {
  const res = await fetch(`${w.url}/healthz`);
  return [res.status, await res.text()];
};
const FLIPS = 'subscription($id: ID) { flips(checkId: $id) { oldStatus newStatus check { name } } }';
const PINGS = 'subscription($id: ID!) { pings(checkId: $id) { n type method body } }';

describe.skipIf(!url)(`two gateways sharing a database and Redis${url ? '' : SKIPPED}`, () => {
  it('pushes flips and pings caused through A to subscribers on B (and on A), once each', async () => {
    const namespace = uniqueNamespace();
    const a = await world({ REDIS_URL: url! }, namespace);
    const b = await world({ REDIS_URL: url!, DATABASE_URL: a.databaseUrl }, namespace);
    await waitFor('fan-out up', async () => (await gauge(a)) === '1' && (await gauge(b)) === '1');
    const key = a.alice.api_key;
    const code = await newCheck(a, key);
    const idleFlip = b.app.deps.events.listenerCount('flip');
    const idlePing = b.app.deps.events.listenerCount('ping');
    const flipsOnB = subscription(b, key, FLIPS, { id: code });
    const pingsOnB = subscription(b, key, PINGS, { id: code });
    const flipsOnA = subscription(a, key, FLIPS, { id: code });
    await waitFor('subscriptions on B', () => b.app.deps.events.listenerCount('flip') > idleFlip && b.app.deps.events.listenerCount('ping') > idlePing);
    await waitFor('subscription on A', () => a.app.deps.events.listenerCount('flip') > idleFlip);

    expect((await a.ping(`/ping/${code}`, { method: 'POST', body: 'backup ok' })).status).toBe(200);
    expect((await a.ping(`/ping/${code}/fail`)).status).toBe(200);
    await waitFor('two flips and two pings on B', () => flipsOnB.length >= 2 && pingsOnB.length >= 2 && flipsOnA.length >= 2);
    const flips = [
      { oldStatus: 'new', newStatus: 'up', check: { name: 'nightly' } },
      { oldStatus: 'up', newStatus: 'down', check: { name: 'nightly' } },
    ];
    expect(flipsOnB.map((e) => e.data?.flips ?? e)).toEqual(flips);
    expect(pingsOnB.map((e) => e.data?.pings ?? e)).toEqual([
      { n: 1, type: 'success', method: 'POST', body: 'backup ok' },
      { n: 2, type: 'fail', method: 'GET', body: null },
    ]);
    // A third ping through B: its flip back up reaches A, and nothing before it came twice.
    expect((await b.ping(`/ping/${code}`)).status).toBe(200);
    await waitFor('the third flip on A', () => flipsOnA.length >= 3);
    await waitFor('the third flip on B', () => flipsOnB.length >= 3);
    expect(flipsOnA.map((e) => e.data?.flips?.newStatus)).toEqual(['up', 'down', 'up']);
    expect(flipsOnB.map((e) => e.data?.flips?.newStatus)).toEqual(['up', 'down', 'up']);
    // Each instance counts its own flips: two through A, one through B.
    const flipsCounted = async (w: World) => {
      const text = await (await fetch(`${w.url}/metrics`)).text();
      return [...text.matchAll(/^gateway_flips_recorded_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    expect([await flipsCounted(a), await flipsCounted(b)]).toEqual([2, 1]);
  });
});

describe.skipIf(!url)(`a gateway while Redis is unavailable${url ? '' : SKIPPED}`, () => {
  it('keeps serving pings and its own subscribers, reports degraded on /healthz and /metrics, and recovers', async () => {
    const server = privateRedis(await freePort());
    servers.push(server);
    await server.start();
    const w = await world({ REDIS_URL: server.url }, uniqueNamespace());
    await waitFor('fan-out up', async () => (await gauge(w)) === '1');
    expect(await health(w)).toEqual([200, 'OK']);

    await server.stop();
    await waitFor('fan-out reported down', async () => (await gauge(w)) === '0');
    expect(await health(w)).toEqual([200, FANOUT_DEGRADED]);
    const key = w.alice.api_key;
    const code = await newCheck(w, key);
    const idle = w.app.deps.events.listenerCount('flip');
    const flips = subscription(w, key, FLIPS, { id: code });
    await waitFor('subscribed', () => w.app.deps.events.listenerCount('flip') > idle);
    expect((await w.ping(`/ping/${code}`)).status).toBe(200);
    await waitFor('the flip, delivered locally', () => flips.length >= 1);
    expect(flips[0].data.flips.newStatus).toBe('up');

    await server.start();
    await waitFor('fan-out reported up again', async () => (await gauge(w)) === '1');
    expect(await health(w)).toEqual([200, 'OK']);
    expect((await w.ping(`/ping/${code}/fail`)).status).toBe(200);
    await waitFor('the next flip, through Redis', () => flips.length >= 2);
    expect(flips.map((e) => e.data.flips.newStatus)).toEqual(['up', 'down']);
  });
});

describe('a gateway without REDIS_URL', () => {
  it('answers /healthz as before and has no fan-out gauge', async () => {
    const w = await createWorld();
    worlds.push(w);
    expect(await health(w)).toEqual([200, 'OK']);
    expect(await gauge(w)).toBeUndefined();
  });
});
