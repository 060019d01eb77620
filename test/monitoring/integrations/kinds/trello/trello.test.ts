// Trello: Healthchecks' JSON value (token, board, list), TRELLO_APP_KEY, and the card a local
// Trello receiver gets through INTEGRATION_BASE_URLS: POST /1/cards with idList, name, desc, key
// and token in the query string, the texts of trello_name.html and trello_desc.html; down only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const LIST = '5f0c1a2b3c4d5e6f7a8b9c0d';
const conf = (o: Record<string, unknown> = {}) => JSON.stringify({ board_name: 'Ops', list_id: LIST, list_name: 'Incidents', token: 'member-token', ...o });
let w: World;

beforeAll(async () => {
  w = await createWorld({
    SITE_NAME: 'Campus Checks',
    SITE_ROOT: 'https://checks.example.org',
    TRELLO_APP_KEY: 'app-key-1',
    INTEGRATION_BASE_URLS: JSON.stringify({ trello: `${receiver.url}/trello` }),
  });
});
afterAll(() => w?.stop());

describe('trello: the value', () => {
  it('takes Healthchecks’ JSON, and sends down alerts only', () => {
    expect(validateChannelInput({ kind: 'trello', value: conf() })).toMatchObject({ kind: 'trello', notifyDown: true, notifyUp: false });
  });

  it('refuses what Healthchecks’ form refuses', () => {
    const cases: Array<[string, string]> = [
      ['member-token', 'value must be {"token": "…", "board_name": "…", "list_name": "…", "list_id": "…"}'],
      [conf({ token: '' }), 'token: This field is required.'],
      [conf({ board_name: 5 }), 'board_name: This field is required.'],
      [conf({ list_name: 'x'.repeat(101) }), 'list_name: Ensure this value has at most 100 characters (it has 101).'],
      [conf({ list_id: 'not-hex-at-all-here' }), 'list_id: Enter a valid value.'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'trello', value })), value).toBe(message);
  });
});

describe('trello: the card', () => {
  it('posts the card’s fields in the query string, the name unescaped, the description from trello_desc.html', async () => {
    const c = await incidentCheck(w, 'trello', conf(), { name: 'Grades & export', desc: 'Nightly <grades> export' });
    await c.down();
    const [req] = await receiver.waitFor(1);
    const url = new URL(req!.path, 'http://receiver');
    expect(req!.method).toBe('POST');
    expect(url.pathname).toBe('/trello/1/cards');
    expect(req!.body).toBe('');
    const params = Object.fromEntries(url.searchParams);
    expect(params).toEqual({
      idList: LIST,
      name: 'Down: Grades & export',
      desc: [
        'Nightly <grades> export',
        '',
        '',
        '**Period:** 1 minute',
        '',
        '',
        '',
        '',
        '**Last Ping:** 2 minutes ago',
        '',
        `[Full Details @ Campus Checks](https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey})`,
      ].join('\n'),
      key: 'app-key-1',
      token: 'member-token',
    });
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'sent' }]);
    // Up: nothing (Healthchecks' is_noop), nothing queued.
    await c.up();
    expect(receiver.requests).toHaveLength(1);
    expect(await notificationsOf(w, c.channel.id)).toHaveLength(1);
  });

  it('shows a cron schedule and time zone, and "never" without a ping', async () => {
    const c = await incidentCheck(w, 'trello', conf());
    await w.app.db.check.update({ where: { code: c.uuid }, data: { kind: 'cron', schedule: '* * * * *', tz: 'Europe/Riga' } });
    await w.app.db.ping.deleteMany({ where: { check: { code: c.uuid } } });
    await c.down();
    const [req] = await receiver.waitFor(1);
    const desc = new URL(req!.path, 'http://receiver').searchParams.get('desc')!;
    expect(desc).toContain('**Schedule:** `* * * * *`\n\n**Time Zone:** Europe/Riga\n');
    expect(desc).toContain('**Last Ping:** never\n');
    expect(desc.startsWith('**Schedule:**')).toBe(true);
  });

  it('retries a refusal as "Received status code N"', async () => {
    receiver.respond(() => ({ status: 401, body: 'invalid token' }));
    const c = await incidentCheck(w, 'trello', conf());
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', lastError: 'Received status code 401' }]);
  });
});

describe('trello: without TRELLO_APP_KEY', () => {
  it('is refused for good, and nothing is sent', async () => {
    const off = await createWorld({ INTEGRATION_BASE_URLS: JSON.stringify({ trello: `${receiver.url}/trello` }) });
    try {
      const c = await incidentCheck(off, 'trello', conf());
      await c.down();
      expect(await notificationsOf(off, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Trello notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });
});
