// ntfy: Healthchecks' JSON value (server, topic, a priority for down and for up, a token), and the
// JSON message a local ntfy receiver gets through INTEGRATION_BASE_URLS: the status's priority,
// Healthchecks' title and Markdown message (reason, facts, the other checks that are down, the
// downtime), its tags and link, the channel's token or NTFY_SH_TOKEN; priority 0 sends nothing;
// 6 messages a minute per topic; failures retried, Retry-After honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { updateChannel, validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { authorizeNtfy } from '../../../../../src/monitoring/integrations/kinds/ntfy/transport.ts';
import { durationForSentence } from '../../../../../src/monitoring/integrations/kinds/ntfy/message.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const conf = (o: Record<string, unknown> = {}) => JSON.stringify({ priority: 5, priority_up: 3, token: '', topic: 'campus-alerts', url: 'https://ntfy.sh', ...o });
let w: World;

beforeAll(async () => {
  w = await createWorld({
    SITE_NAME: 'Campus Checks',
    SITE_ROOT: 'https://checks.example.org',
    NTFY_SH_TOKEN: 'tk_from_settings',
    INTEGRATION_BASE_URLS: JSON.stringify({ ntfy: `${receiver.url}/ntfy` }),
  });
});
afterAll(() => w.stop());

describe('ntfy: the value', () => {
  it('takes Healthchecks’ JSON; a priority of 0 turns that status off', () => {
    expect(validateChannelInput({ kind: 'ntfy', value: conf() })).toMatchObject({ kind: 'ntfy', notifyDown: true, notifyUp: true });
    expect(validateChannelInput({ kind: 'ntfy', value: conf({ priority_up: 0 }) })).toMatchObject({ notifyDown: true, notifyUp: false });
    // An older value without a token: Healthchecks' NtfyConf defaults it to "".
    expect(validateChannelInput({ kind: 'ntfy', value: '{"topic": "t", "url": "https://ntfy.example.org", "priority": 3, "priority_up": 0}' })).toMatchObject({ notifyUp: false });
    expect(refusal(() => validateChannelInput({ kind: 'ntfy', value: conf({ priority: 0, priority_up: 0 }) }))).toBe('a channel must notify of down, up or both');
  });

  it('refuses what Healthchecks’ form and NtfyConf refuse', () => {
    const cases: Array<[string, string]> = [
      ['campus-alerts', 'value must be {"url": "<ntfy server>", "topic": "…", "priority": 0-5, "priority_up": 0-5, "token": "…"}'],
      [conf({ topic: '' }), 'topic must be 1 to 64 characters'],
      [conf({ topic: 't'.repeat(65) }), 'topic must be 1 to 64 characters'],
      [conf({ url: 'ntfy.sh' }), 'url is not a valid http(s) URL'],
      [conf({ priority: 6 }), 'priority must be a whole number from 0 (no notification) to 5 (max)'],
      [conf({ priority_up: '3' }), 'priority_up must be a whole number from 0 (no notification) to 5 (max)'],
      [conf({ token: 't'.repeat(101) }), 'token must be text of up to 100 characters'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'ntfy', value })), value).toBe(message);
  });

  it('turns a status back on when an update gives it a priority again', async () => {
    const c = await incidentCheck(w, 'ntfy', conf({ priority_up: 0 }));
    expect(c.channel.notifyUp).toBe(false);
    expect(await updateChannel(w.app.db, null, c.channel.code, { value: conf({ priority_up: 2 }) })).toMatchObject({ notifyUp: true });
  });
});

