// The per-subscriber event iterator: order kept, bounded buffer, prompt release, and wake-ups
// of many waiting subscribers spread over turns of the event loop.
import { expect, it } from 'vitest';
import { MonitoringEvents, subscribe, type FlipEvent } from '../../src/events/bus.ts';

const flip = (n: number): FlipEvent => ({ checkId: n, checkCode: `c${n}`, projectId: 'p', oldStatus: 'up', newStatus: 'down', at: new Date(n), reason: '' });
const turn = () => new Promise((r) => setImmediate(r));

it('delivers every event in order to a subscriber that keeps up', async () => {
  const bus = new MonitoringEvents();
  const it = subscribe(bus, 'flip', () => true);
  const first = it.next();
  bus.emit('flip', flip(1));
  bus.emit('flip', flip(2));
  expect((await first).value!.checkId).toBe(1);
  expect((await it.next()).value!.checkId).toBe(2);
  await it.return!();
  expect(bus.listenerCount('flip')).toBe(0);
});

it('keeps only the newest events for a subscriber that falls behind, counting the dropped', async () => {
  const bus = new MonitoringEvents();
  const it = subscribe(bus, 'flip', () => true, 3);
  for (let n = 1; n <= 5; n++) bus.emit('flip', flip(n));
  expect(it.dropped()).toBe(2);
  const got = [(await it.next()).value!.checkId, (await it.next()).value!.checkId, (await it.next()).value!.checkId];
  expect(got).toEqual([3, 4, 5]);
  await it.return!();
});

it('wakes 1,000 waiting subscribers a slice per turn, all of them in the end', async () => {
  const bus = new MonitoringEvents();
  const received: number[] = [];
  const iterators = Array.from({ length: 1000 }, (_, i) => {
    const it = subscribe(bus, 'flip', () => true);
    void it.next().then(() => received.push(i));
    return it;
  });
  bus.emit('flip', flip(1));
  expect(received).toHaveLength(0); // nothing runs inside emit()
  await turn();
  expect(received.length).toBeGreaterThan(0);
  expect(received.length).toBeLessThan(1000);
  for (let i = 0; i < 10 && received.length < 1000; i++) await turn();
  expect(received).toHaveLength(1000);
  await Promise.all(iterators.map((it) => it.return!()));
  expect(bus.listenerCount('flip')).toBe(0);
});

it('ends a waiting subscriber on return() even with a wake-up pending', async () => {
  const bus = new MonitoringEvents();
  const it = subscribe(bus, 'flip', () => true);
  const pending = it.next();
  bus.emit('flip', flip(1));
  await it.return!();
  expect(await pending).toEqual({ value: undefined, done: true });
});
