// Live subscriptions against the real server: graphql-ws over WebSocket and SSE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { parse, subscribe as gqlSubscribe } from 'graphql';
import { runMonitorPass } from '../../src/monitoring/monitor/pass.ts';
import { schema } from '../../src/graphql/schema/schema.ts';
import { createContext } from '../../src/graphql/server/context.ts';
import { T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();
const clients: Client[] = [];
/** Listeners present with no subscription (the app's own, e.g. metrics). */
const idle: Record<string, number> = {};
const topics = ['flip', 'checkChanged', 'ping', 'recordChanged'] as const;
const subscribed = (topic: (typeof topics)[number]) => w.app.deps.events.listenerCount(topic) > idle[topic]!;
beforeAll(async () => {
  for (const t of topics) idle[t] = w.app.deps.events.listenerCount(t);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
});

function client(params: Record<string, string>) {
  const c = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: params, retryAttempts: 0, lazy: true });
  clients.push(c);
  return c;
}

/** Subscribes and collects results; `next(n)` waits for the n-th event. */
function collect(c: Client, query: string, variables: Record<string, unknown> = {}) {
  const events: any[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let failure: unknown;
  const stop = c.subscribe({ query, variables }, {
    next: (value) => {
      events.push(value);
      for (const w of waiters.filter((x) => events.length >= x.n)) w.resolve();
    },
    error: (err) => {
      failure = err;
      for (const w of waiters) w.resolve();
    },
    complete: () => {},
  });
  return {
    events,
    stop,
    failure: () => failure,
    next: (n: number) => new Promise<void>((resolve) => (events.length >= n || failure ? resolve() : waiters.push({ n, resolve }))),
  };
}

const newCheck = async (key: string, body: Record<string, unknown> = {}) => (await w.api('POST', '/api/v2/checks/', { key, body: { timeout: 60, grace: 60, ...body } })).json.uuid as string;
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
};

/** graphql-transport-ws by hand, to see the exact text of each message; `next()` waits for the next `next`. */
async function rawSubscriber(key: string, id: string, query: string, variables: Record<string, unknown>) {
  const socket = new WebSocket(w.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
  const messages: string[] = [];
  const waiting: Array<(text: string) => void> = [];
  let read = 0;
  socket.on('message', (data) => {
    const text = String(data);
    if (JSON.parse(text).type !== 'next') return;
    messages.push(text);
    waiting.shift()?.(text);
  });
  await new Promise((resolve) => socket.once('open', resolve));
  const acked = new Promise((resolve) => socket.once('message', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { 'X-Api-Key': key } }));
  await acked;
  socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
  return {
    socket,
    received: () => messages.length,
    next: () => (read < messages.length ? Promise.resolve(messages[read++]!) : new Promise<string>((resolve) => waiting.push((t) => (read++, resolve(t))))),
  };
}

/** Subscriptions the server holds, shared ones counted per subscriber (/metrics). */
const activeSubscriptions = async () => Number(/^gateway_subscriptions_active (\d+)/m.exec(await (await fetch(`${w.url}/metrics`)).text())?.[1]);

