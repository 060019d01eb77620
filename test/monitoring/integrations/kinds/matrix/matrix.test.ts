// Matrix: the room id (or alias) as the value, MATRIX_HOMESERVER / MATRIX_USER_ID /
// MATRIX_ACCESS_TOKEN, and what a local homeserver receives through INTEGRATION_BASE_URLS: the
// bot joins the room once, then PUTs an m.room.message (plain body and Healthchecks' HTML) with
// the notification's id as the transaction id. A join refused with 403 fails for good (someone
// must invite the bot); other refusals are retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import type { ReceivedRequest } from '../../../../helpers/receivers.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { pyQuote } from '../../../../../src/monitoring/integrations/kinds/matrix/transport.ts';
import { inspectConfig } from '../../../../../src/config/index.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const TOKEN = 'syt_bot_token';
let room = 0;
/** A new room per test: the bot's joins are remembered per process. */
const nextRoom = () => `!room${++room}:example.org`;
/** The homeserver: joins answer with the room's id (an alias resolves to !resolved), messages with an event id. */
const homeserver = (req: ReceivedRequest) => {
  const join = /\/join\/([^/?]+)$/.exec(req.path);
  if (join) {
    const asked = decodeURIComponent(join[1]!);
    return { status: 200, body: JSON.stringify({ room_id: asked.startsWith('#') ? '!resolved:example.org' : asked }) };
  }
  return { status: 200, body: '{"event_id": "$abc"}' };
};
let w: World;

beforeAll(async () => {
  w = await createWorld({
    SITE_ROOT: 'https://checks.example.org',
    MATRIX_HOMESERVER: 'https://matrix.example.org/',
    MATRIX_USER_ID: '@checks-bot:example.org',
    MATRIX_ACCESS_TOKEN: TOKEN,
    INTEGRATION_BASE_URLS: JSON.stringify({ matrix: `${receiver.url}/mx` }),
  });
});
afterAll(() => w?.stop());

describe('matrix: the value', () => {
  it('takes a room id (with or without a server part, as room version 12 has) or a room alias', () => {
    for (const value of ['!abcDEF123:example.org', '!Wd7Fh3kDl2q9', '#ops:example.org', '#ops-alerts:matrix.example.org:8448']) {
      expect(validateChannelInput({ kind: 'matrix', value }), value).toMatchObject({ kind: 'matrix', notifyDown: true, notifyUp: true });
    }
  });

  it('refuses anything else, and more than Healthchecks’ 100 characters', () => {
    for (const value of ['ops', '#ops', '@alice:example.org', '!a b:example.org', 'https://matrix.to/#/#ops:example.org']) {
      expect(refusal(() => validateChannelInput({ kind: 'matrix', value })), value).toBe('value must be a Matrix room id (!abc123:example.org) or room alias (#ops:example.org)');
    }
    expect(refusal(() => validateChannelInput({ kind: 'matrix', value: `!${'a'.repeat(100)}:x` }))).toBe('Ensure this value has at most 100 characters (it has 103).');
  });

  it('quotes a room id as Python’s quote does', () => {
    expect(pyQuote('!foo:example.org')).toBe('%21foo%3Aexample.org');
    expect(pyQuote('#ops:example.org')).toBe('%23ops%3Aexample.org');
  });
});

