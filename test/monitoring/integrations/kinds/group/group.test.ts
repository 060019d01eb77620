// Group: the value is Healthchecks' list of member channel UUIDs (channels of the same project,
// not groups). A group's alert is queued as one notification per member when the flip is
// recorded: each member gets it once (also when assigned directly as well), a member's retry
// sends to that member only, a deleted or disabled member is left out, reminders and tests
// reach the members too. Real webhooks to a local receiver throughout.
import { expect, it, describe } from 'vitest';
import { useHttpReceiver, useWorldPerTest } from '../../../../helpers/fixtures.ts';
import { createChannel, deleteChannel, updateChannel, validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { setNagPeriod, testChannel } from '../../../../../src/monitoring/notifications/service.ts';
import { recipients } from '../../../../../src/monitoring/notifications/recipients.ts';
import { DomainError } from '../../../../../src/shared/errors.ts';
import { refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const w = useWorldPerTest();

const hook = (path: string) => createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/${path}` });
const paths = () => receiver.requests.map((r) => r.path).sort();

/** A check in alice's project notifying `channels`, failed once (new → down): its uuid. */
async function failingCheck(channels: string[]) {
  const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', channels: channels.join(',') } });
  await w.ping(`/ping/${created.json.uuid}/fail`);
  await w.app.notifier.tick();
  return created.json.uuid as string;
}

async function groupRefusal(run: () => Promise<unknown>): Promise<string> {
  const err = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe('VALIDATION');
  return (err as Error).message;
}

describe('group: the members', () => {
  it('takes channels of the project that are not groups', async () => {
    const [a, b] = [await hook('a'), await hook('b')];
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: `${a.code},${b.code}`, name: 'On call' });
    expect(group).toMatchObject({ kind: 'group', value: `${a.code},${b.code}`, notifyDown: true, notifyUp: true });
  });

  it('refuses ids that are not channels of the project, groups, and itself, naming the id and why', async () => {
    const a = await hook('a');
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: a.code });
    const bobs = await createChannel(w.app.db, w.bob.id, { kind: 'webhook', value: `${receiver.url}/bob` });
    const missing = '3f1c9a2b-0000-4000-8000-000000000000';
    const create = (value: string) => groupRefusal(() => createChannel(w.app.db, w.alice.id, { kind: 'group', value }));
    expect(await create(`${a.code},${missing}`)).toBe(`Select a valid choice. ${missing} is not one of the available choices (no channel of this project has that id).`);
    expect(await create(bobs.code)).toBe(`Select a valid choice. ${bobs.code} is not one of the available choices (no channel of this project has that id).`);
    expect(await create(group.code)).toBe(`Select a valid choice. ${group.code} is not one of the available choices (a group cannot be a member of a group).`);
    expect(await groupRefusal(() => updateChannel(w.app.db, w.alice.id, group.code, { value: `${a.code},${group.code}` }))).toBe(
      `Select a valid choice. ${group.code} is not one of the available choices (a group cannot be its own member).`,
    );
    expect(refusal(() => validateChannelInput({ kind: 'group', value: 'alice@example.org' }))).toBe('Select a valid choice. alice@example.org is not one of the available choices (not a channel id).');
    expect(refusal(() => validateChannelInput({ kind: 'group', value: ' , ' }))).toBe('value must list the member channels’ ids, separated by commas');
    expect(await w.app.db.channel.count({ where: { kind: 'group' } })).toBe(1);
  });
});

describe('group: the alerts', () => {
  it('sends a flip to each member once, as a notification of its own', async () => {
    const [a, b] = [await hook('a'), await hook('b')];
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: `${a.code},${b.code}` });
    await failingCheck([group.code]);
    expect(paths()).toEqual(['/a', '/b']);
    const rows = await w.app.db.notification.findMany({ orderBy: { channelId: 'asc' } });
    expect(rows.map((n) => [n.channelId, n.state])).toEqual([
      [a.id, 'sent'],
      [b.id, 'sent'],
    ]);
  });

  it('sends once to a member that is also assigned directly or through a second group', async () => {
    const [a, b] = [await hook('a'), await hook('b')];
    const g1 = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: `${a.code},${b.code}` });
    const g2 = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: b.code });
    await failingCheck([a.code, g1.code, g2.code]);
    expect(paths()).toEqual(['/a', '/b']);
    expect(await w.app.db.notification.count()).toBe(2);
  });

  it('retries a failed member alone: the member that had it is not sent it again', async () => {
    const [a, b] = [await hook('a'), await hook('b')];
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: `${a.code},${b.code}` });
    receiver.respond((req) => (req.path === '/b' ? 503 : 200));
    await failingCheck([group.code]);
    expect(paths()).toEqual(['/a', '/b']);
    expect(await w.app.db.notification.findFirst({ where: { channelId: b.id } })).toMatchObject({ state: 'pending', lastError: 'Received status code 503' });

    receiver.respond(200);
    w.clock.advance(60_000);
    await w.app.notifier.tick();
    expect(paths()).toEqual(['/a', '/b', '/b']);
    expect((await w.app.db.notification.findMany({ orderBy: { channelId: 'asc' } })).map((n) => [n.channelId, n.state, n.attempts])).toEqual([
      [a.id, 'sent', 1],
      [b.id, 'sent', 2],
    ]);
  });

  it('leaves out a member deleted since and one that is disabled; a disabled group sends nothing', async () => {
    const [a, b, c] = [await hook('a'), await hook('b'), await hook('c')];
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: `${a.code},${b.code},${c.code}` });
    await deleteChannel(w.app.db, b.code);
    await updateChannel(w.app.db, null, c.code, { disabled: true });
    await failingCheck([group.code]);
    expect(paths()).toEqual(['/a']);

    receiver.requests.length = 0;
    await updateChannel(w.app.db, null, group.code, { disabled: true });
    await failingCheck([group.code]);
    expect(paths()).toEqual([]);
  });

  it('reminds each member of a down check, once', async () => {
    const [a, b] = [await hook('a'), await hook('b')];
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: `${a.code},${b.code}` });
    await setNagPeriod(w.app.db, w.alice.id, 3600);
    await failingCheck([a.code, group.code]);
    w.clock.advance(3600_000);
    await w.app.notifier.tick();
    const events = receiver.requests.map((r) => `${r.path} ${JSON.parse(r.body).event}`).sort();
    expect(events).toEqual(['/a flip', '/a reminder', '/b flip', '/b reminder']);
  });
});

describe('group: the test', () => {
  it('tests each member, and says how many failed as Healthchecks does', async () => {
    const [a, b] = [await hook('a'), await hook('b')];
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: `${a.code},${b.code}` });
    expect(await testChannel(w.app.db, w.app.notifier, w.alice.id, group.code, w.clock.now())).toMatchObject({ state: 'sent', error: '' });
    expect(paths()).toEqual(['/a', '/b']);

    receiver.respond((req) => (req.path === '/a' ? 500 : 200));
    const failed = await testChannel(w.app.db, w.app.notifier, w.alice.id, group.code, w.clock.now());
    expect(failed).toMatchObject({ state: 'failed', error: '1 out of 2 notifications failed' });
    // The result names the failed member's test notification.
    expect(await w.app.db.notification.findUnique({ where: { code: failed.id } })).toMatchObject({ channelId: a.id, reason: 'test', state: 'failed' });
  });

  it('refuses to test a group none of whose members is left', async () => {
    const a = await hook('a');
    const group = await createChannel(w.app.db, w.alice.id, { kind: 'group', value: a.code });
    await deleteChannel(w.app.db, a.code);
    expect(await groupRefusal(() => testChannel(w.app.db, w.app.notifier, w.alice.id, group.code, w.clock.now()))).toBe('The group has no member channels to test');
  });
});

describe('group: recipients, the pure rule', () => {
  const ch = (id: number, o: Partial<{ disabled: boolean; notifyDown: boolean; notifyUp: boolean }> = {}) => ({ id, disabled: false, notifyDown: true, notifyUp: true, ...o });
  it('takes the assigned channels first, then the groups’ members that take the status, each once, no nested groups', () => {
    const nested = { ...ch(9), members: [ch(10)] };
    const group = { ...ch(5), members: [ch(1), ch(2, { notifyUp: false }), ch(3, { disabled: true }), { ...ch(4), members: [] }] };
    expect(recipients([ch(1), group, nested], 'down').map((c) => c.id)).toEqual([1, 2, 10]);
    expect(recipients([ch(1), group], 'up').map((c) => c.id)).toEqual([1]);
    expect(recipients([{ ...group, notifyDown: false }], 'down')).toEqual([]);
  });
});
