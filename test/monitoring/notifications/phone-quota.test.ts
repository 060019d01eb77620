// Monthly quotas on SMS, WhatsApp messages and phone calls (Healthchecks' authorize_sms and
// authorize_call): counted against the account that owns the project, refused past the limit
// with Healthchecks' words and nothing sent, started over each calendar month (UTC), counted in
// the database so concurrent senders cannot overshoot, and once per message however often it
// is retried. The owner is told by mail, once per month and quota.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../helpers/world.ts';
import { mailTo, useHttpReceiver, useSmtpSink } from '../../helpers/fixtures.ts';
import { createProject } from '../../../src/monitoring/projects/service.ts';
import { authorizePhoneMessage, monthStart } from '../../../src/monitoring/notifications/phone-quota.ts';
import { incidentCheck, notificationsOf } from '../integrations/kinds/helpers.ts';
import { ownerOf, twilioEnv, WHATSAPP_ON } from '../integrations/kinds/twilio.ts';

const receiver = useHttpReceiver({ reset: true });
const sink = useSmtpSink({ reset: true });
let w: World;

beforeAll(async () => {
  w = await createWorld({ ...twilioEnv(receiver, { ...WHATSAPP_ON, SMS_MONTHLY_LIMIT: '2', CALL_MONTHLY_LIMIT: '1' }), ...mailTo(sink) });
});
afterAll(() => w.stop());

const profileOf = (personId: number) => w.app.db.accountProfile.findUniqueOrThrow({ where: { personId } });

describe('monthStart', () => {
  it('is the first instant of the month in UTC', () => {
    expect(monthStart(new Date('2026-01-31T23:59:59.999Z'))).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(monthStart(new Date('2026-02-01T00:00:00Z'))).toEqual(new Date('2026-02-01T00:00:00Z'));
    expect(monthStart(new Date('2026-12-15T12:00:00Z'))).toEqual(new Date('2026-12-01T00:00:00Z'));
  });
});

describe('the SMS quota', () => {
  it('refuses the limit+1th message of a month with "Monthly SMS limit exceeded", sending nothing; a new month starts over', async () => {
    w.clock.set('2026-01-05T10:00:00Z');
    const owner = await ownerOf(w, w.alice);
    const c = await incidentCheck(w, 'sms', '+15557654321');
    await c.down();
    await c.up();
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([
      { status: 'down', state: 'sent' },
      { status: 'up', state: 'sent' },
      { status: 'down', state: 'failed', attempts: 1, lastError: 'Monthly SMS limit exceeded' },
    ]);
    expect(receiver.requests).toHaveLength(2);
    expect(await profileOf(owner)).toMatchObject({ smsSent: 2 });

    w.clock.set('2026-02-01T00:00:00Z');
    await c.up();
    expect((await notificationsOf(w, c.channel.id)).at(-1)).toMatchObject({ status: 'up', state: 'sent' });
    expect(receiver.requests).toHaveLength(3);
    expect(await profileOf(owner)).toMatchObject({ smsSent: 1, lastSmsAt: new Date('2026-02-01T00:30:00Z') });
  });

  it('counts WhatsApp messages too, refused with "Monthly message limit exceeded"', async () => {
    w.clock.set('2026-03-10T08:00:00Z');
    const owner = await ownerOf(w, w.bob);
    const c = await incidentCheck(w, 'whatsapp', '+15557654321', { project: w.bob });
    await c.down();
    await c.up();
    await c.down();
    expect((await notificationsOf(w, c.channel.id)).map((n) => [n.state, n.lastError])).toEqual([
      ['sent', ''],
      ['sent', ''],
      ['failed', 'Monthly message limit exceeded'],
    ]);
    expect(receiver.requests).toHaveLength(2);
    expect(await profileOf(owner)).toMatchObject({ smsSent: 2, callsSent: 0 });
  });

  it('counts a message once however many attempts it takes', async () => {
    w.clock.set('2026-04-10T08:00:00Z');
    const project = await createProject(w.app.db, { name: 'Retries' });
    const owner = await ownerOf(w, project);
    const c = await incidentCheck(w, 'sms', '+15557654321', { project });
    receiver.respond(503);
    await c.down();
    receiver.respond(200);
    w.clock.advance(60_000);
    await w.app.notifier.tick();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'sent', attempts: 2 }]);
    expect(receiver.requests).toHaveLength(2);
    expect(await profileOf(owner)).toMatchObject({ smsSent: 1 });
  });
});

describe('the call quota', () => {
  it('refuses the limit+1th call of a month with "Monthly phone call limit exceeded", apart from the SMS count', async () => {
    w.clock.set('2026-05-10T08:00:00Z');
    const project = await createProject(w.app.db, { name: 'Calls' });
    const owner = await ownerOf(w, project);
    const c = await incidentCheck(w, 'call', '+15557654321', { project });
    await c.down();
    await c.up();
    await c.down();
    expect((await notificationsOf(w, c.channel.id)).map((n) => [n.state, n.lastError])).toEqual([
      ['sent', ''],
      ['failed', 'Monthly phone call limit exceeded'],
    ]);
    expect(receiver.requests).toHaveLength(1);
    expect(await profileOf(owner)).toMatchObject({ callsSent: 1, smsSent: 0 });
  });
});