describe('matrix: the alerts', () => {
  it('joins the room once, then sends Healthchecks’ plain and HTML texts for down and for up', async () => {
    receiver.respond(homeserver);
    const value = nextRoom();
    const quoted = pyQuote(value);
    const c = await incidentCheck(w, 'matrix', value, { name: 'Grades & export', tags: 'prod db' });
    const other = await w.api('POST', '/api/v3/checks/', { body: { name: 'Roster <sync>' } });
    await w.ping(`/ping/${other.json.uuid}/fail`);
    const { uniqueKey: otherKey } = await w.app.db.check.findUniqueOrThrow({ where: { code: other.json.uuid } });
    await c.down();
    const [join, down] = await receiver.waitFor(2);
    expect(join).toMatchObject({ method: 'POST', path: `/mx/_matrix/client/v3/join/${quoted}` });
    expect(join!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'sent' });
    expect(down).toMatchObject({ method: 'PUT', path: `/mx/_matrix/client/v3/rooms/${quoted}/send/m.room.message/${n!.code}` });
    expect(down!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(down!.headers['content-type']).toBe('application/json');
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    const otherLink = `https://checks.example.org/?project=${w.alice.id}#/checks/${otherKey}`;
    expect(JSON.parse(down!.body)).toEqual({
      msgtype: 'm.text',
      body: 'Grades & export is DOWN (success signal did not arrive on time, grace time passed).',
      format: 'org.matrix.custom.html',
      formatted_body: [
        `🔴 The check <a href="${link}">Grades &amp; export</a> is <b>DOWN</b> (success signal did not arrive on time, grace time passed).`,
        '<br>',
        '<br>',
        '<b>Project:</b> Alice<br>',
        '<b>Tags:</b> <code>prod</code> <code>db</code> <br>',
        '<b>Period:</b> 1 minute<br>',
        '<b>Total Pings:</b> 1<br>',
        '<b>Last Ping:</b> Success, 2 minutes ago<br>',
        '<br>',
        'The following checks are also down:<br>',
        '<ul>',
        `<li><a href="${otherLink}">Roster &lt;sync&gt;</a> (last ping: 2 minutes ago)</li>`,
        '</ul>',
      ].join('\n'),
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const all = await receiver.waitFor(3);
    // Joined already: the up message goes straight to the room.
    expect(all).toHaveLength(3);
    const up = all[2]!;
    expect(up).toMatchObject({ method: 'PUT' });
    expect(up.path).toMatch(new RegExp(`^/mx/_matrix/client/v3/rooms/${quoted}/send/m\\.room\\.message/`));
    const doc = JSON.parse(up.body);
    expect(doc.body).toBe('Grades & export is now UP. The downtime lasted 38 minutes, 0 seconds.');
    expect(doc.formatted_body.split('\n').slice(0, 4)).toEqual([`🟢 The check <a href="${link}">Grades &amp; export</a> is <b>UP</b>.`, '<br>The downtime lasted 38 minutes, 0 seconds.', '<br>', '<br>']);
    expect(doc.formatted_body).toContain('The following checks are still down:<br>');
  });

  it('resolves an alias by joining it, and sends to the room id the homeserver answered', async () => {
    receiver.respond(homeserver);
    const c = await incidentCheck(w, 'matrix', '#ops:example.org', { name: 'solo' });
    await c.down();
    const [join, send] = await receiver.waitFor(2);
    expect(join!.path).toBe('/mx/_matrix/client/v3/join/%23ops%3Aexample.org');
    expect(send!.path).toMatch(/^\/mx\/_matrix\/client\/v3\/rooms\/%21resolved%3Aexample\.org\/send\/m\.room\.message\//);
  });

  it('fails for good when the bot may not join, saying whom to invite', async () => {
    receiver.respond(() => ({ status: 403, body: '{"errcode": "M_FORBIDDEN", "error": "You are not invited to this room."}' }));
    const c = await incidentCheck(w, 'matrix', nextRoom());
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([
      { state: 'failed', attempts: 1, lastError: 'Matrix server returned status 403 (Forbidden).\nDid you invite @checks-bot:example.org to the room?' },
    ]);
    expect(receiver.requests).toHaveLength(1);
  });

  it('retries a join answered 429, no sooner than its Retry-After, and a message the homeserver refuses', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '20' }, body: '{"errcode": "M_LIMIT_EXCEEDED"}' }));
    const a = await incidentCheck(w, 'matrix', nextRoom());
    await a.down();
    const [n] = await notificationsOf(w, a.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Matrix server returned status 429 (Too Many Requests), please try later.' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(20_000);

    receiver.respond((req) => (req.method === 'PUT' ? 500 : homeserver(req)));
    const b = await incidentCheck(w, 'matrix', nextRoom());
    await b.down();
    expect(await notificationsOf(w, b.channel.id)).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'Received status code 500' }]);
  });

  it('joins again after the homeserver refused a message with 403 (the bot was removed)', async () => {
    const value = nextRoom();
    receiver.respond((req) => (req.method === 'PUT' ? { status: 403, body: '{"errcode": "M_FORBIDDEN"}' } : homeserver(req)));
    const c = await incidentCheck(w, 'matrix', value);
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', lastError: 'Received status code 403' }]);
    receiver.requests.length = 0;
    receiver.respond(homeserver);
    // The retry is due after the notifier's backoff.
    w.clock.advance(60_000);
    await w.app.notifier.tick();
    expect((await receiver.waitFor(2)).map((r) => r.method)).toEqual(['POST', 'PUT']);
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'sent', attempts: 2 }]);
  });
});

describe('matrix: without its settings', () => {
  it('warns at the configuration check when only some of the three are set, and hides the token', () => {
    const report = inspectConfig({ MATRIX_HOMESERVER: 'https://matrix.example.org', MATRIX_ACCESS_TOKEN: 'syt_secret' });
    expect(report.warnings).toContainEqual({ name: 'MATRIX_USER_ID', suggestion: null, message: 'Matrix alerts are off: MATRIX_HOMESERVER, MATRIX_USER_ID, MATRIX_ACCESS_TOKEN go together, and MATRIX_USER_ID is not set' });
    expect(report.config?.notify.matrix).toBeNull();
    expect(report.settings.find((s) => s.name === 'MATRIX_ACCESS_TOKEN')?.value).toBe('***');
  });

  it('is refused for good when MATRIX_ACCESS_TOKEN is missing, and nothing is sent', async () => {
    const off = await createWorld({
      MATRIX_HOMESERVER: 'https://matrix.example.org',
      MATRIX_USER_ID: '@checks-bot:example.org',
      INTEGRATION_BASE_URLS: JSON.stringify({ matrix: `${receiver.url}/mx` }),
    });
    try {
      const c = await incidentCheck(off, 'matrix', nextRoom());
      await c.down();
      expect(await notificationsOf(off, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Matrix notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });
});
