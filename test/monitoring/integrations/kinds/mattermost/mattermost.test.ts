// Mattermost: the incoming-webhook URL a channel takes, and the alert posted to a local hook
// (Slack’s attachment payload, MATTERMOST_ENABLED).
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { flipDown, hookKindContract } from '../helpers.ts';

const receiver = useHttpReceiver();

hookKindContract('mattermost', { label: 'Mattermost', switch: 'MATTERMOST_ENABLED', notAUrl: 'not a url', receiver });

async function world(env: Record<string, string> = {}) {
  return createWorld({ SITE_NAME: 'Campus Checks', ...env });
}

describe('mattermost: the alert', () => {
  it('posts Slack’s attachment payload to mattermost hooks', async () => {
    const w = await world();
    try {
      const kind = 'mattermost';
      receiver.requests.length = 0;
      await flipDown(w, kind, `${receiver.url}/${kind}/hook`, `job-${kind}`, { tags: 'prod' });
      const [req] = await receiver.waitFor(1);
      expect(req!.path).toBe(`/${kind}/hook`);
      const payload = JSON.parse(req!.body);
      expect(payload.username).toBe('Campus Checks');
      const [attachment] = payload.attachments;
      expect(attachment).toMatchObject({ color: 'danger', fallback: `The check "job-${kind}" is DOWN.`, title: `“job-${kind}” is DOWN.` });
      expect(attachment.fields).toEqual(
        expect.arrayContaining([
          { title: 'Project', value: 'Alice', short: true },
          { title: 'Tags', value: '`prod`', short: true },
          { title: 'Period', value: '1 day', short: true },
          { title: 'Total Pings', value: '2', short: true },
          { title: 'Last Ping Body', value: '```\ndisk full\n```' },
        ]),
      );
    } finally {
      await w.stop();
    }
  });
});
