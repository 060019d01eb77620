// Email: the address a channel takes, and the alert through an SMTP sink (Healthchecks' subject
// and body, temporary and permanent refusals, no server configured).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../../../../helpers/world.ts';
import { startSmtpSink, type SmtpSink } from '../../../../helpers/receivers.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { flipDown, refusal } from '../helpers.ts';

let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
});

async function world(env: Record<string, string> = {}) {
  return createWorld({
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: String(sink.port),
    EMAIL_USE_TLS: 'False',
    DEFAULT_FROM_EMAIL: 'alerts@gateway.example',
    SITE_NAME: 'Campus Checks',
    ...env,
  });
}

describe('email: the value', () => {
  it('accepts an email address', () => {
    expect(validateChannelInput({ kind: 'email', value: 'ops@example.org' }).value).toBe('ops@example.org');
  });

  it('refuses a malformed address with its message', () => {
    expect(refusal(() => validateChannelInput({ kind: 'email', value: 'ops@' }))).toBe('value is not a valid email address');
    expect(refusal(() => validateChannelInput({ kind: 'email', value: 'two words@example.org' }))).toBe('value is not a valid email address');
  });
});

describe('email: the alert', () => {
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
