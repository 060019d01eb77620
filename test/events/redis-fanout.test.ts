// Two buses in one process stand for two instances, each with its own Redis connections: what
// one publishes reaches the subscribers of both once, equal and in order; local-only topics stay
// home; metrics count their own instance's events; a Redis outage degrades to local delivery
// and heals by itself.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RedisFanoutEvents } from '../../src/events/redis-fanout.ts';
import { createMetrics } from '../../src/metrics/metrics.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { subscribe, type GatewayEventMap, type RemoteOrigin } from '../../src/events/bus.ts';
import { freePort, privateRedis, SKIPPED, testRedisUrl, uniqueNamespace, waitFor, type PrivateRedis } from '../helpers/redis.ts';
import { sampleCheck, sampleFlip, samplePing } from './samples.ts';

const url = testRedisUrl();
const buses: RedisFanoutEvents[] = [];
const servers: PrivateRedis[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

/** Two instances on one namespace; resolves when both are subscribed (unless Redis is down). */
async function pair(redisUrl: string, waitUp = true) {
  const namespace = uniqueNamespace();
  const a = new RedisFanoutEvents({ url: redisUrl, namespace, retryMinMs: 10, retryMaxMs: 50 });
  const b = new RedisFanoutEvents({ url: redisUrl, namespace, retryMinMs: 10, retryMaxMs: 50 });
  buses.push(a, b);
  if (waitUp) await waitFor('fan-out up', () => a.fanoutUp && b.fanoutUp);
  return [a, b] as const;
}

/** Everything `bus` delivers on `topic`, with the origin listeners are given. */
function record<K extends keyof GatewayEventMap>(bus: RedisFanoutEvents, topic: K) {
  const got: Array<{ payload: GatewayEventMap[K][0]; from: RemoteOrigin | undefined }> = [];
  bus.on(topic, ((payload: GatewayEventMap[K][0], from?: RemoteOrigin) => got.push({ payload, from })) as never);
  return got;
}

const flip = (n: number) => ({ ...sampleFlip, checkId: n, at: new Date(Date.UTC(2026, 0, 5, 10, 0, 0, n)) });

describe.skipIf(!url)(`two instances on one Redis${url ? '' : SKIPPED}`, () => {
  it('delivers an event published on A to the subscribers of A and B once each, deep-equal, origin told', async () => {
    const [a, b] = await pair(url!);
    const onA = { flip: record(a, 'flip'), check: record(a, 'checkChanged'), ping: record(a, 'ping') };
    const onB = { flip: record(b, 'flip'), check: record(b, 'checkChanged'), ping: record(b, 'ping') };
    const checkChanged = { projectId: 'p1', checkId: 7, change: 'ping' as const, check: sampleCheck };
    const ping = { projectId: 'p1', checkId: 7, ping: samplePing(Buffer.from('exit 0\n\u0000\u00ff', 'latin1')) };
    a.emit('checkChanged', checkChanged);
    a.emit('ping', ping);
    a.emit('flip', sampleFlip);
    // Nothing is delivered on the spot: A hears its own events back from Redis, like B.
    expect(onA.flip).toHaveLength(0);
    // A later event on the same topic arriving means every earlier one (and any repeat) has too.
    a.emit('flip', flip(999));
    await waitFor('the last flip on A and B', () => onA.flip.length === 2 && onB.flip.length === 2);
    for (const [mine, got] of [[true, onA], [false, onB]] as const) {
      const from = mine ? undefined : { remote: true, origin: a.instanceId };
      expect(got.check).toStrictEqual([{ payload: checkChanged, from }]);
      expect(got.ping).toStrictEqual([{ payload: ping, from }]);
      expect(got.flip).toStrictEqual([{ payload: sampleFlip, from }, { payload: flip(999), from }]);
    }
    expect(Buffer.isBuffer(onB.ping[0]!.payload.ping.body)).toBe(true);
  });

  it('keeps the order of each topic, also with both instances publishing', async () => {
    const [a, b] = await pair(url!);
    const onA = record(a, 'flip');
    const onB = record(b, 'flip');
    const fromB = record(a, 'recordChanged');
    for (let n = 1; n <= 300; n++) {
      a.emit('flip', flip(n));
      b.emit('recordChanged', { kind: 'people', action: 'updated', record: { ID: n } } as never);
    }
    await waitFor('300 flips on each and 300 records on A', () => onA.length === 300 && onB.length === 300 && fromB.length === 300);
    const sequence = Array.from({ length: 300 }, (_, i) => i + 1);
    expect(onA.map((e) => e.payload.checkId)).toEqual(sequence);
    expect(onB.map((e) => e.payload.checkId)).toEqual(sequence);
    expect(fromB.map((e) => e.payload.record.ID)).toEqual(sequence);
  });

  it('serves subscribe() iterators on the other instance', async () => {
    const [a, b] = await pair(url!);
    const it = subscribe(b, 'flip', (f) => f.checkId === 2);
    a.emit('flip', flip(1));
    a.emit('flip', flip(2));
    expect((await it.next()).value).toStrictEqual(flip(2));
    await it.return!();
  });

  it('keeps monitorPass and inboundEmail in the instance that emits them, delivered at once', async () => {
    const [a, b] = await pair(url!);
    const passes = [record(a, 'monitorPass'), record(b, 'monitorPass')];
    const emails = [record(a, 'inboundEmail'), record(b, 'inboundEmail')];
    a.emit('monitorPass', { wentDown: 1, rescheduled: 0, durationMs: 2 });
    a.emit('inboundEmail', { outcome: 'accepted' });
    expect(passes[0]).toHaveLength(1);
    expect(emails[0]).toHaveLength(1);
    // A fanned-out event after them has crossed Redis: had they travelled, they would be there.
    const flips = record(b, 'flip');
    a.emit('flip', sampleFlip);
    await waitFor('the flip on B', () => flips.length === 1);
    expect(passes[1]).toHaveLength(0);
    expect(emails[1]).toHaveLength(0);
  });

  it("counts flips, pings and notification outcomes in the publishing instance's metrics only", async () => {
    const [a, b] = await pair(url!);
    const metrics = [a, b].map((events) =>
      createMetrics({
        events,
        clock: systemClock,
        onStatement: () => () => {},
        websocketConnections: () => 0,
        sharedSubscriptions: () => ({ listeners: 0, subscribers: 0 }),
        pendingNotifications: async () => ({ count: 0, oldest: null }),
        eventFanoutUp: () => events.fanoutUp,
      }),
    );
    const seen = record(b, 'notification');
    a.emit('flip', sampleFlip);
    a.emit('ping', { projectId: 'p1', checkId: 7, ping: samplePing(null) });
    const at = new Date();
    a.emit('notification', { projectId: 'p1', channelId: 1, kind: 'webhook', checkId: 7, notificationId: 1, code: 'c', reason: 'flip', status: 'down', state: 'sent', attempt: 1, error: '', queuedAt: at, at });
    await waitFor('the notification on B', () => seen.length === 1);
    const value = async (i: number, name: string) => (await metrics[i]!.registry.getSingleMetric(name)!.get()).values.reduce((sum, v) => sum + v.value, 0);
    for (const name of ['gateway_flips_recorded_total', 'gateway_pings_ingested_total', 'gateway_notifications_total']) {
      expect([name, await value(0, name), await value(1, name)]).toEqual([name, 1, 0]);
    }
    expect(await value(0, 'gateway_event_fanout_up')).toBe(1);
    for (const m of metrics) m.close();
  });
});

describe.skipIf(!url)(`Redis unavailable${url ? '' : SKIPPED}`, () => {
  it('delivers locally without throwing while Redis is down, from the start and after a crash, and heals by itself', async () => {
    const server = privateRedis(await freePort());
    servers.push(server);
    // Down at start: nothing listens on the port yet.
    const [a, b] = await pair(server.url, false);
    const onA = record(a, 'flip');
    const onB = record(b, 'flip');
    expect(a.fanoutUp).toBe(false);
    expect(() => a.emit('flip', flip(1))).not.toThrow();
    expect(onA.map((e) => e.payload.checkId)).toEqual([1]);

    await server.start();
    await waitFor('fan-out up after Redis started', () => a.fanoutUp && b.fanoutUp);
    a.emit('flip', flip(2));
    await waitFor('flip 2 on both', () => onA.length === 2 && onB.length === 1);

    await server.stop();
    await waitFor('fan-out down after Redis died', () => !a.fanoutUp && !b.fanoutUp);
    expect(() => a.emit('flip', flip(3))).not.toThrow();
    expect(onA.map((e) => e.payload.checkId)).toEqual([1, 2, 3]);

    await server.start();
    await waitFor('fan-out up again', () => a.fanoutUp && b.fanoutUp);
    b.emit('flip', flip(4));
    await waitFor('flip 4 on both', () => onA.length === 4 && onB.length === 2);
    // Each exactly once: a last flip through Redis brings any repeat before it.
    b.emit('flip', flip(5));
    await waitFor('flip 5 on both', () => onA.length === 5 && onB.length === 3);
    expect(onA.map((e) => e.payload.checkId)).toEqual([1, 2, 3, 4, 5]);
    expect(onB.map((e) => e.payload.checkId)).toEqual([2, 4, 5]);
  });

  it('closes cleanly while Redis is down, and delivers locally after close', async () => {
    const [a] = await pair(`redis://127.0.0.1:${await freePort()}`, false);
    const onA = record(a, 'flip');
    await a.close();
    a.emit('flip', sampleFlip);
    expect(onA).toHaveLength(1);
  });
});
