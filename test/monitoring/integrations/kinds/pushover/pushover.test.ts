// Pushover: Healthchecks' value "user_key|prio|prio_up", and the form POST a local Pushover
// receiver gets through INTEGRATION_BASE_URLS: PUSHOVER_API_TOKEN, the user key, the status's
// priority, Healthchecks' title and HTML message, the unique key as tag and a link; the emergency
// priority's retry and expiry, cancelled by tag before the up alert; -3 sends nothing; a 400 for
// an invalid user fails for good, other failures are retried; without PUSHOVER_API_TOKEN the
// alert is refused for good and nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { authorizePushover } from '../../../../../src/monitoring/integrations/kinds/pushover/transport.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
let w: World;

beforeAll(async () => {
  w = await createWorld({
    SITE_NAME: 'Campus Checks',
    SITE_ROOT: 'https://checks.example.org',
    PUSHOVER_API_TOKEN: 'app-token',
    PUSHOVER_EMERGENCY_RETRY_DELAY: '60',
    PUSHOVER_EMERGENCY_EXPIRATION: '3600',
    INTEGRATION_BASE_URLS: JSON.stringify({ po: `${receiver.url}/po` }),
  });
});
afterAll(() => w.stop());

const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('pushover: the value', () => {
  it('takes Healthchecks’ "user_key|prio|prio_up" (and the older "user_key|prio"); -3 turns that status off', () => {
    expect(validateChannelInput({ kind: 'po', value: `${USER}|0|-1` })).toMatchObject({ kind: 'pushover', notifyDown: true, notifyUp: true });
    expect(validateChannelInput({ kind: 'pushover', value: `${USER}|2|-3` })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(refusal(() => validateChannelInput({ kind: 'pushover', value: `${USER}|-3` }))).toBe('a channel must notify of down, up or both');
  });

  it('refuses what Healthchecks would not store', () => {
    const form = 'value must be "<user key>|<priority>|<priority for up>", priorities -3 (no notification) to 2 (emergency)';
    for (const value of [USER, `${USER}|3|0`, `${USER}|0|x`, `${USER}|0|0|0`, `${USER}|-4|0`]) expect(refusal(() => validateChannelInput({ kind: 'pushover', value })), value).toBe(form);
    expect(refusal(() => validateChannelInput({ kind: 'pushover', value: 'not a key|0|0' }))).toBe('user key must be letters and digits (up to 50)');
  });
});

describe('pushover: the alerts', () => {
  it('posts the down alert as Healthchecks does, then the up alert with the downtime at its own priority', async () => {
    const c = await incidentCheck(w, 'pushover', `${USER}|1|-1`, { name: 'Grades & export', tags: 'prod db' });
    const other = await w.api('POST', '/api/v3/checks/', { body: { name: 'Roster <sync>' } });
    await w.ping(`/ping/${other.json.uuid}/fail`);
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/po/1/messages.json' });
    expect(down!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    expect(form(down!.body)).toEqual({
      token: 'app-token',
      user: USER,
      title: '🔴 Grades & export is DOWN',
      message: [
        'Reason: success signal did not arrive on time, grace time passed.',
        '',
        '<b>Project:</b> Alice',
        '<b>Tags:</b> prod, db',
        '<b>Period:</b> 1 minute',
        '<b>Total Pings:</b> 1',
        '<b>Last Ping:</b> Success, 2 minutes ago',
        '',
        'The following checks are also down:',
        '• <b>Roster &lt;sync&gt;</b> (last ping: 2 minutes ago)',
      ].join('\n'),
      html: '1',
      priority: '1',
      tags: c.uniqueKey,
      url: link,
      url_title: 'View on Campus Checks',
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(up!.path).toBe('/po/1/messages.json');
    const body = form(up!.body);
    expect(body).toMatchObject({ title: '🟢 Grades & export is UP', priority: '-1', tags: c.uniqueKey });
    expect(body.retry).toBeUndefined();
    expect(body.message).toBe(
      [
        'The downtime lasted 38 minutes, 0 seconds.',
        '',
        '<b>Project:</b> Alice',
        '<b>Tags:</b> prod, db',
        '<b>Period:</b> 1 minute',
        '<b>Total Pings:</b> 2',
        '<b>Last Ping:</b> Success, now',
        '',
        'The following checks are still down:',
        '• <b>Roster &lt;sync&gt;</b> (last ping: 40 minutes ago)',
      ].join('\n'),
    );
  });

  it('sends an emergency alert with PUSHOVER_EMERGENCY_RETRY_DELAY and _EXPIRATION, and cancels it by tag before the up alert', async () => {
    const c = await incidentCheck(w, 'pushover', `${USER}|2|0`, { name: 'urgent' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(form(down!.body)).toMatchObject({ priority: '2', retry: '60', expire: '3600' });
    await c.up();
    const [, cancel, up] = await receiver.waitFor(3);
    expect(cancel).toMatchObject({ method: 'POST', path: `/po/1/receipts/cancel_by_tag/${c.uniqueKey}.json` });
    expect(form(cancel!.body)).toEqual({ token: 'app-token' });
    expect(form(up!.body)).toMatchObject({ priority: '0', title: '🟢 urgent is UP' });
    expect(form(up!.body).retry).toBeUndefined();
  });

  it('sends nothing for a status whose priority is -3', async () => {
    const c = await incidentCheck(w, 'pushover', `${USER}|0|-3`, { name: 'quiet-up' });
    await c.down();
    await c.up();
    await receiver.waitFor(1);
    expect(receiver.requests).toHaveLength(1);
    expect((await notificationsOf(w, c.channel.id)).map((n) => n.status)).toEqual(['down']);
  });

  it('fails for good on a 400 saying the user key is invalid, as Healthchecks does', async () => {
    receiver.respond(() => ({ status: 400, body: '{"user":"invalid","errors":["user key is invalid"],"status":0,"request":"5042853c"}' }));
    const c = await incidentCheck(w, 'pushover', 'goneUserKey|0|0', { name: 'gone' });
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Received status code 400 (invalid user)' }]);
  });

  // Each with a user key of its own: the 6-a-minute bucket counts real time, per process.
  it('retries another 400, and a 429 no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 400, body: '{"message":"cannot be blank","errors":["message cannot be blank"],"status":0}' }));
    const a = await incidentCheck(w, 'pushover', 'blankUserKey|0|0', { name: 'blank' });
    await a.down();
    expect(await notificationsOf(w, a.channel.id)).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'Received status code 400' }]);

    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '45' }, body: '' }));
    const b = await incidentCheck(w, 'pushover', 'busyUserKey|0|0', { name: 'busy' });
    await b.down();
    const [n] = await notificationsOf(w, b.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 429' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(45_000);
  });
});

describe('pushover: without PUSHOVER_API_TOKEN', () => {
  it('refuses the alert for good, saying why, and sends nothing', async () => {
    const bare = await createWorld({ INTEGRATION_BASE_URLS: JSON.stringify({ po: `${receiver.url}/po` }) });
    try {
      const c = await incidentCheck(bare, 'pushover', `${USER}|0|0`);
      await c.down();
      expect(await notificationsOf(bare, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Pushover notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await bare.stop();
    }
  });
});

describe('pushover: Healthchecks’ limit', () => {
  it('lets 6 messages a minute through per user key', () => {
    const t = 5_000_000;
    expect(Array.from({ length: 7 }, (_, i) => authorizePushover('limitkey', t + i))).toEqual([true, true, true, true, true, true, false]);
    expect(authorizePushover('otherkey', t + 7)).toBe(true);
    expect(authorizePushover('limitkey', t + 10_010)).toBe(true);
  });
});