describe('the owner’s notice', () => {
  const noticesTo = (personId: number) => w.app.db.notification.findMany({ where: { personId, reason: 'limit-notice' }, orderBy: { id: 'asc' } });

  it('mails the owner, in Healthchecks’ words, the first time a month the limit stops a message', async () => {
    w.clock.set('2026-09-10T08:00:00Z');
    const project = await createProject(w.app.db, { name: 'Noticed' });
    const owner = await ownerOf(w, project, 'olive');
    const c = await incidentCheck(w, 'sms', '+15557654321', { project, name: 'nightly' });
    await c.down();
    await c.up();
    await c.down(); // stopped: the notice is queued
    await c.up(); // stopped again: no second notice this month
    expect(await noticesTo(owner)).toHaveLength(1);
    await w.app.notifier.tick();
    const [mail] = await sink.waitFor(1);
    expect(mail!.to).toEqual(['olive@example.org']);
    expect(mail!.parsed.subject).toBe('Monthly SMS Limit Reached');
    expect(mail!.parsed.text).toContain(
      'We could not deliver a SMS notification to +155******321 because Campus Checks account olive@example.org has reached its monthly sending limit of 2 sends per month. The limit resets at the start of each month.',
    );
    expect(mail!.parsed.text).toContain('***\nThe check "nightly" is DOWN. Project: Noticed.');
    expect(await noticesTo(owner)).toMatchObject([{ state: 'sent' }]);

    w.clock.set('2026-10-01T00:00:00Z');
    // A new month: the count starts over (two more go out), then a new notice.
    await c.down();
    await c.up();
    await c.down();
    expect(await noticesTo(owner)).toHaveLength(2);
  });

  it('words the phone call notice as Healthchecks’ phone call mail', async () => {
    w.clock.set('2026-11-10T08:00:00Z');
    const project = await createProject(w.app.db, { name: 'Rings' });
    const owner = await ownerOf(w, project, 'rita');
    const c = await incidentCheck(w, 'call', '+15557654321', { project, name: 'db' });
    await c.down();
    await c.up();
    await c.down();
    await w.app.notifier.tick();
    const [mail] = await sink.waitFor(1);
    expect(mail!.parsed.subject).toBe('Monthly Phone Call Limit Reached');
    expect(mail!.parsed.text).toContain('has reached its monthly phone call limit of 1 calls per month.');
    expect(mail!.parsed.text).toContain('Here is the voice message we tried to deliver:\n\n***\nHello! A message from Campus Checks: The check "db" is down.\n***');
    expect(await noticesTo(owner)).toHaveLength(1);
  });
});

describe('authorizePhoneMessage', () => {
  it('lets exactly `limit` of many concurrent messages through, counted in the database', async () => {
    const project = await createProject(w.app.db, { name: 'Concurrent' });
    const owner = await ownerOf(w, project);
    const now = new Date('2026-06-10T08:00:00Z');
    const answers = await Promise.all(Array.from({ length: 12 }, () => authorizePhoneMessage(w.app.db, { projectId: project.id, quota: 'messages', limit: 5, now })));
    expect(answers.filter(Boolean)).toHaveLength(5);
    expect(await profileOf(owner)).toMatchObject({ smsSent: 5 });
  });

  it('starts over at the first instant of a month (UTC)', async () => {
    const project = await createProject(w.app.db, { name: 'Boundary' });
    await ownerOf(w, project);
    const ask = (at: string) => authorizePhoneMessage(w.app.db, { projectId: project.id, quota: 'calls', limit: 1, now: new Date(at) });
    expect(await ask('2026-07-31T23:59:59.000Z')).toBe(true);
    expect(await ask('2026-07-31T23:59:59.999Z')).toBe(false);
    expect(await ask('2026-08-01T00:00:00.000Z')).toBe(true);
    expect(await ask('2026-08-20T00:00:00.000Z')).toBe(false);
  });

  it('does not limit a project no account owns; a limit of 0 refuses every message of an owned one', async () => {
    const unowned = await createProject(w.app.db, { name: 'Unowned' });
    expect(await authorizePhoneMessage(w.app.db, { projectId: unowned.id, quota: 'messages', limit: 0, now: new Date() })).toBe(true);
    const owned = await createProject(w.app.db, { name: 'Owned' });
    await ownerOf(w, owned);
    expect(await authorizePhoneMessage(w.app.db, { projectId: owned.id, quota: 'messages', limit: 0, now: new Date() })).toBe(false);
  });
});
