// Telegram: Healthchecks' JSON value (chat id, type, name, a topic's thread id), TELEGRAM_TOKEN,
// and the sendMessage call a local Bot API receiver gets through INTEGRATION_BASE_URLS: the
// chat id, the thread id, the HTML text of telegram_message.html for down and up. The answers
// Healthchecks treats as final (bot blocked or kicked, chat gone) fail for good; others are
// retried; 6 messages a minute per chat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { authorizeTelegram, PERMANENT_ERRORS } from '../../../../../src/monitoring/integrations/kinds/telegram/transport.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
let chat = -1001000;
/** A new chat id per test: the per-chat rate limit is per process. */
const conf = (o: Record<string, unknown> = {}) => JSON.stringify({ id: --chat, type: 'group', name: 'Ops', ...o });
let w: World;

beforeAll(async () => {
  w = await createWorld({
    SITE_NAME: 'Campus Checks',
    SITE_ROOT: 'https://checks.example.org',
    TELEGRAM_TOKEN: '123456:ABC-token',
    INTEGRATION_BASE_URLS: JSON.stringify({ telegram: `${receiver.url}/tg` }),
  });
});
afterAll(() => w?.stop());

describe('telegram: the value', () => {
  it('takes Healthchecks’ JSON, with or without a thread id', () => {
    expect(validateChannelInput({ kind: 'telegram', value: '{"id": 123, "type": "private", "name": "alice"}' })).toMatchObject({ kind: 'telegram', notifyDown: true, notifyUp: true });
    expect(validateChannelInput({ kind: 'telegram', value: '{"id": -100123, "thread_id": 7, "type": "supergroup", "name": "Ops"}' })).toMatchObject({ kind: 'telegram' });
    expect(validateChannelInput({ kind: 'telegram', value: '{"id": 123}' })).toMatchObject({ kind: 'telegram' });
  });

  it('refuses a value that is not Healthchecks’ TelegramConf', () => {
    const cases: Array<[string, string]> = [
      ['123', 'value must be {"id": <chat id>, "type": "…", "name": "…"} (and "thread_id" for a topic)'],
      ['{"id": "123"}', 'id must be a whole number (the chat id)'],
      ['{"id": 1, "thread_id": 1.5}', 'thread_id must be a whole number or null'],
      ['{"id": 1, "name": 5}', 'name must be text'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'telegram', value })), value).toBe(message);
  });
});

