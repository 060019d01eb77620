// Discord: the webhook URL a channel takes, and the alert posted to a local hook (Slack’s payload
// at "<hook>/slack", DISCORD_ENABLED).
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

describe('discord: the value', () => {
  it('accepts an http(s) incoming-webhook URL', () => {
    expect(validateChannelInput({ kind: 'discord', value: 'https://chat.example.org/hooks/abc' })).toMatchObject({ kind: 'discord', notifyDown: true, notifyUp: true });
  });

  it('refuses a value that is not an http(s) URL', () => {
    expect(refusal(() => validateChannelInput({ kind: 'discord', value: 'discord.com/api/webhooks/1' }))).toBe('value is not a valid http(s) URL');
  });
});

describe('discord: the alert', () => {
  it('posts Slack’s payload to "<hook>/slack"', async () => {
    const w = await world();
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'discord', `${receiver.url}/api/webhooks/1/abc`, 'nightly');
      const [discord] = await receiver.waitFor(1);
      expect(discord!.path).toBe('/api/webhooks/1/abc/slack');
      expect(JSON.parse(discord!.body).attachments[0].title).toBe('“nightly” is DOWN.');
    } finally {
      await w.stop();
    }
  });

  it('is refused for good when DISCORD_ENABLED is False, and nothing is sent', async () => {
    const w = await world({ DISCORD_ENABLED: 'False' });
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'discord', `${receiver.url}/hook`);
      expect(await w.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Discord notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await w.stop();
    }
  });
});
