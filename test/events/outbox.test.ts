// The event outbox (src/events/outbox.ts) on two gateways sharing a database and Redis: a
// committed event whose publisher died before publishing it reaches subscribers on the other
// instance, once; the fast path leaves no row behind; an event Redis could not take waits in
// the outbox and goes out when Redis is back; one instance alone writes nothing. (The same
// with a real SIGKILL after the commit: test/e2e/outbox-kill.test.ts.)
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { createWorld, type World } from '../helpers/world.ts';
import { freePort, privateRedis, SKIPPED, testRedisUrl, uniqueNamespace, waitFor, type PrivateRedis } from '../helpers/redis.ts';
import { taggedJson } from '../../src/events/tagged-json.ts';
import { checkChangedEvent } from '../../src/monitoring/write-events.ts';
import { addMember } from '../../src/identity/memberships.ts';
import type { AccessChangedEvent } from '../../src/events/bus.ts';

const url = testRedisUrl();
const fast = { retryMinMs: 10, retryMaxMs: 50 };
const worlds: World[] = [];
const clients: Client[] = [];
const servers: PrivateRedis[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  for (const w of worlds.splice(0).reverse()) await w.stop();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function world(env: Record<string, string>, namespace = uniqueNamespace()) {
  const w = await createWorld(env, { eventFanout: { namespace, ...fast } });
  worlds.push(w);
  return w;
}

const CHANGES = 'subscription($id: ID) { checkChanged(checkId: $id) { change check { name } } }';
function changes(w: World, key: string, code: string) {
  const client = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': key }, retryAttempts: 0 });
  clients.push(client);
  const events: Array<{ change: string; name: string } | { error: unknown }> = [];
  client.subscribe(
    { query: CHANGES, variables: { id: code } },
    { next: (v) => events.push(v.data ? { change: (v.data as any).checkChanged.change, name: (v.data as any).checkChanged.check.name } : { error: v.errors }), error: (error) => events.push({ error }), complete: () => {} },
  );
  return events;
}
const subscribed = (w: World, before: number) => waitFor('the subscription', () => w.app.deps.events.listenerCount('checkChanged') > before);
const newCheck = async (w: World, key: string, name = 'nightly') => (await w.api('POST', '/api/v3/checks/', { key, body: { name, timeout: 60, grace: 60 } })).json.uuid as string;
const outboxRows = (w: World) => w.app.db.eventOutbox.count();
const fanoutUp = (w: World) => (w.app.deps.events as unknown as { fanoutUp: boolean }).fanoutUp;

describe.skipIf(!url)(`the event outbox with two gateways${url ? '' : SKIPPED}`, () => {
  it('delivers on B, once, what A committed and never published; the relay removes the row', async () => {
    const namespace = uniqueNamespace();
    const a = await world({ REDIS_URL: url! }, namespace);
    const b = await world({ REDIS_URL: url!, DATABASE_URL: a.databaseUrl }, namespace);
    await waitFor('fan-out up', () => fanoutUp(a) && fanoutUp(b));
    const key = a.alice.api_key;
    const code = await newCheck(b, key);
    await waitFor('no rows left by the check’s creation', async () => (await outboxRows(a)) === 0);
    const idle = b.app.deps.events.listenerCount('checkChanged');
    const onB = changes(b, key, code);
    await subscribed(b, idle);

    // What A's transaction committed before it died: its outbox row, a few seconds old.
    const check = await a.app.db.check.findFirstOrThrow({ where: { code } });
    const renamed = { ...check, name: 'renamed by A' };
    const row = await a.app.db.eventOutbox.create({
      data: { topic: 'checkChanged', payload: taggedJson.stringify(checkChangedEvent('updated', renamed)), createdAt: new Date(a.clock.now().getTime() - 10_000) },
    });
    // B's relay sends it (its timer may have already: every instance's relay runs every second).
    await b.app.outboxRelay!.runOnce();
    await waitFor('the event on B', () => onB.length >= 1);
    expect(onB).toEqual([{ change: 'UPDATED', name: 'renamed by A' }]);
    await waitFor('the row removed', async () => (await outboxRows(a)) === 0);

    // Published again (a second relay that read the row before it was removed): nobody delivers it twice.
    expect(await a.app.deps.events.publishCommitted('checkChanged', checkChangedEvent('updated', renamed), row.id)).toBe(true);
    // A later event through the same channel arrives after the repeat would have.
    expect(await a.app.deps.events.publishCommitted('checkChanged', checkChangedEvent('paused', { ...check, name: 'marker' }), row.id + 1_000_000)).toBe(true);
    await waitFor('the marker on B', () => onB.length >= 2);
    expect(onB).toEqual([{ change: 'UPDATED', name: 'renamed by A' }, { change: 'PAUSED', name: 'marker' }]);
  });

  it('publishes at once after the commit and removes the row once Redis has it', async () => {
    const namespace = uniqueNamespace();
    const a = await world({ REDIS_URL: url! }, namespace);
    const b = await world({ REDIS_URL: url!, DATABASE_URL: a.databaseUrl }, namespace);
    const key = a.alice.api_key;
    const code = await newCheck(a, key);
    const idle = b.app.deps.events.listenerCount('checkChanged');
    const onB = changes(b, key, code);
    await subscribed(b, idle);
    expect((await a.api('POST', `/api/v3/checks/${code}/pause`, { key })).status).toBe(200);
    await waitFor('the pause on B', () => onB.length >= 1);
    expect(onB).toEqual([{ change: 'PAUSED', name: 'nightly' }]);
    await waitFor('the outbox emptied by the fast path', async () => (await outboxRows(a)) === 0);
  });

  it('keeps what Redis could not take, delivered here at once, and sends it to B once Redis is back', async () => {
    const server = privateRedis(await freePort());
    servers.push(server);
    await server.start();
    const namespace = uniqueNamespace();
    const a = await world({ REDIS_URL: server.url }, namespace);
    const b = await world({ REDIS_URL: server.url, DATABASE_URL: a.databaseUrl }, namespace);
    const key = a.alice.api_key;
    const code = await newCheck(a, key);
    const idle = b.app.deps.events.listenerCount('checkChanged');
    const onA = changes(a, key, code);
    const onB = changes(b, key, code);
    const accessOnB: AccessChangedEvent[] = [];
    b.app.deps.events.on('accessChanged', (e) => void accessOnB.push(e));
    await subscribed(b, idle);
    await subscribed(a, idle);
    const { person_id: personId } = await a.campusToken('Staff');
    await addMember(a.app.services.identity, a.alice.id, personId, 'regular');
    await waitFor('no rows left', async () => (await outboxRows(a)) === 0);

    await server.stop();
    await waitFor('fan-out down on A', () => !fanoutUp(a));
    expect((await a.api('POST', `/api/v3/checks/${code}/pause`, { key })).status).toBe(200);
    await waitFor('the pause on A (its own subscriber)', () => onA.length >= 1);
    // A role lowered while Redis is away: the person's subscriptions everywhere must hear of it.
    await addMember(a.app.services.identity, a.alice.id, personId, 'readonly');
    // The pause's flip and its check change, and the access change.
    expect(await outboxRows(a)).toBe(3);
    a.clock.advance(5_000);
    // Redis still away: the relay sends nothing and keeps the row.
    expect(await a.app.outboxRelay!.runOnce()).toBe(0);
    expect(await outboxRows(a)).toBe(3);
    expect(accessOnB).toEqual([]);

    await server.start();
    await waitFor('fan-out up again', () => fanoutUp(a) && fanoutUp(b), 15_000);
    await a.app.outboxRelay!.runOnce();
    await waitFor('the pause on B', () => onB.length >= 1);
    expect(onB).toEqual([{ change: 'PAUSED', name: 'nightly' }]);
    await waitFor('the access change on B', () => accessOnB.length >= 1);
    expect(accessOnB).toEqual([{ personId, projectId: a.alice.id, sessionId: null }]);
    // A had it already: the relayed copy is not delivered there again.
    expect(onA).toEqual([{ change: 'PAUSED', name: 'nightly' }]);
    await waitFor('the row removed', async () => (await outboxRows(a)) === 0);
  });
});

describe('one gateway without Redis', () => {
  it('writes nothing to the outbox, and its subscribers still hear every change', async () => {
    const w = await world({});
    const key = w.alice.api_key;
    const code = await newCheck(w, key);
    const idle = w.app.deps.events.listenerCount('checkChanged');
    const events = changes(w, key, code);
    await subscribed(w, idle);
    expect((await w.api('POST', `/api/v3/checks/${code}/pause`, { key })).status).toBe(200);
    await waitFor('the pause', () => events.length >= 1);
    expect(events).toEqual([{ change: 'PAUSED', name: 'nightly' }]);
    expect(await outboxRows(w)).toBe(0);
    expect(w.app.outboxRelay).toBeNull();
  });
});
