// Gotify: Healthchecks' JSON value (server URL, app token, a priority for down and for up), and
// the message the channel's own server (here a local receiver, allowed by the tests'
// INTEGRATIONS_ALLOW_PRIVATE_IPS) gets at /message?token=…: title, Markdown message with links
// to the checks' pages, the status's priority; 0 sends nothing; a private server is refused
// without the allowance; failures are retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
let w: World;
const conf = (o: Record<string, unknown> = {}) => JSON.stringify({ priority: 9, priority_up: 2, token: 'AbC.d3f', url: `${receiver.url}/gotify`, ...o });

beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', SITE_ROOT: 'https://checks.example.org' });
});
afterAll(() => w.stop());

describe('gotify: the value', () => {
  it('takes Healthchecks’ JSON (priorities optional, as in older values); 0 turns that status off', () => {
    expect(validateChannelInput({ kind: 'gotify', value: '{"priority": 5, "priority_up": 0, "token": "t", "url": "https://gotify.example.org"}' })).toMatchObject({ kind: 'gotify', notifyDown: true, notifyUp: false });
    expect(validateChannelInput({ kind: 'gotify', value: '{"token": "t", "url": "https://gotify.example.org"}' })).toMatchObject({ notifyDown: true, notifyUp: true });
  });

  it('refuses what Healthchecks’ form and GotifyConf refuse', () => {
    const cases: Array<[string, string]> = [
      ['https://gotify.example.org', 'value must be {"url": "<Gotify server>", "token": "<app token>", "priority": 0-9, "priority_up": 0-9}'],
      ['{"url": "https://gotify.example.org", "token": ""}', 'token must be 1 to 50 characters'],
      ['{"url": "gotify.example.org", "token": "t"}', 'url is not a valid http(s) URL'],
      ['{"url": "https://gotify.example.org", "token": "t", "priority": 10}', 'priority must be a whole number from 0 (no notification) to 9'],
      ['{"url": "https://gotify.example.org", "token": "t", "priority_up": "5"}', 'priority_up must be a whole number from 0 (no notification) to 9'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'gotify', value })), value).toBe(message);
  });
});

describe('gotify: the alerts', () => {
  it('posts the down message with its priority, then the up message with the downtime', async () => {
    const c = await incidentCheck(w, 'gotify', conf(), { name: 'Grades & export' });
    const other = await w.api('POST', '/api/v3/checks/', { body: { name: 'Roster <sync>' } });
    await w.ping(`/ping/${other.json.uuid}/fail`);
    const otherKey = (await w.app.db.check.findUniqueOrThrow({ where: { code: other.json.uuid as string } })).uniqueKey;
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/gotify/message?token=AbC.d3f' });
    expect(down!.headers['content-type']).toBe('application/json');
    const page = (key: string) => `https://checks.example.org/?project=${w.alice.id}#/checks/${key}`;
    expect(JSON.parse(down!.body)).toEqual({
      title: 'Grades & export is DOWN',
      message: [
        `🔴 The check [Grades &amp; export](${page(c.uniqueKey)}) is **DOWN** (success signal did not arrive on time, grace time passed).`,
        '',
        'The following checks are also down:',
        `- [Roster &lt;sync&gt;](${page(otherKey)}) (last ping: 2 minutes ago)`,
      ].join('\n'),
      extras: { 'client::display': { contentType: 'text/markdown' } },
      priority: 9,
    });
    expect(down!.body).not.toContain(c.uuid);
    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(JSON.parse(up!.body)).toMatchObject({
      title: 'Grades & export is UP',
      priority: 2,
      message: [
        `🟢 The check [Grades &amp; export](${page(c.uniqueKey)}) is now **UP**.`,
        '',
        'The downtime lasted 38 minutes, 0 seconds.',
        '',
        'The following checks are still down:',
        `- [Roster &lt;sync&gt;](${page(otherKey)}) (last ping: 40 minutes ago)`,
      ].join('\n'),
    });
  });

  it('leaves the priority out when the value has none, and sends nothing for a status at 0', async () => {
    const c = await incidentCheck(w, 'gotify', JSON.stringify({ token: 't', url: `${receiver.url}/g/` }), { name: 'solo' });
    await c.down();
    const [req] = await receiver.waitFor(1);
    expect(req!.path).toBe('/g/message?token=t');
    expect(JSON.parse(req!.body)).not.toHaveProperty('priority');
    // The project's only check: no line about the others (Healthchecks' down_checks is None).
    expect(JSON.parse(req!.body).message).toBe(`🔴 The check [solo](https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}) is **DOWN** (success signal did not arrive on time, grace time passed).`);

    receiver.requests.length = 0;
    const quiet = await incidentCheck(w, 'gotify', conf({ priority_up: 0 }), { name: 'quiet-up' });
    await quiet.down();
    await quiet.up();
    await receiver.waitFor(1);
    expect(receiver.requests).toHaveLength(1);
    expect((await notificationsOf(w, quiet.channel.id)).map((n) => n.status)).toEqual(['down']);
  });

  it('retries a failure no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 503, headers: { 'Retry-After': '20' }, body: '' }));
    const c = await incidentCheck(w, 'gotify', conf());
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 503' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(20_000);
  });
});

describe('gotify: a private server', () => {
  it('is refused for good without INTEGRATIONS_ALLOW_PRIVATE_IPS, and nothing is sent', async () => {
    const strict = await createWorld({ INTEGRATIONS_ALLOW_PRIVATE_IPS: 'False' });
    try {
      const c = await incidentCheck(strict, 'gotify', conf());
      await c.down();
      expect(await notificationsOf(strict, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Connections to private IP addresses are not allowed' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await strict.stop();
    }
  });
});
