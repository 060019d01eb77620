// The outbox's bookkeeping under failure: leases that run out, retries overtaken by a newer
// alert, channels disabled meanwhile, rows that never get an outcome, shutdown mid-queue.
import { afterEach, expect, it } from 'vitest';
import { restartWorld, useHttpReceiver, useWorldPerTest } from '../../helpers/fixtures.ts';
import { postgresUnderTest } from '../../helpers/postgres.ts';
import { waitFor } from '../../helpers/redis.ts';
import { createChannel } from '../../../src/monitoring/integrations/service.ts';
import { sqliteNotificationStore } from '../../../src/monitoring/notifications/sqlite-store.ts';

const receiver = useHttpReceiver({ reset: true });
const w = useWorldPerTest();
// Held requests are let go before the world stops (this hook runs before the fixtures' ones).
afterEach(() => receiver.release());

async function webhookCheck() {
  const channel = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/hook` });
  const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', channels: channel.code } });
  return { uuid: created.json.uuid as string, channel };
}
const rows = () => w.app.db.notification.findMany({ orderBy: { id: 'asc' } });

it.skipIf(postgresUnderTest())('only the attempt that holds the lease sends: a worker whose lease ran out does not (SQLite only: postgres-notifications.test.ts)', async () => {
  const { uuid } = await webhookCheck();
  await w.ping(`/ping/${uuid}/fail`);
  const store = sqliteNotificationStore(w.app.exclusive);
  const t0 = w.clock.now();
  const [first] = await store.claimDue(t0, 10, new Date(t0.getTime() + 1_000));
  // Nobody else can take it while leased.
  expect(await store.claimDue(t0, 10, new Date(t0.getTime() + 1_000))).toEqual([]);
  const later = new Date(t0.getTime() + 1_001);
  const [second] = await store.claimDue(later, 10, new Date(later.getTime() + 1_000));
  expect([first!.attempt, second!.attempt]).toEqual([1, 2]);
  expect(await store.startAttempt(first!.id, 1, later)).toBe(false);
  expect(await store.markSent({ id: first!.id, attempt: 1, durationMs: 1, at: later })).toBe(false);
  expect(await store.startAttempt(second!.id, 2, later)).toBe(true);
  expect(await store.markSent({ id: second!.id, attempt: 2, durationMs: 1, at: later })).toBe(true);
  expect(await rows()).toMatchObject([{ state: 'sent', attempts: 2 }]);
});

it('a retry still waiting when the check recovers is superseded: the receiver gets UP, not a stale DOWN after it', async () => {
  receiver.respond(500);
  const { uuid } = await webhookCheck();
  await w.ping(`/ping/${uuid}/fail`);
  await w.app.notifier.tick();
  receiver.respond(200);
  await w.ping(`/ping/${uuid}`);
  expect((await rows()).map((n) => [n.status, n.state, n.lastError])).toEqual([
    ['down', 'failed', 'Superseded by a later alert about this check'],
    ['up', 'pending', ''],
  ]);
  w.clock.advance(3600_000);
  await w.app.notifier.tick();
  expect(receiver.requests.map((r) => JSON.parse(r.body).status)).toEqual(['down', 'up']);
});

it('a notification not yet tried is not superseded: DOWN then UP both go out, in order', async () => {
  const { uuid } = await webhookCheck();
  await w.ping(`/ping/${uuid}/fail`);
  await w.ping(`/ping/${uuid}`);
  await w.app.notifier.tick();
  expect(receiver.requests.map((r) => JSON.parse(r.body).status)).toEqual(['down', 'up']);
});

it('a channel disabled while a retry waits gets nothing more', async () => {
  receiver.respond(500);
  const { uuid, channel } = await webhookCheck();
  await w.ping(`/ping/${uuid}/fail`);
  await w.app.notifier.tick();
  await w.app.db.channel.update({ where: { id: channel.id }, data: { disabled: true } });
  w.clock.advance(60_000);
  await w.app.notifier.tick();
  expect(receiver.requests).toHaveLength(1);
  expect(await rows()).toMatchObject([{ state: 'failed', attempts: 2, lastError: 'The channel is disabled' }]);
});

it('gives up a notification claimed more often than the attempts allow without an outcome (a process killed each time)', async () => {
  const { uuid } = await webhookCheck();
  await w.ping(`/ping/${uuid}/fail`);
  await w.app.db.notification.updateMany({ data: { attempts: 7 } });
  await w.app.notifier.tick();
  expect(receiver.requests).toHaveLength(0);
  expect(await rows()).toMatchObject([{ state: 'failed', attempts: 8, lastError: 'Gave up after 7 attempts without an outcome' }]);
});

it('on shutdown, finishes the attempt under way and gives back the one queued behind it, untried', async () => {
  receiver.hold();
  const { uuid } = await webhookCheck();
  await w.ping(`/ping/${uuid}/fail`);
  await w.ping(`/ping/${uuid}`);
  w.app.notifier.start();
  await receiver.waitFor(1);
  const stopping = w.app.notifier.stop();
  receiver.release();
  await stopping;
  expect(receiver.requests).toHaveLength(1);
  expect((await rows()).map((n) => [n.status, n.state, n.attempts])).toEqual([
    ['down', 'sent', 1],
    ['up', 'pending', 0],
  ]);
});

it('looks at the outbox when a flip notifies, not for a first ping (new → up)', async () => {
  // Its timer ten minutes away: a delivery within the test comes from the flip waking it.
  await restartWorld(w, { NOTIFY_POLL_MS: '600000' });
  const { uuid } = await webhookCheck();
  const outbox: string[] = [];
  const stop = w.app.onStatement((sql) => {
    if (sql.includes('"Notification"')) outbox.push(sql);
  });
  try {
    w.app.notifier.start();
    // The start's look ends with the read of the next due time (either database's statement).
    const nextDueRead = /MIN\("nextAttemptAt"\)|ORDER BY n\."nextAttemptAt" LIMIT 1/;
    await waitFor('the start to look at the outbox', () => outbox.some((sql) => nextDueRead.test(sql)));
    outbox.length = 0;
    await w.ping(`/ping/${uuid}`);
    await new Promise((r) => setTimeout(r, 20));
    expect(outbox).toEqual([]);
    await w.ping(`/ping/${uuid}/fail`);
    await receiver.waitFor(1, 2000);
    expect(outbox.length).toBeGreaterThan(0);
    expect(receiver.requests).toHaveLength(1);
  } finally {
    stop();
  }
});
