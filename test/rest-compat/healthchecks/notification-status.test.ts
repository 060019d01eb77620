// POST /api/v<n>/notifications/<code>/status: Twilio's delivery reports (Healthchecks'
// notification_status). A failed message or call becomes the notification's error and the
// channel's last error; any other status changes nothing; the code is the only key.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../helpers/world.ts';
import { useHttpReceiver } from '../../helpers/fixtures.ts';
import { lastErrorsOf } from '../../../src/monitoring/notifications/last-errors.ts';
import { flipDown } from '../../monitoring/integrations/kinds/helpers.ts';
import { twilioEnv } from '../../monitoring/integrations/kinds/twilio.ts';

const receiver = useHttpReceiver({ reset: true });
let w: World;

beforeAll(async () => {
  w = await createWorld(twilioEnv(receiver));
});
afterAll(() => w.stop());

/** A fresh SMS alert, sent: its notification. */
async function sentSms(kind = 'sms') {
  const before = await w.app.db.notification.count();
  await flipDown(w, kind, '+15557654321');
  const n = await w.app.db.notification.findFirstOrThrow({ orderBy: { id: 'desc' } });
  expect(await w.app.db.notification.count()).toBe(before + 1);
  expect(n.state).toBe('sent');
  return n;
}

const report = (code: string, fields: Record<string, string>, version = 3) =>
  w.api('POST', `/api/v${version}/notifications/${code}/status`, {
    key: null,
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

const channelError = async (channelId: number) => (await lastErrorsOf(w.app.db, [channelId])).get(channelId);

describe('a failure report', () => {
  it('marks the notification failed with Healthchecks’ words, and becomes the channel’s last error', async () => {
    const n = await sentSms();
    const r = await report(n.code, { MessageSid: 'SM1', MessageStatus: 'undelivered', ErrorCode: '30003' });
    expect(r.status).toBe(200);
    expect(await w.app.db.notification.findUniqueOrThrow({ where: { id: n.id } })).toMatchObject({ state: 'failed', lastError: 'Delivery failed (status=undelivered).' });
    expect(await channelError(n.channelId!)).toBe('Delivery failed (status=undelivered).');
  });

  it('takes MessageStatus=failed, and a call that failed, was busy or was not answered', async () => {
    for (const [fields, error] of [
      [{ MessageStatus: 'failed' }, 'Delivery failed (status=failed).'],
      [{ CallStatus: 'failed' }, 'Delivery failed (status=failed).'],
      [{ CallStatus: 'busy' }, 'Delivery failed (status=busy).'],
      [{ CallStatus: 'no-answer' }, 'Delivery failed (status=no-answer).'],
    ] as const) {
      const n = await sentSms();
      expect((await report(n.code, fields, 1)).status).toBe(200);
      expect(await w.app.db.notification.findUniqueOrThrow({ where: { id: n.id } })).toMatchObject({ state: 'failed', lastError: error });
    }
  });

  it('is the channel’s last error even when a later alert went through meanwhile (Healthchecks overwrites last_error)', async () => {
    const first = await sentSms();
    const channelId = first.channelId!;
    // A second alert to the same channel, delivered.
    const check = await w.app.db.check.findFirstOrThrow({ where: { id: first.checkId! } });
    await w.ping(`/ping/${check.code}`);
    await w.app.notifier.tick();
    expect(await channelError(channelId)).toBe('');
    w.clock.advance(1000);
    expect((await report(first.code, { MessageStatus: 'failed' })).status).toBe(200);
    expect(await channelError(channelId)).toBe('Delivery failed (status=failed).');
  });

  it('comes too late an hour after the last attempt: answered, nothing recorded', async () => {
    const n = await sentSms();
    w.clock.advance(60 * 60 * 1000 + 1);
    expect((await report(n.code, { MessageStatus: 'failed' })).status).toBe(200);
    expect(await w.app.db.notification.findUniqueOrThrow({ where: { id: n.id } })).toMatchObject({ state: 'sent', lastError: '' });
  });
});

describe('other reports', () => {
  it('change nothing for queued, sent, delivered, ringing or completed', async () => {
    const n = await sentSms();
    const statuses: Array<Record<string, string>> = [{ MessageStatus: 'queued' }, { MessageStatus: 'sent' }, { MessageStatus: 'delivered' }, { CallStatus: 'ringing' }, { CallStatus: 'completed' }, {}];
    for (const fields of statuses) {
      expect((await report(n.code, fields)).status).toBe(200);
    }
    expect(await w.app.db.notification.findUniqueOrThrow({ where: { id: n.id } })).toMatchObject({ state: 'sent', lastError: '', lastAttemptAt: n.lastAttemptAt });
    expect(await channelError(n.channelId!)).toBe('');
  });
});

describe('refusals', () => {
  it('answers 404 for a code no notification has, or one that is not a UUID', async () => {
    expect(await report(randomUUID(), { MessageStatus: 'failed' })).toMatchObject({ status: 404, json: { error: 'not found' } });
    expect((await report('not-a-code', { MessageStatus: 'failed' })).status).toBe(404);
  });

  it('answers 400 for a body that is not a form, 405 for other methods, and records nothing', async () => {
    const n = await sentSms();
    const json = await w.api('POST', `/api/v3/notifications/${n.code}/status`, { key: null, body: { MessageStatus: 'failed' } });
    expect(json).toMatchObject({ status: 400, json: { error: 'expected a form (application/x-www-form-urlencoded)' } });
    const notUtf8 = await w.api('POST', `/api/v3/notifications/${n.code}/status`, { key: null, rawBody: 'MessageStatus=%FF', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(notUtf8).toMatchObject({ status: 400, json: { error: 'could not parse request body' } });
    expect((await w.api('GET', `/api/v3/notifications/${n.code}/status`, { key: null })).status).toBe(405);
    expect(await w.app.db.notification.findUniqueOrThrow({ where: { id: n.id } })).toMatchObject({ state: 'sent', lastError: '' });
  });
});
