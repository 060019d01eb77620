// Healthchecks' WhatsApp and phone call channels in our form: PhoneConf's number, WhatsApp's
// up/down flags as stored, and a call that sends down only (Healthchecks stores no flags for it).
import { describe, expect, it } from 'vitest';
import { mapChannel } from '../../../src/drop-in/healthchecks/channels.ts';
import type { HcChannel } from '../../../src/drop-in/healthchecks/model.ts';

const channel = (kind: string, value: string): HcChannel => ({ pk: 1, code: '8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d', project: 1, name: 'On call', created: new Date(0), kind, value, disabled: false, emailVerified: true, checks: [] });
const fields = (kind: string, value: string) => {
  const mapped = mapChannel(channel(kind, value));
  return { supported: mapped.supported, kind: mapped.fields.kind, value: mapped.fields.value, down: mapped.fields.notifyDown, up: mapped.fields.notifyUp, disabled: mapped.fields.disabled };
};

describe('phone channels from Healthchecks', () => {
  it('whatsapp: the number, with the statuses its PhoneConf sends', () => {
    expect(fields('whatsapp', '{"value": "+15551234567", "up": false, "down": true}')).toEqual({ supported: true, kind: 'whatsapp', value: '+15551234567', down: true, up: false, disabled: false });
    expect(fields('whatsapp', '{"value": "+15551234567", "up": true, "down": true}')).toMatchObject({ down: true, up: true });
  });

  it('call: the number of PhoneNumberForm\'s {"value"}, down only', () => {
    expect(fields('call', '{"value": "+15551234567"}')).toEqual({ supported: true, kind: 'call', value: '+15551234567', down: true, up: false, disabled: false });
    expect(fields('call', '+15551234567')).toMatchObject({ kind: 'call', value: '+15551234567', down: true, up: false });
  });

  it('keeps a number our validation refuses, disabled, saying why', () => {
    expect(mapChannel(channel('call', '{"value": "555 1234"}'))).toMatchObject({ supported: false, fields: { kind: 'call', disabled: true }, note: expect.stringContaining('its call configuration is not valid here') });
  });
});
