// Discord: the webhook URL a channel takes, and the alert posted to a local hook (Slack’s payload
// at "<hook>/slack", DISCORD_ENABLED).
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { flipDown, hookKindContract } from '../helpers.ts';

const receiver = useHttpReceiver();

hookKindContract('discord', { label: 'Discord', switch: 'DISCORD_ENABLED', notAUrl: 'discord.com/api/webhooks/1', receiver });

async function world(env: Record<string, string> = {}) {
  return createWorld({ SITE_NAME: 'Campus Checks', ...env });
}

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
});
