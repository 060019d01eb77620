// Zulip: Healthchecks' JSON value (bot email, API key, site, stream and topic or a private
// recipient), ZULIP_ENABLED, and the form-encoded message a local Zulip receiver gets through
// INTEGRATION_BASE_URLS with the bot's Basic auth, for down and up; failures retried and worded
// with Zulip's "msg", Retry-After honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const conf = (o: Record<string, unknown> = {}) =>
  JSON.stringify({ api_key: 'fake-key', bot_email: 'bot@example.zulipchat.com', mtype: 'stream', site: 'https://example.zulipchat.com', to: 'general', topic: '', ...o });
const basic = `Basic ${Buffer.from('bot@example.zulipchat.com:fake-key').toString('base64')}`;
let w: World;

beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', SITE_ROOT: 'https://checks.example.org', INTEGRATION_BASE_URLS: JSON.stringify({ zulip: `${receiver.url}/zulip` }) });
});
afterAll(() => w?.stop());

describe('zulip: the value', () => {
  it('takes Healthchecks’ JSON, an older one without site or topic too', () => {
    expect(validateChannelInput({ kind: 'zulip', value: conf() })).toMatchObject({ kind: 'zulip', notifyDown: true, notifyUp: true });
    expect(validateChannelInput({ kind: 'zulip', value: '{"bot_email": "bot@example.org", "api_key": "k", "mtype": "private", "to": "12"}' })).toMatchObject({ kind: 'zulip' });
  });

  it('refuses what Healthchecks’ AddZulipForm refuses', () => {
    const cases: Array<[string, string]> = [
      ['general', 'value must be {"bot_email": "…", "api_key": "…", "site": "https://…", "mtype": "stream" or "private", "to": "…", "topic": "…"}'],
      [conf({ bot_email: 'bot' }), 'bot_email must be an email address of up to 100 characters'],
      [conf({ api_key: '' }), 'api_key must be 1 to 50 characters'],
      [conf({ mtype: 'channel' }), 'mtype must be "stream" or "private"'],
      [conf({ to: '' }), 'to must be 1 to 100 characters'],
      [conf({ site: 'example.zulipchat.com' }), 'site is not a valid http(s) URL'],
      [conf({ topic: 't'.repeat(101) }), 'topic must be text of up to 100 characters'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'zulip', value })), value).toBe(message);
  });
});

describe('zulip: the alerts', () => {
  it('posts the stream message of Healthchecks’ templates for down, then for up with the downtime', async () => {
    const c = await incidentCheck(w, 'zulip', conf(), { name: 'Grades & export', desc: 'Nightly <b>export</b>' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/zulip/api/v1/messages' });
    expect(down!.headers).toMatchObject({ authorization: basic, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' });
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    expect(Object.fromEntries(new URLSearchParams(down!.body))).toEqual({
      type: 'stream',
      to: 'general',
      topic: 'Grades & export is DOWN',
      content: `[Grades &amp; export](${link}) is **DOWN** (success signal did not arrive on time, grace time passed).\n\n\n\n---\n**Description**\nNightly &lt;b&gt;export&lt;/b&gt;`,
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(Object.fromEntries(new URLSearchParams(up!.body))).toMatchObject({
      topic: 'Grades & export is UP',
      content: `[Grades &amp; export](${link}) is **UP**.\nThe downtime lasted 38 minutes, 0 seconds.\n\n\n---\n**Description**\nNightly &lt;b&gt;export&lt;/b&gt;`,
    });
  });

  it('sends a private message to a user id as a JSON list, under the channel’s own topic', async () => {
    const c = await incidentCheck(w, 'zulip', conf({ mtype: 'private', to: '42', topic: 'alerts' }), { name: 'solo' });
    await c.down();
    const [req] = await receiver.waitFor(1);
    expect(Object.fromEntries(new URLSearchParams(req!.body))).toMatchObject({ type: 'private', to: '[42]', topic: 'alerts' });
  });

  it('takes the site from the bot’s email when the value has none', async () => {
    const c = await incidentCheck(w, 'zulip', '{"api_key": "k", "bot_email": "bot@old.example.org", "mtype": "stream", "to": "ops"}', { name: 'legacy' });
    await c.down();
    const [req] = await receiver.waitFor(1);
    expect(req!.path).toBe('/zulip/api/v1/messages');
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('bot@old.example.org:k').toString('base64')}`);
  });

  it('retries a refusal, worded with Zulip’s "msg", no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 400, headers: { 'Retry-After': '15' }, body: '{"result": "error", "msg": "Stream \'general\' does not exist", "code": "BAD_REQUEST"}' }));
    const c = await incidentCheck(w, 'zulip', conf());
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 400 with a message: "Stream \'general\' does not exist"' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(15_000);
  });

  it('is refused for good when ZULIP_ENABLED is False, and nothing is sent', async () => {
    const off = await createWorld({ ZULIP_ENABLED: 'False', INTEGRATION_BASE_URLS: JSON.stringify({ zulip: `${receiver.url}/zulip` }) });
    try {
      const c = await incidentCheck(off, 'zulip', conf());
      await c.down();
      expect(await notificationsOf(off, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Zulip notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });
});