describe('graphql-ws subscriptions', () => {
  it('pushes the up and down flips of a /fail ping, with the check resolvable', async () => {
    const code = await newCheck(w.alice.api_key, { name: 'flippy' });
    const sub = collect(client({ 'X-Api-Key': w.alice.api_key }), 'subscription($id: ID) { flips(checkId: $id) { up oldStatus newStatus timestamp check { name status } } }', { id: code });
    await until(() => subscribed('flip'));
    await w.ping(`/ping/${code}`);
    await w.ping(`/ping/${code}/fail`);
    await sub.next(2);
    expect(sub.events.map((e) => e.data.flips)).toMatchObject([
      { up: true, oldStatus: 'new', newStatus: 'up', check: { name: 'flippy' } },
      { up: false, oldStatus: 'up', newStatus: 'down', check: { name: 'flippy', status: 'DOWN' } },
    ]);
    sub.stop();
  });

  it('shares one subscription among identical subscribers: each gets every event, and one leaving stops nobody else', async () => {
    const code = await newCheck(w.alice.api_key, { name: 'shared' });
    const query = 'subscription($id: ID) { flips(checkId: $id) { newStatus check { name } } }';
    const a = collect(client({ 'X-Api-Key': w.alice.api_key }), query, { id: code });
    const b = collect(client({ 'X-Api-Key': w.alice.api_key }), query, { id: code });
    // Another key (read-only) never shares with a read-write one.
    const ro = collect(client({ 'X-Api-Key': w.alice.api_key_readonly }), query, { id: code });
    await until(() => w.app.deps.events.listenerCount('flip') >= idle.flip! + 2);
    expect(w.app.deps.events.listenerCount('flip')).toBe(idle.flip! + 2);
    await w.ping(`/ping/${code}`);
    await Promise.all([a.next(1), b.next(1), ro.next(1)]);
    a.stop();
    await w.ping(`/ping/${code}/fail`);
    await Promise.all([b.next(2), ro.next(2)]);
    expect(a.events.map((e) => e.data.flips.newStatus)).toEqual(['up']);
    expect(b.events.map((e) => e.data.flips)).toEqual([{ newStatus: 'up', check: { name: 'shared' } }, { newStatus: 'down', check: { name: 'shared' } }]);
    expect(ro.events.map((e) => e.data.flips.newStatus)).toEqual(['up', 'down']);
    b.stop();
    ro.stop();
    await until(() => w.app.deps.events.listenerCount('flip') === idle.flip);
    expect(w.app.deps.events.listenerCount('flip')).toBe(idle.flip);
  });

  it('sends every subscriber of a shared subscription the message graphql-ws would, errors with their codes, past one slice of 256', async () => {
    const code = await newCheck(w.alice.api_key, { name: 'fanned' });
    // A read-only key may watch flips but not a check's channels: each event carries data and
    // an UNAUTHENTICATED error, which the socket shows with its code and without HTTP hints.
    const query = 'subscription($id: ID) { flips(checkId: $id) { newStatus check { name channels { name } } } }';
    const sockets = await Promise.all(Array.from({ length: 300 }, (_, i) => rawSubscriber(w.alice.api_key_readonly, `op-${i}`, query, { id: code })));
    await until(() => w.app.deps.events.listenerCount('flip') > idle.flip!);
    expect(w.app.deps.events.listenerCount('flip')).toBe(idle.flip! + 1);
    await w.ping(`/ping/${code}/fail`);
    const texts = await Promise.all(sockets.map((s) => s.next()));
    texts.forEach((text, i) => expect(text.startsWith(`{"id":"op-${i}","type":"next","payload":`)).toBe(true));
    const payloads = new Set(texts.map((text) => JSON.stringify(JSON.parse(text).payload)));
    expect(payloads.size).toBe(1);
    expect(JSON.parse(texts[0]!).payload).toEqual({
      data: { flips: { newStatus: 'down', check: { name: 'fanned', channels: null } } },
      errors: [{ message: 'wrong api key', locations: [{ line: 1, column: 70 }], path: ['flips', 'check', 'channels'], extensions: { code: 'UNAUTHENTICATED' } }],
    });
    // One leaves with `complete`: the others keep receiving, it gets nothing more.
    sockets[0]!.socket.send(JSON.stringify({ id: 'op-0', type: 'complete' }));
    for (let i = 0; i < 200 && (await activeSubscriptions()) !== 299; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await activeSubscriptions()).toBe(299);
    await w.ping(`/ping/${code}`);
    const second = await Promise.all(sockets.slice(1).map((s) => s.next()));
    expect(second.every((text) => JSON.parse(text).payload.data.flips.newStatus === 'up')).toBe(true);
    expect(sockets[0]!.received()).toBe(1);
    for (const s of sockets) s.socket.close();
    await until(() => w.app.deps.events.listenerCount('flip') === idle.flip);
  });

  it('pushes a monitor-detected flip dated at the going-down time', async () => {
    const code = await newCheck(w.alice.api_key);
    w.clock.set(T0);
    await w.ping(`/ping/${code}`);
    const sub = collect(client({ 'X-Api-Key': w.alice.api_key }), 'subscription($id: ID) { flips(checkId: $id) { newStatus timestamp } }', { id: code });
    await until(() => subscribed('flip'));
    await runMonitorPass(w.app.deps, new Date(T0.getTime() + 500_000));
    await sub.next(1);
    expect(sub.events[0].data.flips).toEqual({ newStatus: 'down', timestamp: new Date(T0.getTime() + 120_000).toISOString() });
    sub.stop();
  });

  it("computes an event's status at the event's time, not when the subscription started", async () => {
    const code = await newCheck(w.alice.api_key, { timeout: 60, grace: 60 });
    w.clock.set(T0);
    await w.ping(`/ping/${code}`);
    const sub = collect(client({ 'X-Api-Key': w.alice.api_key }), 'subscription($id: ID) { checkChanged(checkId: $id) { change check { status } } }', { id: code });
    await until(() => subscribed('checkChanged'));
    // 90 s later the check is in its grace period; a log ping changes nothing but is an event.
    w.clock.set(new Date(T0.getTime() + 90_000));
    await w.ping(`/ping/${code}/log`);
    await sub.next(1);
    expect(sub.events[0].data.checkChanged).toEqual({ change: 'PING', check: { status: 'GRACE' } });
    sub.stop();
    await until(() => !subscribed('checkChanged'));
  });

  it("never delivers another project's events", async () => {
    const bobSub = collect(client({ 'X-Api-Key': w.bob.api_key }), 'subscription { checkChanged { change check { name } } }');
    await until(() => subscribed('checkChanged'));
    const aliceCheck = await newCheck(w.alice.api_key, { name: 'alice-only' });
    await w.ping(`/ping/${aliceCheck}`);
    const bobCheck = await newCheck(w.bob.api_key, { name: 'bobs' });
    await bobSub.next(1);
    expect(bobSub.events[0].data.checkChanged).toEqual({ change: 'CREATED', check: { name: 'bobs' } });
    expect(JSON.stringify(bobSub.events)).not.toContain('alice-only');
    void bobCheck;
    bobSub.stop();
  });

  it('pushes check changes for pause, pings as they arrive, and campus record changes', async () => {
    const code = await newCheck(w.alice.api_key, { name: 'live' });
    const changes = collect(client({ 'X-Api-Key': w.alice.api_key }), 'subscription($id: ID) { checkChanged(checkId: $id) { change check { status nPings } } }', { id: code });
    const pings = collect(client({ 'X-Api-Key': w.alice.api_key }), 'subscription($id: ID!) { pings(checkId: $id) { n type body } }', { id: code });
    const records = collect(client({}), 'subscription { recordChanged(kind: Course) { action kind id record { ... on Course { code } } } }');
    await until(() => subscribed('checkChanged') && subscribed('ping') && subscribed('recordChanged'));
    await w.ping(`/ping/${code}`, { method: 'POST', body: 'hello' });
    await w.api('POST', `/api/v2/checks/${code}/pause`);
    const staff = (await w.campusToken('Staff')).token;
    await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Hidden one', Code: 'HID', Status: 'Hidden' } });
    await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Live one', Code: 'LIV' } });
    await Promise.all([changes.next(2), pings.next(1), records.next(1)]);
    expect(changes.events.map((e) => e.data.checkChanged)).toEqual([
      { change: 'PING', check: { status: 'UP', nPings: 1 } },
      { change: 'PAUSED', check: { status: 'PAUSED', nPings: 1 } },
    ]);
    expect(pings.events[0].data.pings).toEqual({ n: 1, type: 'success', body: 'hello' });
    // An anonymous subscriber sees the live course, never the hidden one.
    expect(records.events.map((e) => e.data.recordChanged)).toEqual([{ action: 'CREATED', kind: 'Course', id: expect.any(Number), record: { code: 'LIV' } }]);
    for (const s of [changes, pings, records]) s.stop();
  });

  it("gives a live ping its duration since the run's start, as the listing would", async () => {
    const code = await newCheck(w.alice.api_key, { name: 'timed live' });
    const [RUN_1, RUN_2] = ['8f2f7a3e-4b1c-4c7e-9a51-0d6f3b2c1a01', '8f2f7a3e-4b1c-4c7e-9a51-0d6f3b2c1a02'];
    await w.ping(`/ping/${code}/start?rid=${RUN_1}`);
    // An earlier run whose success comes later must not be taken for this one's start.
    await w.ping(`/ping/${code}/start?rid=${RUN_2}`);
    const pings = collect(client({ 'X-Api-Key': w.alice.api_key }), 'subscription($id: ID!) { pings(checkId: $id) { n type duration } }', { id: code });
    await until(() => subscribed('ping'));
    w.clock.advance(4_000);
    await w.ping(`/ping/${code}?rid=${RUN_1}`);
    await pings.next(1);
    expect(pings.events[0].data.pings).toEqual({ n: 3, type: 'success', duration: 4 });
    const listed = await w.api('GET', `/api/v3/checks/${code}/pings/`);
    expect(listed.json.pings[0]).toMatchObject({ n: 3, duration: 4 });
    pings.stop();
  });

  it('refuses bad credentials with 4403 Forbidden', async () => {
    const closed = await new Promise<number>((resolve) => {
      const c = createClient({
        url: w.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams: { 'X-Api-Key': 'x'.repeat(32) },
        retryAttempts: 0,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      clients.push(c);
      c.subscribe({ query: 'subscription { flips { up } }' }, { next: () => {}, error: () => {}, complete: () => {} });
    });
    expect(closed).toBe(4403);
    const noKey = collect(client({}), 'subscription { flips { up } }');
    await noKey.next(1);
    expect(JSON.stringify(noKey.events[0] ?? noKey.failure())).toContain('missing api key');
  });

  it('releases every listener after 10,000 subscribe and unsubscribe cycles', async () => {
    const document = parse('subscription { flips { up } }');
    const before = w.app.deps.events.listenerCount('flip');
    const gc = (globalThis as { gc?: () => void }).gc!;
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10_000; i++) {
      const iterator = (await gqlSubscribe({ schema, document, contextValue: createContext(w.app.services, w.alice.api_key) })) as AsyncIterableIterator<unknown>;
      await iterator.return!();
    }
    expect(w.app.deps.events.listenerCount('flip')).toBe(before);
    // Over WebSocket too: 200 clients subscribe and go away. Identical subscriptions (same key,
    // document and variables) share one listener; each other one holds its own.
    const subs: Array<ReturnType<typeof collect>> = [];
    for (let i = 0; i < 200; i++) {
      const variables = i < 100 ? {} : { id: String(i) };
      const query = i < 100 ? 'subscription { flips { up } }' : 'subscription($id: ID) { flips(checkId: $id) { up } }';
      subs.push(collect(client({ 'X-Api-Key': w.alice.api_key }), query, variables));
    }
    // The 100 with a checkId name no check of alice's: each fails alone, holding nothing.
    await until(() => subs.slice(100).every((sub) => sub.failure()) && w.app.deps.events.listenerCount('flip') >= before + 1);
    expect(w.app.deps.events.listenerCount('flip')).toBe(before + 1);
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await until(() => w.app.deps.events.listenerCount('flip') === before);
    expect(w.app.deps.events.listenerCount('flip')).toBe(before);
    gc();
    // Nothing per subscription survives: the heap is back within a few MB of where it started.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(8 * 1024 * 1024);
    // A leak check, not a speed check: 10,000 cycles take 5 to 18 s depending on the machine's load.
  }, 90_000);
});

describe('SSE subscriptions', () => {
  it('delivers the same flip events over Server-Sent Events', async () => {
    const code = await newCheck(w.alice.api_key);
    const controller = new AbortController();
    const res = await fetch(`${w.url}/graphql`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'X-Api-Key': w.alice.api_key },
      body: JSON.stringify({ query: 'subscription($id: ID) { flips(checkId: $id) { newStatus } }', variables: { id: code } }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    await until(() => subscribed('flip'));
    await w.ping(`/ping/${code}`);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('newStatus')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('"flips":{"newStatus":"up"}');
    controller.abort();
  });
});

describe('query limits', () => {
  const deep = '{ project { checks { nodes { channels { uuid } } } } sections { nodes { course { sections { term { parent { parent { parent { parent { parent { parent { databaseId } } } } } } } } } } } }';

  it('refuses over-deep queries over HTTP', async () => {
    const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key }, body: JSON.stringify({ query: deep }) });
    const body = (await res.json()) as { errors?: Array<{ message: string }> };
    expect(body.errors?.[0]?.message).toMatch(/depth/i);
  });

  it('refuses them over WebSocket too', async () => {
    const sub = collect(client({ 'X-Api-Key': w.alice.api_key }), deep.replace(/^\{/, 'subscription { flips { check { name } } } query {'));
    await sub.next(1);
    expect(JSON.stringify(sub.events[0] ?? sub.failure())).toMatch(/depth/i);
  });
});
