// Issue #30: Redis disappears and returns under two gateways on one database. A TCP proxy in
// front of the real Redis cuts every connection at once and refuses new ones (as a Redis restart
// or a network partition looks to the instances), then lets them in again. Meanwhile each
// instance keeps serving its own subscribers, says "degraded" on /healthz, throws nothing, and
// afterwards the fan-out from one to the other resumes by itself, nothing restarted. Then, on
// two buses: a PUBLISH cut off with its connection (all of them, or the publisher's alone, its
// echo before or after the failure) still reaches the publisher's own subscribers, once.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { FANOUT_DEGRADED } from '../../src/app.ts';
import { RedisFanoutEvents } from '../../src/events/redis-fanout.ts';
import { createWorld, type World } from '../helpers/world.ts';
import { SKIPPED, testRedisUrl, uniqueNamespace, waitFor } from '../helpers/redis.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { sampleFlip } from './samples.ts';

const url = testRedisUrl();
const fast = { retryMinMs: 10, retryMaxMs: 50 };
const worlds: World[] = [];
const clients: Client[] = [];
const proxies: TcpProxy[] = [];
const buses: RedisFanoutEvents[] = [];
const splitters: SplitProxy[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
  await Promise.all(splitters.splice(0).map((p) => p.close()));
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  // The second instance first: the first owns the database.
  for (const w of worlds.splice(0).reverse()) await w.stop();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** TEST_REDIS_URL with its host and port replaced by the proxy's (database and password kept). */
function throughProxy(redisUrl: string, proxy: TcpProxy): string {
  const u = new URL(redisUrl);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

/** A proxy in front of TEST_REDIS_URL's server. */
async function redisProxy() {
  const redis = new URL(url!);
  const proxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
  proxies.push(proxy);
  return proxy;
}

async function world(env: Record<string, string>, namespace: string) {
  const w = await createWorld(env, { eventFanout: { namespace, ...fast } });
  worlds.push(w);
  return w;
}

/** The `n` of every ping pushed to a subscriber on `w`. */
function pingsOn(w: World, key: string, checkId: string) {
  const client = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': key }, retryAttempts: 0 });
  clients.push(client);
  const got: Array<number | string> = [];
  client.subscribe(
    { query: 'subscription($id: ID!) { pings(checkId: $id) { n } }', variables: { id: checkId } },
    { next: (v) => got.push((v.data as { pings: { n: number } } | null)?.pings.n ?? JSON.stringify(v)), error: (err) => got.push(`error: ${String(err)}`), complete: () => got.push('complete') },
  );
  return got;
}

const health = async (w: World) => {
  const res = await fetch(`${w.url}/healthz`);
  return [res.status, await res.text()];
};
const ping = async (w: World, code: string) => expect((await w.ping(`/ping/${code}`)).status).toBe(200);

describe.skipIf(!url)(`two gateways while Redis disappears and returns${url ? '' : SKIPPED}`, () => {
  it("keeps each instance's own subscribers served, reports degraded, and resumes the fan-out by itself", async () => {
    const proxy = await redisProxy();
    const namespace = uniqueNamespace();
    const a = await world({ REDIS_URL: throughProxy(url!, proxy) }, namespace);
    const b = await world({ REDIS_URL: throughProxy(url!, proxy), DATABASE_URL: a.databaseUrl }, namespace);
    await waitFor('fan-out up on both', async () => (await health(a))[1] === 'OK' && (await health(b))[1] === 'OK');
    const key = a.alice.api_key;
    const code = (await a.api('POST', '/api/v2/checks/', { key, body: { name: 'nightly', timeout: 60, grace: 60 } })).json.uuid as string;
    const idle = [a, b].map((w) => w.app.deps.events.listenerCount('ping'));
    const onA = pingsOn(a, key, code);
    const onB = pingsOn(b, key, code);
    await waitFor('subscribed on A and B', () => a.app.deps.events.listenerCount('ping') > idle[0]! && b.app.deps.events.listenerCount('ping') > idle[1]!);

    // Up: a ping through A reaches B's subscriber (and A's).
    await ping(a, code);
    await waitFor('ping 1 on both', () => onA.length === 1 && onB.length === 1);

    proxy.cut();
    await waitFor('both report degraded', async () => (await health(a))[1] === FANOUT_DEGRADED && (await health(b))[1] === FANOUT_DEGRADED);
    expect([await health(a), await health(b)]).toEqual([[200, FANOUT_DEGRADED], [200, FANOUT_DEGRADED]]);
    // Down: each instance serves its own subscribers; nothing crosses over.
    await ping(a, code);
    await waitFor('ping 2 on A', () => onA.length === 2);
    await ping(b, code);
    await waitFor('ping 3 on B', () => onB.length === 2);
    // Reconnect attempts keep failing meanwhile (the proxy refuses them): still serving.
    expect(proxy.open()).toBe(0);
    await ping(a, code);
    await waitFor('ping 4 on A', () => onA.length === 3);

    proxy.restore();
    // Bounded: reconnect delays here are at most 50 ms.
    await waitFor('both report up again', async () => (await health(a))[1] === 'OK' && (await health(b))[1] === 'OK', 10_000);
    await ping(a, code);
    await waitFor('ping 5 through Redis on B', () => onB.length === 3);
    await ping(b, code);
    await waitFor('ping 6 through Redis on A', () => onA.length === 5 && onB.length === 4);
    // Each exactly once, in order; the subscriptions themselves never broke.
    expect(onA).toEqual([1, 2, 4, 5, 6]);
    expect(onB).toEqual([1, 3, 5, 6]);
  });

  it('recovers from Redis flapping (cut again right after each reconnection) without repeats', async () => {
    const proxy = await redisProxy();
    const namespace = uniqueNamespace();
    const a = await world({ REDIS_URL: throughProxy(url!, proxy) }, namespace);
    const b = await world({ REDIS_URL: throughProxy(url!, proxy), DATABASE_URL: a.databaseUrl }, namespace);
    const key = a.alice.api_key;
    const code = (await a.api('POST', '/api/v2/checks/', { key, body: { name: 'nightly', timeout: 60, grace: 60 } })).json.uuid as string;
    const idle = b.app.deps.events.listenerCount('ping');
    const onB = pingsOn(b, key, code);
    await waitFor('subscribed on B', () => b.app.deps.events.listenerCount('ping') > idle);
    // Cut as soon as a connection reaches the proxy, five times: handshakes and subscribes are
    // interrupted half-way, in whatever state the clients were in.
    for (let round = 0; round < 5; round++) {
      await waitFor(`a connection through the proxy (round ${round})`, () => proxy.open() > 0);
      proxy.cut();
      proxy.restore();
    }
    await waitFor('fan-out up on both after flapping', async () => (await health(a))[1] === 'OK' && (await health(b))[1] === 'OK', 10_000);
    await ping(a, code);
    await waitFor('the ping through Redis on B', () => onB.length === 1);
    await ping(a, code);
    await waitFor('the second ping on B', () => onB.length === 2);
    expect(onB).toEqual([1, 2]);
  });
});

describe.skipIf(!url)(`a publish cut off with its connection${url ? '' : SKIPPED}`, () => {
  it("still reaches the publishing instance's subscribers, once", async () => {
    const proxy = await redisProxy();
    const namespace = uniqueNamespace();
    const [a, b] = [0, 1].map(() => new RedisFanoutEvents({ url: throughProxy(url!, proxy), namespace, ...fast }));
    buses.push(a!, b!);
    await waitFor('fan-out up', () => a!.fanoutUp && b!.fanoutUp);
    const onA: number[] = [];
    const onB: number[] = [];
    a!.on('flip', (f) => onA.push(f.checkId));
    b!.on('flip', (f) => onB.push(f.checkId));
    // The PUBLISH is written to the proxy, which is cut before it passes it on: Redis never
    // sees it and no answer comes. A is subscribed, so it was waiting for its own echo.
    a!.emit('flip', { ...sampleFlip, checkId: 1 });
    proxy.cut();
    await waitFor('flip 1 delivered on A without Redis', () => onA.length === 1, 3000);
    proxy.restore();
    await waitFor('fan-out up again', () => a!.fanoutUp && b!.fanoutUp);
    a!.emit('flip', { ...sampleFlip, checkId: 2 });
    await waitFor('flip 2 on both', () => onA.length === 2 && onB.length === 1);
    expect(onA).toEqual([1, 2]);
    expect(onB).toEqual([2]);
  });
});

/**
 * A proxy in front of Redis that tells one bus's two connections apart by the name each gives
 * (CLIENT SETNAME gateway-events-pub / -sub): it can hold back what Redis sends to one of them,
 * and cut the publisher's alone, as a broken network path to one socket would.
 */
interface SplitProxy {
  url: string;
  hold(name: 'pub' | 'sub'): void;
  release(name: 'pub' | 'sub'): void;
  cut(name: 'pub'): void;
  /** Connections that gave this name so far. */
  named(name: 'pub' | 'sub'): number;
  close(): Promise<void>;
}

async function splitProxy(): Promise<SplitProxy> {
  const target = new URL(url!);
  const conns = new Set<{ name: string | null; client: net.Socket; held: Buffer[] | null }>();
  const holding = new Set<string>();
  const named = new Map<string, number>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    const conn = { name: null as string | null, client, held: null as Buffer[] | null };
    conns.add(conn);
    let sent = '';
    client.on('data', (chunk) => {
      if (conn.name === null) {
        sent += chunk.toString('latin1');
        conn.name = /gateway-events-(pub|sub)/.exec(sent)?.[1] ?? null;
        if (conn.name !== null) named.set(conn.name, (named.get(conn.name) ?? 0) + 1);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (conn.name !== null && holding.has(conn.name)) (conn.held ??= []).push(chunk);
      else client.write(chunk);
    });
    for (const s of [client, upstream]) {
      s.on('error', () => {});
      s.on('close', () => {
        conns.delete(conn);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const u = new URL(url!);
  u.hostname = '127.0.0.1';
  u.port = String((server.address() as net.AddressInfo).port);
  const proxy: SplitProxy = {
    url: u.toString(),
    hold: (name) => void holding.add(name),
    release(name) {
      holding.delete(name);
      for (const c of conns) if (c.name === name && c.held) for (const chunk of c.held.splice(0)) c.client.write(chunk);
    },
    cut(name) {
      for (const c of conns) if (c.name === name) c.client.destroy();
    },
    named: (name) => named.get(name) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of conns) c.client.destroy();
        server.close(() => resolve());
      }),
  };
  splitters.push(proxy);
  return proxy;
}

describe.skipIf(!url)(`a PUBLISH whose answer is lost with the publisher's connection alone${url ? '' : SKIPPED}`, () => {
  /** A through the split proxy, B straight to Redis, both subscribed; their flips' checkIds. */
  async function pairBehind(proxy: SplitProxy) {
    const namespace = uniqueNamespace();
    const a = new RedisFanoutEvents({ url: proxy.url, namespace, ...fast });
    const b = new RedisFanoutEvents({ url: url!, namespace, ...fast });
    buses.push(a, b);
    await waitFor('fan-out up', () => a.fanoutUp && b.fanoutUp);
    const onA: number[] = [];
    const onB: number[] = [];
    a.on('flip', (f) => onA.push(f.checkId));
    b.on('flip', (f) => onB.push(f.checkId));
    return { a, b, onA, onB };
  }

  it('is delivered on the publishing instance once when its echo came before the failure', async () => {
    const proxy = await splitProxy();
    const { a, onA, onB } = await pairBehind(proxy);
    proxy.hold('pub');
    a.emit('flip', { ...sampleFlip, checkId: 1 });
    await waitFor('flip 1 echoed to A and sent to B', () => onA.length === 1 && onB.length === 1);
    const before = proxy.named('pub');
    proxy.cut('pub');
    proxy.release('pub');
    // Reconnected: the old connection's close (and the PUBLISH's failure) came before.
    await waitFor('a new publisher connection', () => proxy.named('pub') > before);
    await waitFor('fan-out up again', () => a.fanoutUp);
    a.emit('flip', { ...sampleFlip, checkId: 2 });
    await waitFor('flip 2 on A and B', () => onA.at(-1) === 2 && onB.at(-1) === 2);
    expect(onA).toEqual([1, 2]);
    expect(onB).toEqual([1, 2]);
  });

  it('is delivered on the publishing instance once when the failure came before its echo', async () => {
    const proxy = await splitProxy();
    const { a, onA, onB } = await pairBehind(proxy);
    proxy.hold('pub');
    proxy.hold('sub');
    a.emit('flip', { ...sampleFlip, checkId: 1 });
    await waitFor('flip 1 through Redis on B', () => onB.length === 1);
    proxy.cut('pub');
    await waitFor('flip 1 delivered on A instead', () => onA.length === 1);
    proxy.release('pub');
    // The echo, held until now, comes after: it is the same event, not a second one.
    proxy.release('sub');
    await waitFor('fan-out up again', () => a.fanoutUp);
    a.emit('flip', { ...sampleFlip, checkId: 2 });
    await waitFor('flip 2 on A and B', () => onA.at(-1) === 2 && onB.at(-1) === 2);
    expect(onA).toEqual([1, 2]);
    expect(onB).toEqual([1, 2]);
  });
});
