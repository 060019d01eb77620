// The notification store on PostgreSQL (the TEST_DB=postgres pass), as several instances (several
// pools) share it: a row is claimed by one of them at a time, only the attempt holding the lease
// records an outcome, and notifications to one channel about one check go out in queue order.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresNotificationStore } from '../../../src/monitoring/notifications/postgres-store.ts';
import type { NewNotification } from '../../../src/monitoring/notifications/outbox.ts';
import type { NotificationStore } from '../../../src/monitoring/notifications/store.ts';
import { T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { postgresUnderTest, testPool } from '../../helpers/postgres.ts';

const url = postgresUnderTest();
const later = (ms: number) => new Date(T0.getTime() + ms);

describe.skipIf(!url)(`notification store on PostgreSQL${url ? '' : ' (skipped: TEST_DB=postgres not set)'}`, () => {
  const w = useWorld();
  const pools: pg.Pool[] = [];
  const store = (): NotificationStore => {
    const p = testPool({ connectionString: w.databaseUrl, max: 4 });
    pools.push(p);
    return postgresNotificationStore(p, () => {});
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  /** `channels` × `checks` (channel, check) pairs of a fresh project's rows. */
  async function pairs(prefix: string, channels: number, checks: number) {
    await w.app.db.channel.createMany({ data: Array.from({ length: channels }, (_, i) => ({ code: `${prefix}-ch-${i}`, projectId: w.alice.id, kind: 'email', value: 'a@example.org' })) });
    await w.app.db.check.createMany({ data: Array.from({ length: checks }, (_, i) => ({ code: `${prefix}-${i}`, uniqueKey: `${prefix}-u-${i}`, badgeKey: `${prefix}-b-${i}`, projectId: w.alice.id })) });
    const channelIds = (await w.app.db.channel.findMany({ where: { code: { startsWith: `${prefix}-ch-` } }, select: { id: true } })).map((c) => c.id);
    const checkIds = (await w.app.db.check.findMany({ where: { code: { startsWith: `${prefix}-` } }, select: { id: true } })).map((c) => c.id);
    return channelIds.flatMap((channelId) => checkIds.map((checkId) => ({ channelId, checkId })));
  }

  const row = (p: { channelId: number; checkId: number }, at = T0): NewNotification => ({
    code: randomUUID(), ...p, flipId: null, reason: 'nag', status: 'down', eventAt: at, nextAttemptAt: at, createdAt: at,
  });

  it('only the attempt that holds the lease sends: a worker whose lease ran out does not', async () => {
    const [pair] = await pairs('lease', 1, 1);
    const s = store();
    await s.insert([row(pair!)]);
    const [first] = await s.claimDue(T0, 10, later(1_000));
    // Nobody else can take it while leased.
    expect(await store().claimDue(T0, 10, later(1_000))).toEqual([]);
    const [second] = await store().claimDue(later(1_001), 10, later(2_001));
    expect([first!.attempt, second!.attempt]).toEqual([1, 2]);
    expect(second).toMatchObject({ id: first!.id, channelId: pair!.channelId, checkId: pair!.checkId, eventAt: T0, createdAt: T0 });
    expect(await s.startAttempt(first!.id, 1, later(1_001))).toBe(false);
    expect(await s.markSent({ id: first!.id, attempt: 1, durationMs: 1, at: later(1_001) })).toBe(false);
    expect(await s.startAttempt(second!.id, 2, later(1_001))).toBe(true);
    expect(await s.markSent({ id: second!.id, attempt: 2, durationMs: 1, at: later(1_001) })).toBe(true);
    expect(await w.app.db.notification.findUniqueOrThrow({ where: { id: first!.id } })).toMatchObject({ state: 'sent', attempts: 2, sentAt: later(1_001) });
  });

  it('never gives one row to two instances claiming at the same time', async () => {
    const all = await pairs('race', 10, 50);
    await store().insert(all.map((p) => row(p)));
    const instances = [store(), store()];
    const claimed: number[] = [];
    // Four workers, two per instance, each claiming 7 at a time until nothing is left.
    await Promise.all(
      [0, 1, 0, 1].map(async (i) => {
        for (;;) {
          const batch = await instances[i]!.claimDue(later(1), 7, later(60_000));
          if (batch.length === 0) return;
          claimed.push(...batch.map((n) => n.id));
        }
      }),
    );
    expect(claimed).toHaveLength(500);
    expect(new Set(claimed).size).toBe(500);
    expect(await w.app.db.notification.count({ where: { checkId: { not: null }, channel: { code: { startsWith: 'race-ch-' } }, attempts: 1 } })).toBe(500);
  });

  it('sends notifications to one channel about one check one after another, in queue order, across instances', async () => {
    const [pair] = await pairs('order', 1, 1);
    const a = store();
    const b = store();
    await a.insert([row(pair!), row(pair!), row(pair!)]);
    const ids = (await w.app.db.notification.findMany({ where: { checkId: pair!.checkId }, orderBy: { id: 'asc' } })).map((n) => n.id);
    const [first, ...none] = await a.claimDue(T0, 10, later(30_000));
    expect([first!.id, none]).toEqual([ids[0], []]);
    // The second waits for the first, whichever instance asks; the next due time is the lease's end.
    expect(await b.claimDue(T0, 10, later(30_000))).toEqual([]);
    expect(await b.nextDueAt()).toEqual(later(30_000));
    expect(await a.markRetry({ id: first!.id, attempt: 1, durationMs: 5, at: later(10) }, later(5_000), 'HTTP 500')).toBe(true);
    // Still pending (its retry comes first): the queue waits for it.
    expect(await b.claimDue(later(20), 10, later(30_020))).toEqual([]);
    const [retried] = await b.claimDue(later(5_000), 10, later(35_000));
    expect(retried).toMatchObject({ id: ids[0], attempt: 2 });
    expect(await b.markSent({ id: ids[0]!, attempt: 2, durationMs: 5, at: later(5_010) })).toBe(true);
    expect((await a.claimDue(later(5_010), 10, later(35_010))).map((n) => n.id)).toEqual([ids[1]]);
  });

  it('gives claimed rows back untried, and counts what is pending', async () => {
    const [pair] = await pairs('release', 1, 1);
    const s = store();
    const before = await s.pendingStats();
    const claimed = await s.insertClaimed(row(pair!, later(100)), later(30_000));
    expect(claimed.attempt).toBe(1);
    await s.release([{ id: claimed.id, attempt: 1 }], later(200));
    expect(await w.app.db.notification.findUniqueOrThrow({ where: { id: claimed.id } })).toMatchObject({ attempts: 0, nextAttemptAt: later(200), createdAt: later(100) });
    const after = await s.pendingStats();
    expect(after.count).toBe(before.count + 1);
  });
});
