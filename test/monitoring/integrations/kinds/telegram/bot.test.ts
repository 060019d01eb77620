// The Telegram bot's webhook, POST /integrations/telegram/bot/ on a running server whose bot API
// is a local receiver (INTEGRATION_BASE_URLS): a /start (in a group, as /start@bot in a forum
// topic, as a channel post) is answered with sendMessage carrying the chat's value; anything else
// is 200 with nothing sent; bad JSON 400; a wrong secret header 403; no TELEGRAM_TOKEN 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { telegramConf } from '../../../../../src/monitoring/integrations/kinds/telegram/config.ts';
import { chatValue, startOf, startReply } from '../../../../../src/monitoring/integrations/kinds/telegram/bot.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { KINDS, valueOf } from '../../../../../web/integrations/kinds.ts';

const receiver = useHttpReceiver({ reset: true });
const TOKEN = '123456:ABC-token';
const SECRET = 'hook_Secret-42';
let chat = -1002000;
let update = 9000;

/** A Telegram Update with a message (or a channel post) in a new chat: the per-chat limit is per process. */
function message(text: string, chatFields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, key = 'message') {
  return { update_id: ++update, [key]: { message_id: 1, date: 1767607200, text, chat: { id: --chat, type: 'supergroup', title: 'Ops & <Infra>', ...chatFields }, ...extra } };
}

