// PagerDuty: the integration key a channel takes (plain, or Healthchecks' JSON), and the Events
// API v2 requests a local receiver gets through INTEGRATION_BASE_URLS: a trigger when the check
// goes down and a resolve when it comes back, deduplicated by the check's unique key; failures
// retried, Retry-After honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const KEY = 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4';
let w: World;

beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', SITE_ROOT: 'https://checks.example.org', INTEGRATION_BASE_URLS: JSON.stringify({ pd: `${receiver.url}/pd-proxy` }) });
});
afterAll(() => w.stop());

describe('pagerduty: the value', () => {
  it('takes the integration key as Healthchecks stores it: plain, or {"service_key", "account"}; "pd" names the kind', () => {
    expect(validateChannelInput({ kind: 'pagerduty', value: KEY })).toMatchObject({ kind: 'pagerduty', value: KEY, notifyDown: true, notifyUp: true });
    const json = JSON.stringify({ service_key: KEY, account: 'Acme' });
    expect(validateChannelInput({ kind: 'pd', value: json })).toMatchObject({ kind: 'pagerduty', value: json });
  });

  it('refuses what is no key', () => {
    const message = 'value must be a PagerDuty integration key (up to 32 characters), or {"service_key": "…", "account": "…"}';
    for (const value of ['a'.repeat(33), 'has space', '{"account": "Acme"}', '{"service_key": 5}', '{"service_key": "k", "account": 1}', '{not json']) {
      expect(refusal(() => validateChannelInput({ kind: 'pagerduty', value })), value).toBe(message);
    }
  });
});

describe('pagerduty: the alerts', () => {
  it('triggers an incident keyed by the check’s unique key when the check goes down, and resolves it when it comes back', async () => {
    const c = await incidentCheck(w, 'pagerduty', KEY, { name: 'nightly-dump', tags: 'prod db', desc: 'pg_dump of the SIS' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/pd-proxy/v2/enqueue' });
    expect(down!.headers['content-type']).toBe('application/json');
    const [notification] = await notificationsOf(w, c.channel.id);
    expect(down!.headers['idempotency-key']).toBe(notification!.code);
    expect(JSON.parse(down!.body)).toEqual({
      routing_key: KEY,
      dedup_key: c.uniqueKey,
      event_action: 'trigger',
      payload: {
        summary: 'nightly-dump is DOWN (success signal did not arrive on time, grace time passed).',
        source: 'Campus Checks',
        severity: 'critical',
        custom_details: { Project: 'Alice', 'Total pings': 1, 'Last ping': 'Success, 2 minutes ago', Description: 'pg_dump of the SIS', Tags: 'prod, db', Period: '1 minute' },
      },
      client: 'Campus Checks',
      client_url: `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`,
    });
    // The UUID is the ping secret: it never reaches PagerDuty.
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(up!.path).toBe('/pd-proxy/v2/enqueue');
    expect(JSON.parse(up!.body)).toEqual({ routing_key: KEY, dedup_key: c.uniqueKey, event_action: 'resolve' });
    expect((await notificationsOf(w, c.channel.id)).map((n) => [n.status, n.state])).toEqual([['down', 'sent'], ['up', 'sent']]);
  });

  it('reads the key from Healthchecks’ JSON value', async () => {
    const c = await incidentCheck(w, 'pd', JSON.stringify({ service_key: 'fromjson', account: 'Acme' }));
    await c.down();
    const [req] = await receiver.waitFor(1);
    expect(JSON.parse(req!.body)).toMatchObject({ routing_key: 'fromjson', event_action: 'trigger' });
  });

  it('retries a failure answer (Healthchecks marks none permanent), no sooner than a Retry-After asks', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '120' } }));
    const c = await incidentCheck(w, 'pagerduty', KEY);
    await c.down();
    const [first] = await notificationsOf(w, c.channel.id);
    expect(first).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 429' });
    expect(first!.nextAttemptAt.getTime() - first!.lastAttemptAt!.getTime()).toBe(120_000);

    receiver.respond(202);
    w.clock.advance(60_000);
    await w.app.notifier.tick();
    expect(receiver.requests).toHaveLength(1);
    w.clock.advance(61_000);
    await w.app.notifier.tick();
    expect(receiver.requests).toHaveLength(2);
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'sent', attempts: 2, lastError: '' }]);
  });

  it('retries a 400 with the usual backoff (5 s after the first attempt)', async () => {
    receiver.respond(400);
    const c = await incidentCheck(w, 'pagerduty', KEY);
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', lastError: 'Received status code 400' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(5_000);
  });
});
