// WhatsApp: the phone number a channel takes, the template message through a Twilio-compatible
// endpoint (down and up templates, the check's name as the variable, the status callback), and
// Healthchecks' switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { refuseKindNotOffered, validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { offeredChannelKinds } from '../../../../../src/monitoring/integrations/kinds/index.ts';
import { loadConfig } from '../../../../../src/config/index.ts';
import { inspectConfig } from '../../../../../src/config/index.ts';
import { flipDown, incidentCheck, notificationsOf, refusal } from '../helpers.ts';
import { formOf, twilioEnv, WHATSAPP_ON } from '../twilio.ts';

const receiver = useHttpReceiver({ reset: true });
let w: World;

beforeAll(async () => {
  w = await createWorld(twilioEnv(receiver, WHATSAPP_ON));
});
afterAll(() => w.stop());

describe('whatsapp: the value', () => {
  it('accepts an E.164 number and refuses anything else', () => {
    expect(validateChannelInput({ kind: 'whatsapp', value: '+15551234567' })).toMatchObject({ kind: 'whatsapp', value: '+15551234567', notifyDown: true, notifyUp: true });
    expect(refusal(() => validateChannelInput({ kind: 'whatsapp', value: '555-1234' }))).toBe('value is not a valid phone number (E.164, e.g. +15551234567)');
  });

  it('is offered only with every WhatsApp setting; otherwise a new channel is refused naming them', () => {
    expect(offeredChannelKinds(loadConfig(twilioEnv(receiver, WHATSAPP_ON)).notify)).toContain('whatsapp');
    const { TWILIO_USE_WHATSAPP: _off, ...rest } = WHATSAPP_ON;
    expect(refusal(() => refuseKindNotOffered('whatsapp', offeredChannelKinds(loadConfig(twilioEnv(receiver, rest)).notify)))).toBe(
      "WhatsApp notifications are not enabled. The server's operator turns them on with TWILIO_USE_WHATSAPP=True, TWILIO_ACCOUNT, TWILIO_AUTH, TWILIO_FROM, TWILIO_MESSAGING_SERVICE_SID, WHATSAPP_DOWN_CONTENT_SID and WHATSAPP_UP_CONTENT_SID.",
    );
  });
});

describe('whatsapp: the alert', () => {
  it('posts the down template to whatsapp:<number> with the messaging service, the name and the status callback', async () => {
    const c = await incidentCheck(w, 'whatsapp', '+15557654321', { name: 'nightly <backup>' });
    await c.down();
    const [req] = await receiver.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/twilio/2010-04-01/Accounts/AC123/Messages.json');
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    const [n] = await notificationsOf(w, c.channel.id);
    expect(formOf(req!.body)).toEqual({
      To: 'whatsapp:+15557654321',
      From: 'whatsapp:+15550001111',
      MessagingServiceSid: 'MG42',
      ContentSid: 'HXdown',
      ContentVariables: '{"1":"nightly <backup>"}',
      StatusCallback: `https://hc.example.org/api/v3/notifications/${n!.code}/status`,
    });
    expect(n).toMatchObject({ state: 'sent', lastError: '' });
  });

  it('posts the up template when the check comes back', async () => {
    const c = await incidentCheck(w, 'whatsapp', '+15557654321');
    await c.down();
    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(formOf(up!.body)).toMatchObject({ ContentSid: 'HXup', ContentVariables: '{"1":"backup"}' });
  });
});

describe('whatsapp: switched off', () => {
  it('is refused for good unless TWILIO_USE_WHATSAPP is true, and nothing is sent', async () => {
    const { TWILIO_USE_WHATSAPP: _off, ...rest } = WHATSAPP_ON;
    const off = await createWorld(twilioEnv(receiver, rest));
    try {
      await flipDown(off, 'whatsapp', '+15557654321');
      expect(await off.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'WhatsApp notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });

  it('is named at the configuration check when TWILIO_USE_WHATSAPP is on without its templates', () => {
    const report = inspectConfig({ ...twilioEnv(receiver), TWILIO_USE_WHATSAPP: 'True', TWILIO_MESSAGING_SERVICE_SID: 'MG42' });
    expect(report.warnings.map((w) => w.message)).toContain('WhatsApp alerts are off: TWILIO_USE_WHATSAPP is on but WHATSAPP_DOWN_CONTENT_SID, WHATSAPP_UP_CONTENT_SID are not set');
    // The messaging service alone is an SMS setting: no WhatsApp warning.
    expect(inspectConfig({ ...twilioEnv(receiver), TWILIO_MESSAGING_SERVICE_SID: 'MG42' }).warnings).toEqual([]);
  });
});
