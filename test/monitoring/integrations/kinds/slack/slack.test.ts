// Slack: the incoming-webhook URL a channel takes, and the alert posted to a local hook (Slack’s
// attachment payload, its 404 for a removed hook, SLACK_ENABLED).
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

describe('slack: the value', () => {
  it('accepts an http(s) incoming-webhook URL', () => {
    expect(validateChannelInput({ kind: 'slack', value: 'https://chat.example.org/hooks/abc' })).toMatchObject({ kind: 'slack', notifyDown: true, notifyUp: true });
  });

  it('refuses a value that is not an http(s) URL', () => {
    expect(refusal(() => validateChannelInput({ kind: 'slack', value: 'hooks.slack.com/services/x' }))).toBe('value is not a valid http(s) URL');
  });
});

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

  it('is refused for good when SLACK_ENABLED is False, and nothing is sent', async () => {
    const w = await world({ SLACK_ENABLED: 'False' });
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'slack', `${receiver.url}/hook`);
      expect(await w.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Slack notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await w.stop();
    }
  });
});
