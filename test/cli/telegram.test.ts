// `gateway telegram set-webhook` (in process) against a local Bot API receiver
// (INTEGRATION_BASE_URLS): setWebhook with <SITE_ROOT>/integrations/telegram/bot/ (or --url), the
// secret_token from TELEGRAM_WEBHOOK_SECRET, the updates the webhook reads; Telegram's refusal
// and a missing TELEGRAM_TOKEN end with exit status 1, a bad --url with 2.
import { describe, expect, it } from 'vitest';
import { useHttpReceiver } from '../helpers/fixtures.ts';
import { gatewayIn } from './in-process.ts';

const receiver = useHttpReceiver({ reset: true });
const TOKEN = '123456:ABC-token';
const env = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: 'file:/nonexistent/never.db',
  SITE_ROOT: 'https://checks.example.org/',
  TELEGRAM_TOKEN: TOKEN,
  INTEGRATION_BASE_URLS: JSON.stringify({ telegram: `${receiver.url}/tg` }),
  INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True',
  ...extra,
});

describe('gateway telegram set-webhook', () => {
  it('points the webhook at SITE_ROOT with the secret, and says so', async () => {
    const r = await gatewayIn(env({ TELEGRAM_WEBHOOK_SECRET: 's3cret_hook' }), ['telegram', 'set-webhook']);
    expect(r).toEqual({ code: 0, stderr: '', stdout: "Telegram now sends the bot's updates to https://checks.example.org/integrations/telegram/bot/ with TELEGRAM_WEBHOOK_SECRET.\n" });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.path).toBe(`/tg/bot${TOKEN}/setWebhook`);
    expect(JSON.parse(receiver.requests[0]!.body)).toEqual({
      url: 'https://checks.example.org/integrations/telegram/bot/',
      allowed_updates: ['message', 'channel_post'],
      secret_token: 's3cret_hook',
    });
  });

  it('takes --url, and warns when there is no secret (JSON with --json)', async () => {
    const r = await gatewayIn(env(), ['telegram', 'set-webhook', '--url', 'https://proxy.example.org/tg-hook/', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ url: 'https://proxy.example.org/tg-hook/', secret: false });
    expect(JSON.parse(r.stderr)).toEqual({ warning: 'TELEGRAM_WEBHOOK_SECRET is not set: anyone who knows the address can make the bot answer /start' });
    expect(JSON.parse(receiver.requests[0]!.body)).toEqual({ url: 'https://proxy.example.org/tg-hook/', allowed_updates: ['message', 'channel_post'] });
  });

  it('fails with Telegram’s words when Telegram refuses (exit status 1)', async () => {
    receiver.respond(() => ({ status: 400, body: '{"ok": false, "error_code": 400, "description": "Bad Request: bad webhook: HTTPS url must be provided for webhook"}' }));
    const r = await gatewayIn(env(), ['telegram', 'set-webhook']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('gateway: Received status code 400 with a message: "Bad Request: bad webhook: HTTPS url must be provided for webhook"\n');
    expect(r.stdout).toBe('');
  });

  it('refuses without TELEGRAM_TOKEN (1) and a --url that is not http(s) (2), calling nothing', async () => {
    const none = await gatewayIn({ ...env(), TELEGRAM_TOKEN: '' }, ['telegram', 'set-webhook']);
    expect([none.code, none.stderr]).toEqual([1, 'gateway: TELEGRAM_TOKEN is not set: there is no bot\n']);
    const bad = await gatewayIn(env(), ['telegram', 'set-webhook', '--url', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--url must be an http(s) URL: ftp://x');
    expect(receiver.requests).toHaveLength(0);
  });
});