describe('ntfy: the alerts', () => {
  it('publishes the down alert with its priority, title, message, tags and link, then the up alert with the downtime', async () => {
    const c = await incidentCheck(w, 'ntfy', conf({ token: 'tk_channel' }), { name: 'Grades & export', tags: 'prod db' });
    // Another check of the project, down since a failure: listed as "also down", then "still down".
    const other = await w.api('POST', '/api/v3/checks/', { body: { name: 'Roster <sync>' } });
    await w.ping(`/ping/${other.json.uuid}/fail`);
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/ntfy/' });
    expect(down!.headers).toMatchObject({ authorization: 'Bearer tk_channel', 'content-type': 'application/json' });
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    expect(JSON.parse(down!.body)).toEqual({
      topic: 'campus-alerts',
      priority: 5,
      title: 'Grades & export is DOWN',
      message: [
        'Reason: success signal did not arrive on time, grace time passed.',
        '',
        '**Project:** Alice',
        '**Tags:** prod, db',
        '**Period:** 1 minute',
        '**Total Pings:** 1',
        '**Last Ping:** Success, 2 minutes ago',
        '',
        'The following checks are also down:',
        '• **Roster &lt;sync&gt;** (last ping: 2 minutes ago)',
      ].join('\n'),
      markdown: true,
      tags: ['red_circle'],
      actions: [{ action: 'view', label: 'View on Campus Checks', url: link }],
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    const body = JSON.parse(up!.body);
    expect(body).toMatchObject({ topic: 'campus-alerts', priority: 3, title: 'Grades & export is UP', tags: ['green_circle'] });
    expect(body.message).toBe(
      [
        'The downtime lasted 38 minutes, 0 seconds.',
        '',
        '**Project:** Alice',
        '**Tags:** prod, db',
        '**Period:** 1 minute',
        '**Total Pings:** 2',
        '**Last Ping:** Success, now',
        '',
        'The following checks are still down:',
        '• **Roster &lt;sync&gt;** (last ping: 40 minutes ago)',
      ].join('\n'),
    );
  });

  it('sends NTFY_SH_TOKEN to ntfy.sh for a channel without a token, and says when all other checks are up', async () => {
    const c = await incidentCheck(w, 'ntfy', conf(), { name: 'solo' });
    await w.api('POST', '/api/v3/checks/', { body: { name: 'fine' } });
    await c.down();
    const [req] = await receiver.waitFor(1);
    expect(req!.headers.authorization).toBe('Bearer tk_from_settings');
    expect(JSON.parse(req!.body).message).toMatch(/\n\nAll the other checks are up\.$/);
  });

  it('sends no token to another server, and nothing at all for a status whose priority is 0', async () => {
    const c = await incidentCheck(w, 'ntfy', conf({ url: 'https://ntfy.example.org', priority_up: 0 }), { name: 'quiet-up' });
    await c.down();
    await c.up();
    const [req] = await receiver.waitFor(1);
    expect(req!.headers.authorization).toBeUndefined();
    expect(receiver.requests).toHaveLength(1);
    expect((await notificationsOf(w, c.channel.id)).map((n) => n.status)).toEqual(['down']);
  });

  it('retries a failure answer no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '45' }, body: '{"code":42901,"http":429,"error":"limit reached"}' }));
    const c = await incidentCheck(w, 'ntfy', conf({ topic: 'retry-topic' }));
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 429' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(45_000);
  });
});

describe('ntfy: Healthchecks’ limits', () => {
  it('lets 6 messages a minute through per server and topic, then one every 10 seconds', () => {
    const t = 1_000_000;
    const results = Array.from({ length: 7 }, (_, i) => authorizeNtfy('https://limit.example.org', 'topic', t + i));
    expect(results).toEqual([true, true, true, true, true, true, false]);
    expect(authorizeNtfy('https://limit.example.org', 'other-topic', t + 7)).toBe(true);
    expect(authorizeNtfy('https://limit.example.org', 'topic', t + 10_010)).toBe(true);
    expect(authorizeNtfy('https://limit.example.org', 'topic', t + 10_020)).toBe(false);
  });

  it('words a downtime as Healthchecks’ format_duration_for_sentence', () => {
    expect(durationForSentence(59_000)).toBe('59 seconds');
    expect(durationForSentence(61_000)).toBe('1 minute, 1 second');
    expect(durationForSentence(5_400_000)).toBe('1 hour, 30 minutes');
    expect(durationForSentence(90_000_000)).toBe('1 day, 1 hour');
  });
});
