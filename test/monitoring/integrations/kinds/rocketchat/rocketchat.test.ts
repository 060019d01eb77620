// Rocket.Chat: the incoming-webhook URL a channel takes, and the alert posted to a local hook
// (its own payload, ROCKETCHAT_ENABLED).
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
  return createWorld({ SITE_NAME: 'Campus Checks', ...env });
}

describe('rocketchat: the value', () => {
  it('accepts an http(s) incoming-webhook URL', () => {
    expect(validateChannelInput({ kind: 'rocketchat', value: 'https://chat.example.org/hooks/abc' })).toMatchObject({ kind: 'rocketchat', notifyDown: true, notifyUp: true });
  });

  it('refuses a value that is not an http(s) URL', () => {
    expect(refusal(() => validateChannelInput({ kind: 'rocketchat', value: 'ftp://chat.example.org/hooks/rc' }))).toBe('value is not a valid http(s) URL');
  });
});

describe('rocketchat: the alert', () => {
  it('posts Rocket.Chat’s own shape', async () => {
    const w = await world();
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'rocketchat', `${receiver.url}/hooks/rc`, 'weekly');
      const [req] = await receiver.waitFor(1);
      expect(req!.path).toBe('/hooks/rc');
      const rocket = JSON.parse(req!.body);
      expect(rocket.alias).toBe('Campus Checks');
      expect(rocket.text).toMatch(/^\[weekly\]\(http.*\/api\/v3\/checks\/[0-9a-f-]{36}\) is DOWN\.$/);
      expect(rocket.attachments[0].color).toBe('#d9534f');
    } finally {
      await w.stop();
    }
  });

  it('is refused for good when ROCKETCHAT_ENABLED is False, and nothing is sent', async () => {
    const w = await world({ ROCKETCHAT_ENABLED: 'False' });
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'rocketchat', `${receiver.url}/hook`);
      expect(await w.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Rocket.Chat notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await w.stop();
    }
  });
});
