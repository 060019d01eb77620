// Slack: the incoming-webhook URL a channel takes, and the alert posted to a local hook (Slack’s
// attachment payload, its 404 for a removed hook, SLACK_ENABLED).
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { flipDown, hookKindContract } from '../helpers.ts';

const receiver = useHttpReceiver();

hookKindContract('slack', { label: 'Slack', switch: 'SLACK_ENABLED', notAUrl: 'hooks.slack.com/services/x', receiver });

async function world(env: Record<string, string> = {}) {
  return createWorld({ SITE_NAME: 'Campus Checks', ...env });
}

describe('slack: the alert', () => {
  it('posts Slack’s attachment payload to slack hooks', async () => {
    const w = await world();
    try {
      const kind = 'slack';
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

  it('treats Slack’s 404 (a removed hook) as permanent, and a 500 as worth retrying', async () => {
    const w = await world();
    try {
      receiver.respond((r) => (r.path.includes('gone') ? 404 : 500));
      await flipDown(w, 'slack', `${receiver.url}/gone`, 'a');
      await flipDown(w, 'slack', `${receiver.url}/flaky`, 'b');
      const rows = await w.app.db.notification.findMany({ orderBy: { id: 'asc' } });
      expect(rows.map((n) => [n.state, n.lastError])).toEqual([
        ['failed', 'Received status code 404'],
        ['pending', 'Received status code 500'],
      ]);
    } finally {
      receiver.respond(200);
      await w.stop();
    }
  });
});