describe('telegram: the alerts', () => {
  it('sends the HTML message of telegram_message.html for down, then for up with the downtime', async () => {
    const value = conf();
    const id = chat;
    const c = await incidentCheck(w, 'telegram', value, { name: 'Grades & export', tags: 'prod db' });
    const other = await w.api('POST', '/api/v3/checks/', { body: { name: 'Roster <sync>' } });
    await w.ping(`/ping/${other.json.uuid}/fail`);
    const { uniqueKey: otherKey } = await w.app.db.check.findUniqueOrThrow({ where: { code: other.json.uuid } });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/tg/bot123456:ABC-token/sendMessage' });
    expect(down!.headers['content-type']).toBe('application/json');
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    const otherLink = `https://checks.example.org/?project=${w.alice.id}#/checks/${otherKey}`;
    expect(JSON.parse(down!.body)).toEqual({
      chat_id: id,
      message_thread_id: null,
      parse_mode: 'html',
      text: [
        `🔴 The check <a href="${link}">Grades &amp; export</a> is <b>DOWN</b> (success signal did not arrive on time, grace time passed).`,
        '',
        '<b>Project:</b> Alice',
        '<b>Tags:</b> prod, db',
        '<b>Period:</b> 1 minute',
        '<b>Total Pings:</b> 1',
        '<b>Last Ping:</b> Success, 2 minutes ago',
        '',
        'The following checks are also down:',
        `- <a href="${otherLink}">Roster &lt;sync&gt;</a> (last ping: 2 minutes ago)`,
      ].join('\n'),
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(JSON.parse(up!.body).text).toBe(
      [
        `🟢 The check <a href="${link}">Grades &amp; export</a> is now <b>UP</b>.`,
        'The downtime lasted 38 minutes, 0 seconds.',
        '',
        '<b>Project:</b> Alice',
        '<b>Tags:</b> prod, db',
        '<b>Period:</b> 1 minute',
        '<b>Total Pings:</b> 2',
        '<b>Last Ping:</b> Success, now',
        '',
        'The following checks are still down:',
        `- <a href="${otherLink}">Roster &lt;sync&gt;</a> (last ping: 40 minutes ago)`,
      ].join('\n'),
    );
  });

  it('sends to a forum topic’s thread, and says when all other checks are up', async () => {
    const c = await incidentCheck(w, 'telegram', conf({ thread_id: 456 }), { name: 'solo' });
    await w.api('POST', '/api/v3/checks/', { body: { name: 'fine' } });
    await c.down();
    const [req] = await receiver.waitFor(1);
    const body = JSON.parse(req!.body);
    expect(body).toMatchObject({ chat_id: chat, message_thread_id: 456 });
    expect(body.text).toMatch(/\n\nAll the other checks are up\.$/);
  });

  it('fails for good when the bot was blocked, as Healthchecks disables such a channel', async () => {
    receiver.respond(() => ({ status: 403, body: '{"ok": false, "error_code": 403, "description": "Forbidden: bot was blocked by the user"}' }));
    const c = await incidentCheck(w, 'telegram', conf());
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([
      { state: 'failed', attempts: 1, lastError: 'Received status code 403 with a message: "Forbidden: bot was blocked by the user"' },
    ]);
  });

  it('retries another refusal, worded with its description, no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '25' }, body: '{"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 25"}' }));
    const c = await incidentCheck(w, 'telegram', conf());
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 429 with a message: "Too Many Requests: retry after 25"' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(25_000);
  });

  it('retries an unknown 403 and an answer that is not JSON', async () => {
    receiver.respond(() => ({ status: 403, body: '{"description": "oops"}' }));
    const a = await incidentCheck(w, 'telegram', conf());
    await a.down();
    expect(await notificationsOf(w, a.channel.id)).toMatchObject([{ state: 'pending', lastError: 'Received status code 403 with a message: "oops"' }]);
    receiver.respond(() => ({ status: 502, body: '<html>Bad gateway</html>' }));
    const b = await incidentCheck(w, 'telegram', conf());
    await b.down();
    expect(await notificationsOf(w, b.channel.id)).toMatchObject([{ state: 'pending', lastError: 'Received status code 502' }]);
  });

  it('fails for good when a group became a supergroup, naming the new chat id', async () => {
    receiver.respond(() => ({ status: 400, body: '{"ok": false, "description": "Bad Request: group chat was upgraded to a supergroup chat", "parameters": {"migrate_to_chat_id": -100234}}' }));
    const c = await incidentCheck(w, 'telegram', conf());
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([
      { state: 'failed', lastError: "Bad Request: group chat was upgraded to a supergroup chat (the group is now the supergroup -100234: update the channel's id)" },
    ]);
  });
});

describe('telegram: without TELEGRAM_TOKEN', () => {
  it('is refused for good, and nothing is sent', async () => {
    const off = await createWorld({ INTEGRATION_BASE_URLS: JSON.stringify({ telegram: `${receiver.url}/tg` }) });
    try {
      const c = await incidentCheck(off, 'telegram', conf());
      await c.down();
      expect(await notificationsOf(off, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Telegram notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });
});

describe('telegram: Healthchecks’ limits', () => {
  it('lets 6 messages a minute through per chat, then one every 10 seconds', () => {
    const t = 5_000_000;
    expect(Array.from({ length: 7 }, (_, i) => authorizeTelegram(777, t + i))).toEqual([true, true, true, true, true, true, false]);
    expect(authorizeTelegram(778, t + 7)).toBe(true);
    expect(authorizeTelegram(777, t + 10_010)).toBe(true);
    expect(authorizeTelegram(777, t + 10_020)).toBe(false);
  });

  it('knows Healthchecks’ final errors', () => {
    expect(PERMANENT_ERRORS).toContain('Bad Request: chat not found');
    expect(PERMANENT_ERRORS).toHaveLength(6);
  });
});
