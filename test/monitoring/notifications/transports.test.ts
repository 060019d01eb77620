// Each kind against a real local receiver: email through an SMTP sink, SMS through a
// Twilio-compatible endpoint, chat hooks (Slack, Mattermost, Rocket.Chat, Discord).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../helpers/world.ts';
import { startHttpReceiver, startSmtpSink, type HttpReceiver, type SmtpSink } from '../../helpers/receivers.ts';
import { createChannel } from '../../../src/monitoring/integrations/service.ts';

let receiver: HttpReceiver;
let sink: SmtpSink;

beforeAll(async () => {
  receiver = await startHttpReceiver();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await receiver.close();
  await sink.close();
});

async function world(env: Record<string, string> = {}) {
  return createWorld({
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: String(sink.port),
    EMAIL_USE_TLS: 'False',
    DEFAULT_FROM_EMAIL: 'alerts@gateway.example',
    TWILIO_ACCOUNT: 'AC123',
    TWILIO_AUTH: 'secret',
    TWILIO_FROM: '+15550001111',
    TWILIO_API_URL: `${receiver.url}/twilio`,
    SITE_NAME: 'Campus Checks',
    ...env,
  });
}

/** A check named `name` in alice's project notifying one new channel, pinged up then failed. */
async function flipDown(w: World, kind: string, value: string, name = 'backup', extra: Record<string, unknown> = {}) {
  const channel = await createChannel(w.app.db, w.alice.id, { kind, value });
  const created = await w.api('POST', '/api/v3/checks/', { body: { name, channels: channel.code, ...extra } });
  await w.ping(`/ping/${created.json.uuid}`);
  await w.ping(`/ping/${created.json.uuid}/fail`, { method: 'POST', body: 'disk full' });
  await w.app.notifier.tick();
  return created.json.uuid as string;
}

describe('email', () => {
  it('sends Healthchecks’ subject and a body with the check, its status, the last ping and the other down checks', async () => {
    const w = await world();
    try {
      sink.messages.length = 0;
      const other = await w.api('POST', '/api/v3/checks/', { body: { name: 'reports' } });
      await w.ping(`/ping/${other.json.uuid}/fail`);
      await flipDown(w, 'email', 'ops@example.org', 'backup', { tags: 'prod nightly', desc: 'Nightly dump' });
      const [m] = await sink.waitFor(1);
      expect(m!.from).toBe('alerts@gateway.example');
      expect(m!.to).toEqual(['ops@example.org']);
      expect(m!.parsed.subject).toBe('DOWN | backup');
      const text = m!.parsed.text!;
      expect(text).toContain('"backup" is DOWN.');
      expect(text).toContain('Project: Alice');
      expect(text).toContain('Tags: prod, nightly');
      expect(text).toContain('Total pings: 2');
      expect(text).toMatch(/Last ping: Failure, 2026-01-05 10:00 UTC/);
      expect(text).toContain('Other checks that are down:\n- reports');
      expect(m!.parsed.html).toContain('<li>reports</li>');
      const [n] = await w.app.db.notification.findMany();
      // The host of SITE_ROOT (here http://localhost:0).
      expect(m!.parsed.messageId).toBe(`<${n!.code}@localhost>`);
      expect(text).toContain('Last ping body:\ndisk full');
      expect(n!.state).toBe('sent');
    } finally {
      await w.stop();
    }
  });

  it('says all other checks are up, and names an unnamed check by its UUID', async () => {
    const w = await world();
    try {
      sink.messages.length = 0;
      await w.api('POST', '/api/v3/checks/', { body: { name: 'fine' } });
      const uuid = await flipDown(w, 'email', 'ops@example.org', '');
      const [m] = await sink.waitFor(1);
      expect(m!.parsed.subject).toBe(`DOWN | ${uuid}`);
      expect(m!.parsed.text).toContain('All the other checks are up.');
    } finally {
      await w.stop();
    }
  });

  it('retries when the mail server refuses temporarily, and fails for good on a permanent refusal', async () => {
    const w = await world();
    try {
      sink.messages.length = 0;
      sink.refuse(451);
      await flipDown(w, 'email', 'ops@example.org');
      let [n] = await w.app.db.notification.findMany();
      expect(n).toMatchObject({ state: 'pending', attempts: 1 });
      expect(n!.lastError).toMatch(/^SMTP error: 451/);
      sink.refuse(550);
      w.clock.advance(5_000);
      await w.app.notifier.tick();
      [n] = await w.app.db.notification.findMany();
      expect(n).toMatchObject({ state: 'failed', attempts: 2 });
      expect(n!.lastError).toMatch(/^SMTP error: 550/);
    } finally {
      sink.refuse(null);
      await w.stop();
    }
  });

  it('fails with a clear error when no mail server is configured', async () => {
    const w = await createWorld();
    try {
      await flipDown(w, 'email', 'ops@example.org');
      expect(await w.app.db.notification.findMany()).toMatchObject([
        { state: 'failed', attempts: 1, lastError: 'Email notifications are not configured (set EMAIL_HOST).' },
      ]);
    } finally {
      await w.stop();
    }
  });
});

describe('sms', () => {
  it('posts to the Twilio Messages API with basic auth, from, to and a short text', async () => {
    const w = await world();
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'sms', '+15557654321');
      const [req] = await receiver.waitFor(1);
      expect(req!.method).toBe('POST');
      expect(req!.path).toBe('/twilio/2010-04-01/Accounts/AC123/Messages.json');
      expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
      const form = new URLSearchParams(req!.body);
      expect(form.get('From')).toBe('+15550001111');
      expect(form.get('To')).toBe('+15557654321');
      expect(form.get('Body')).toBe('The check "backup" is DOWN. Project: Alice. Last ping: Failure, 2026-01-05 10:00 UTC.');
    } finally {
      await w.stop();
    }
  });

  it('fails with a clear error when Twilio is not configured', async () => {
    const w = await createWorld();
    try {
      await flipDown(w, 'sms', '+15557654321');
      const [n] = await w.app.db.notification.findMany();
      expect(n).toMatchObject({ state: 'failed' });
      expect(n!.lastError).toContain('TWILIO_ACCOUNT');
    } finally {
      await w.stop();
    }
  });
});

describe('chat', () => {
  it('posts Slack’s attachment payload to Slack and Mattermost hooks', async () => {
    const w = await world();
    try {
      for (const kind of ['slack', 'mattermost']) {
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
      }
    } finally {
      await w.stop();
    }
  });

  it('posts to "<hook>/slack" for Discord and Rocket.Chat’s own shape for Rocket.Chat', async () => {
    const w = await world();
    try {
      receiver.requests.length = 0;
      await flipDown(w, 'discord', `${receiver.url}/api/webhooks/1/abc`, 'nightly');
      await flipDown(w, 'rocketchat', `${receiver.url}/hooks/rc`, 'weekly');
      const requests = await receiver.waitFor(2);
      const discord = requests.find((r) => r.path.startsWith('/api/webhooks'))!;
      expect(discord.path).toBe('/api/webhooks/1/abc/slack');
      expect(JSON.parse(discord.body).attachments[0].title).toBe('“nightly” is DOWN.');
      const rocket = JSON.parse(requests.find((r) => r.path === '/hooks/rc')!.body);
      expect(rocket.alias).toBe('Campus Checks');
      expect(rocket.text).toMatch(/^\[weekly\]\(http.*\/api\/v3\/checks\/[0-9a-f-]{36}\) is DOWN\.$/);
      expect(rocket.attachments[0].color).toBe('#d9534f');
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
});