async function post(w: World, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${w.url}/integrations/telegram/bot/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** Sent to the receiver by now? The webhook answers after its sendMessage settled, so no wait is needed. */
const sent = () => receiver.requests.map((r) => ({ path: r.path, body: JSON.parse(r.body) }));

let w: World;
let guarded: World;
beforeAll(async () => {
  const env = { SITE_NAME: 'Campus Checks', TELEGRAM_TOKEN: TOKEN, INTEGRATION_BASE_URLS: JSON.stringify({ telegram: `${receiver.url}/tg` }) };
  w = await createWorld(env);
  guarded = await createWorld({ ...env, TELEGRAM_WEBHOOK_SECRET: SECRET });
});
afterAll(async () => {
  await w?.stop();
  await guarded?.stop();
});

describe('telegram bot: /start', () => {
  it('answers /start in a group with the value to paste, HTML-escaped, through sendMessage to that chat', async () => {
    const m = message('/start', { type: 'group' });
    expect(await post(w, m)).toEqual({ status: 200, text: '' });
    const value = `{"id": ${chat}, "type": "group", "name": "Ops & <Infra>", "thread_id": null}`;
    expect(sent()).toEqual([
      {
        path: `/tg/bot${TOKEN}/sendMessage`,
        body: {
          chat_id: chat,
          message_thread_id: null,
          parse_mode: 'html',
          text: [
            `Please paste this value into Campus Checks's "Add integration" form (Telegram) to complete the integration for <b>Ops &amp; &lt;Infra&gt;</b>:`,
            '',
            `<code>${value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')}</code>`,
          ].join('\n'),
        },
      },
    ]);
    expect(receiver.requests[0]!.headers['idempotency-key']).toBe(`telegram-update-${update}`);
    // The value, once unescaped, is one the Telegram kind takes as it is.
    expect(telegramConf(value)).toEqual({ id: chat, threadId: null });
    expect(validateChannelInput({ kind: 'telegram', value })).toMatchObject({ kind: 'telegram' });
  });

  it('answers /start@bot in a forum topic in that topic, and the value names the thread', async () => {
    const m = message('/start@CampusChecksBot', {}, { message_thread_id: 77, is_topic_message: true });
    expect((await post(w, m)).status).toBe(200);
    const [reply] = sent();
    expect(reply!.body).toMatchObject({ chat_id: chat, message_thread_id: 77 });
    expect(reply!.body.text).toContain('for <b>Ops &amp; &lt;Infra&gt;</b> (this topic):');
    expect(reply!.body.text).toContain(`<code>{&quot;id&quot;: ${chat}, &quot;type&quot;: &quot;supergroup&quot;, &quot;name&quot;: &quot;Ops &amp; &lt;Infra&gt;&quot;, &quot;thread_id&quot;: 77}</code>`);
  });

  it('answers a private chat by its username, and a channel’s post, as Healthchecks does', async () => {
    await post(w, message('/start', { type: 'private', title: undefined, username: 'alice_ops' }));
    await post(w, message('/start', { type: 'channel', title: 'Alerts' }, {}, 'channel_post'));
    const [priv, channel] = sent();
    expect(priv!.body.text).toContain('for <b>alice_ops</b>:');
    expect(channel!.body.text).toContain(`&quot;id&quot;: ${chat}, &quot;type&quot;: &quot;channel&quot;, &quot;name&quot;: &quot;Alerts&quot;`);
  });

  it('keeps the chat itself for a reply thread outside a forum (no topic)', async () => {
    await post(w, message('/start', {}, { message_thread_id: 5 }));
    expect(sent()[0]!.body.message_thread_id).toBeNull();
  });

  it('still answers 200 when Telegram refuses the answer, and sends at most 6 a minute to a chat', async () => {
    receiver.respond(() => ({ status: 403, body: '{"ok": false, "description": "Forbidden: bot was kicked from the group chat"}' }));
    expect(await post(w, message('/start'))).toEqual({ status: 200, text: '' });
    expect(receiver.requests).toHaveLength(1);
    receiver.respond(200);
    const flood = Array.from({ length: 8 }, () => message('/start', { id: -42, type: 'group', title: 'Flood' }));
    for (const m of flood) expect((await post(w, m)).status).toBe(200);
    expect(sent().filter((r) => r.body.chat_id === -42)).toHaveLength(6);
  });
});

describe('telegram bot: what is not a /start', () => {
  it('answers 200 and sends nothing for other texts, edits, joins and shapes Telegram does not send', async () => {
    const ignored: unknown[] = [
      message('hello'),
      message('/started'),
      message('please /start'),
      message('/help'),
      { update_id: 1, edited_message: message('/start').message },
      { update_id: 2, message: { chat: { id: 5, type: 'group' }, new_chat_members: [{ id: 1 }] } },
      message('/start', { id: '5' }),
      message('/start', { type: 'secret' }),
      [1, 2],
      'just text',
      null,
    ];
    for (const body of ignored) expect((await post(w, JSON.stringify(body))).status, JSON.stringify(body)).toBe(200);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a body that is not JSON (400), or is too large (413), sending nothing', async () => {
    expect(await post(w, '{"message": ')).toEqual({ status: 400, text: '{"error":"request body is not valid JSON"}' });
    expect((await post(w, JSON.stringify({ ...message('/start'), pad: 'x'.repeat(70_000) }))).status).toBe(413);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('telegram bot: TELEGRAM_WEBHOOK_SECRET', () => {
  it('refuses an update without the matching header (403), and answers one with it', async () => {
    expect(await post(guarded, message('/start'))).toMatchObject({ status: 403 });
    expect(await post(guarded, message('/start'), { 'X-Telegram-Bot-Api-Secret-Token': 'wrong' })).toEqual({
      status: 403,
      text: '{"error":"X-Telegram-Bot-Api-Secret-Token does not match TELEGRAM_WEBHOOK_SECRET"}',
    });
    expect(receiver.requests).toHaveLength(0);
    expect((await post(guarded, message('/start'), { 'X-Telegram-Bot-Api-Secret-Token': SECRET })).status).toBe(200);
    expect(sent()).toMatchObject([{ body: { chat_id: chat } }]);
  });

  it('is refused at start when Telegram would refuse it as a secret_token', async () => {
    await expect(createWorld({ TELEGRAM_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: 'has spaces' })).rejects.toThrow(/TELEGRAM_WEBHOOK_SECRET/);
  });
});

describe('telegram bot: without TELEGRAM_TOKEN', () => {
  it('has no webhook (404), and sends nothing', async () => {
    const off = await createWorld({ INTEGRATION_BASE_URLS: JSON.stringify({ telegram: `${receiver.url}/tg` }) });
    try {
      expect(await post(off, message('/start'))).toEqual({ status: 404, text: '{"error":"not found"}' });
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });
});

describe('telegram bot: the pure parts', () => {
  it('reads a deep link’s /start payload and a chat without a name', () => {
    const s = startOf({ message: { text: '/start abc', chat: { id: 9, type: 'private', first_name: 'Al' } } });
    expect(s).toEqual({ updateId: null, chatId: 9, chatType: 'private', name: null, threadId: null });
    expect(chatValue(s!)).toBe('{"id": 9, "type": "private", "name": null, "thread_id": null}');
    expect(startReply(s!, 'A&B')).toMatch(/^Please paste this value into A&amp;B's "Add integration" form \(Telegram\) to complete the integration for this chat:\n\n<code>/);
  });

  it('the value pasted into the app’s Telegram form is stored as the bot gave it', () => {
    const value = chatValue({ updateId: 1, chatId: -100123, chatType: 'supergroup', name: 'Ops', threadId: 7 });
    const pasted = valueOf(KINDS.TELEGRAM, { id: ` ${value}\n`, thread_id: '' });
    expect(pasted).toBe(value);
    expect(validateChannelInput({ kind: 'telegram', value: pasted })).toMatchObject({ kind: 'telegram', value });
    expect(KINDS.TELEGRAM.help).toContain('send /start to the bot in that chat');
  });
});
