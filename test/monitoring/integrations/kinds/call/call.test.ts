// Phone calls: the number a channel takes (down only), the call through a Twilio-compatible
// Calls API with Healthchecks' spoken text as TwiML and the status callback, no call when the
// check comes back up, and a clear refusal when Twilio is not configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { refuseKindNotOffered, validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { offeredChannelKinds } from '../../../../../src/monitoring/integrations/kinds/index.ts';
import { loadConfig } from '../../../../../src/config/index.ts';
import { flipDown, incidentCheck, notificationsOf, refusal } from '../helpers.ts';
import { formOf, twilioEnv } from '../twilio.ts';

const receiver = useHttpReceiver({ reset: true });
let w: World;

beforeAll(async () => {
  w = await createWorld(twilioEnv(receiver));
});
afterAll(() => w.stop());

describe('call: the value', () => {
  it('takes an E.164 number and notifies of down only (Healthchecks makes no call for up)', () => {
    expect(validateChannelInput({ kind: 'call', value: '+15551234567' })).toMatchObject({ kind: 'call', notifyDown: true, notifyUp: false });
    expect(refusal(() => validateChannelInput({ kind: 'call', value: '15551234567' }))).toBe('value is not a valid phone number (E.164, e.g. +15551234567)');
    expect(refusal(() => validateChannelInput({ kind: 'call', value: '+15551234567', notifyDown: false }))).toBe('a channel must notify of down, up or both');
  });

  it('is offered only with Twilio configured; otherwise a new channel is refused naming the settings', () => {
    expect(offeredChannelKinds(loadConfig(twilioEnv(receiver)).notify)).toContain('call');
    expect(refusal(() => refuseKindNotOffered('call', offeredChannelKinds(loadConfig({}).notify)))).toBe(
      "Call notifications are not enabled. The server's operator turns them on with TWILIO_ACCOUNT, TWILIO_AUTH and TWILIO_FROM.",
    );
  });
});

describe('call: the alert', () => {
  it('posts a call with the spoken text as TwiML (escaped) and the status callback', async () => {
    const c = await incidentCheck(w, 'call', '+15557654321', { name: 'db <primary> & co' });
    await c.down();
    const [req] = await receiver.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/twilio/2010-04-01/Accounts/AC123/Calls.json');
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    const [n] = await notificationsOf(w, c.channel.id);
    expect(formOf(req!.body)).toEqual({
      From: '+15550001111',
      To: '+15557654321',
      Twiml: '<Response><Say>Hello! A message from Campus Checks: The check "db &lt;primary&gt; &amp; co" is down.</Say></Response>',
      StatusCallback: `https://hc.example.org/api/v3/notifications/${n!.code}/status`,
    });
    expect(n).toMatchObject({ state: 'sent' });
  });

  it('makes no call when the check comes back up', async () => {
    const c = await incidentCheck(w, 'call', '+15557654321');
    await c.down();
    await c.up();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ status: 'down', state: 'sent' }]);
    expect(receiver.requests).toHaveLength(1);
  });

  it('is refused for good when Twilio is not configured, and nothing is sent', async () => {
    const bare = await createWorld();
    try {
      await flipDown(bare, 'call', '+15557654321');
      expect(await bare.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Call notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await bare.stop();
    }
  });
});
