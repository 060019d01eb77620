// Repeat alerts: while a check is down, its channels are reminded every period.
import { expect, it } from 'vitest';
import { useHttpReceiver, useWorldPerTest } from '../../helpers/fixtures.ts';
import { createChannel } from '../../../src/monitoring/integrations/service.ts';
import { setNagPeriod } from '../../../src/monitoring/notifications/service.ts';

const receiver = useHttpReceiver({ reset: true });
const w = useWorldPerTest();

const events = () => receiver.requests.map((r) => JSON.parse(r.body).event as string);

it('reminds every period while a check is down, and stops when it is up again', async () => {
  await setNagPeriod(w.app.db, w.alice.id, 3600);
  const channel = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/hook` });
  const check = await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', channels: channel.code } });
  await w.ping(`/ping/${check.json.uuid}/fail`);
  await w.app.notifier.tick();
  expect(events()).toEqual(['flip']);

  w.clock.advance(3599_000);
  await w.app.notifier.tick();
  expect(events()).toEqual(['flip']);
  w.clock.advance(1_000);
  await w.app.notifier.tick();
  expect(events()).toEqual(['flip', 'reminder']);
  const reminder = JSON.parse(receiver.requests[1]!.body);
  expect(reminder).toMatchObject({ status: 'down', flip: null });
  expect(reminder.check.uuid).toBe(check.json.uuid);

  w.clock.advance(3600_000);
  await w.app.notifier.tick();
  expect(events()).toEqual(['flip', 'reminder', 'reminder']);

  await w.ping(`/ping/${check.json.uuid}`);
  await w.app.notifier.tick();
  w.clock.advance(10 * 3600_000);
  await w.app.notifier.tick();
  expect(events()).toEqual(['flip', 'reminder', 'reminder', 'flip']);
  expect((await w.app.db.project.findUnique({ where: { id: w.alice.id } }))!.nagNextAt).toBeNull();
});

it('sends no reminders when the period is off, or to a channel that is disabled', async () => {
  const channel = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/hook` });
  const check = await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', channels: channel.code } });
  await w.ping(`/ping/${check.json.uuid}/fail`);
  await w.app.notifier.tick();
  w.clock.advance(48 * 3600_000);
  await w.app.notifier.tick();
  expect(events()).toEqual(['flip']);

  await setNagPeriod(w.app.db, w.alice.id, 60);
  await w.app.db.channel.update({ where: { id: channel.id }, data: { disabled: true } });
  for (let i = 0; i < 3; i++) {
    w.clock.advance(60_000);
    await w.app.notifier.tick();
  }
  expect(events()).toEqual(['flip']);
  expect(await w.app.db.notification.count({ where: { reason: 'nag' } })).toBe(0);
});

it('refuses a period outside 60 s to 30 days', async () => {
  await expect(setNagPeriod(w.app.db, w.alice.id, 59)).rejects.toThrow('nag period must be between 60 and 2592000 seconds');
  await expect(setNagPeriod(w.app.db, w.alice.id, 2592001)).rejects.toThrow('nag period must be between');
  await expect(setNagPeriod(w.app.db, 'no-such-project', 60)).rejects.toThrow('project not found');
});

it('deletes sent and failed notifications older than NOTIFY_KEEP_DAYS, keeps pending ones and newer ones', async () => {
  const channel = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/hook` });
  const row = (code: string, state: string, daysAgo: number) => ({
    code,
    channelId: channel.id,
    reason: 'test',
    status: 'down',
    state,
    eventAt: w.clock.now(),
    nextAttemptAt: w.clock.now(),
    createdAt: new Date(w.clock.now().getTime() - daysAgo * 86_400_000),
  });
  await w.app.db.notification.createMany({
    data: [row('old-sent', 'sent', 91), row('old-failed', 'failed', 91), row('old-pending', 'pending', 91), row('recent', 'sent', 89)],
  });
  await w.app.db.notification.updateMany({ where: { code: 'old-pending' }, data: { nextAttemptAt: new Date(w.clock.now().getTime() + 3600_000) } });
  await w.app.notifier.tick();
  const left = await w.app.db.notification.findMany({ orderBy: { code: 'asc' } });
  expect(left.map((n) => n.code)).toEqual(['old-pending', 'recent']);
});
