// Rocket.Chat: the incoming-webhook URL a channel takes, and the alert posted to a local hook
// (its own payload, ROCKETCHAT_ENABLED).
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { flipDown, hookKindContract } from '../helpers.ts';

const receiver = useHttpReceiver();

hookKindContract('rocketchat', { label: 'Rocket.Chat', switch: 'ROCKETCHAT_ENABLED', notAUrl: 'ftp://chat.example.org/hooks/rc', receiver });

async function world(env: Record<string, string> = {}) {
  return createWorld({ SITE_NAME: 'Campus Checks', ...env });
}

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
});
