// SMS: the phone number a channel takes, and the alert through a Twilio-compatible endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../../../../helpers/world.ts';
import { startHttpReceiver, type HttpReceiver } from '../../../../helpers/receivers.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { flipDown, refusal } from '../helpers.ts';

let receiver: HttpReceiver;

beforeAll(async () => {
  receiver = await startHttpReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function world(env: Record<string, string> = {}) {
  return createWorld({
    TWILIO_ACCOUNT: 'AC123',
    TWILIO_AUTH: 'secret',
    TWILIO_FROM: '+15550001111',
    TWILIO_API_URL: `${receiver.url}/twilio`,
    SITE_NAME: 'Campus Checks',
    SITE_ROOT: 'https://hc.example.org',
    ...env,
  });
}

describe('sms: the value', () => {
  it('accepts an E.164 number', () => {
    expect(validateChannelInput({ kind: 'sms', value: '+15551234567' }).value).toBe('+15551234567');
  });

  it('refuses a number that is not E.164 with its message', () => {
    expect(refusal(() => validateChannelInput({ kind: 'sms', value: '5551234567' }))).toBe('value is not a valid phone number (E.164, e.g. +15551234567)');
    expect(refusal(() => validateChannelInput({ kind: 'sms', value: '+0123456789' }))).toBe('value is not a valid phone number (E.164, e.g. +15551234567)');
  });
});

describe('sms: the alert', () => {
  it('posts to the Twilio Messages API with basic auth, from, to and a short text', async () => {
    const w = await world();
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'sms', '+15557654321');
      const [req] = await receiver.waitFor(1);
      expect(req!.method).toBe('POST');
      expect(req!.path).toBe('/twilio/2010-04-01/Accounts/AC123/Messages.json');
      expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
      const form = new URLSearchParams(req!.body);
      expect(form.get('From')).toBe('+15550001111');
      expect(form.get('To')).toBe('+15557654321');
      expect(form.get('Body')).toBe('The check "backup" is DOWN. Project: Alice. Last ping: Failure, 2026-01-05 10:00 UTC.');
      // Healthchecks' fields: where Twilio reports the delivery, and no SMS pumping check.
      const [n] = await w.app.db.notification.findMany();
      expect(form.get('StatusCallback')).toBe(`https://hc.example.org/api/v3/notifications/${n!.code}/status`);
      expect(form.get('RiskCheck')).toBe('disable');
      expect(form.has('MessagingServiceSid')).toBe(false);
      expect(n).toMatchObject({ state: 'sent' });
    } finally {
      await w.stop();
    }
  });

  it('sends from the messaging service instead of the number when TWILIO_MESSAGING_SERVICE_SID is set', async () => {
    const w = await world({ TWILIO_MESSAGING_SERVICE_SID: 'MG42' });
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'sms', '+15557654321');
      const form = new URLSearchParams((await receiver.waitFor(1))[0]!.body);
      expect(form.get('MessagingServiceSid')).toBe('MG42');
      expect(form.has('From')).toBe(false);
    } finally {
      await w.stop();
    }
  });

  it('fails for good with "Invalid phone number" when Twilio answers 400 with code 21211', async () => {
    const w = await world();
    try {
      receiver.requests.length = 0;
      receiver.respond(() => ({ status: 400, headers: { 'Content-Type': 'application/json' }, body: '{"code": 21211, "message": "The \'To\' number is not valid."}' }));
      await flipDown(w, 'sms', '+15557654321');
      expect(await w.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Invalid phone number' }]);
    } finally {
      receiver.respond(200);
      await w.stop();
    }
  });

  it('fails with a clear error when Twilio is not configured', async () => {
    const w = await createWorld();
    try {
      await flipDown(w, 'sms', '+15557654321');
      const [n] = await w.app.db.notification.findMany();
      expect(n).toMatchObject({ state: 'failed' });
      expect(n!.lastError).toContain('TWILIO_ACCOUNT');
    } finally {
      await w.stop();
    }
  });
});
