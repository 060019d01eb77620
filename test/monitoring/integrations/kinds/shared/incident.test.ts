// What the incident and push kinds share, and INTEGRATION_BASE_URLS for every HTTP kind: the
// operator's switches (PD_ENABLED…), the private-address rule on a base URL, the REST list's
// kind codes, channel tests, and the pieces (rebasing a URL, reading Retry-After, how long a
// retry waits for it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { createChannel } from '../../../../../src/monitoring/integrations/service.ts';
import { testChannel } from '../../../../../src/monitoring/notifications/service.ts';
import { rebase, retryAfterMs } from '../../../../../src/monitoring/integrations/kinds/shared/http.ts';
import { withRetryAfter } from '../../../../../src/monitoring/notifications/retry.ts';
import { flipDown, notificationsOf } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const NTFY = JSON.stringify({ priority: 5, priority_up: 3, token: '', topic: 'alerts', url: 'https://ntfy.sh' });

describe('switched off, and base URLs on private addresses', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld({
      PD_ENABLED: 'False',
      OPSGENIE_ENABLED: 'False',
      VICTOROPS_ENABLED: 'False',
      PAGERTREE_ENABLED: 'False',
      SPIKE_ENABLED: 'False',
      INTEGRATIONS_ALLOW_PRIVATE_IPS: 'False',
      INTEGRATION_BASE_URLS: JSON.stringify({ ntfy: receiver.url }),
    });
  });
  afterAll(() => w.stop());

  it.each([
    ['pagerduty', 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4', 'PagerDuty'],
    ['opsgenie', '{"region": "us", "key": "k"}', 'Opsgenie'],
    ['victorops', 'https://alert.victorops.com/integrations/generic/1/alert/k/r', 'Splunk On-Call'],
    ['pagertree', 'https://api.pagertree.com/integration/int_1', 'PagerTree'],
    ['spike', 'https://hooks.spike.sh/1/push-events', 'Spike'],
  ])('refuses %s alerts for good when its switch is False, sending nothing', async (kind, value, label) => {
    await flipDown(w, kind, value, `switched-${kind}`);
    const channel = await w.app.db.channel.findFirstOrThrow({ where: { kind }, orderBy: { id: 'desc' } });
    expect(await notificationsOf(w, channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: `${label} notifications are not enabled.` }]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a base URL on a private address as it refuses a webhook’s, unless INTEGRATIONS_ALLOW_PRIVATE_IPS', async () => {
    await flipDown(w, 'ntfy', NTFY, 'private');
    const channel = await w.app.db.channel.findFirstOrThrow({ where: { kind: 'ntfy' } });
    expect(await notificationsOf(w, channel.id)).toMatchObject([{ state: 'failed', lastError: 'Connections to private IP addresses are not allowed' }]);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('base URLs, kind codes and channel tests', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld({
      SITE_NAME: 'Campus Checks',
      INTEGRATION_BASE_URLS: JSON.stringify({ pd: `${receiver.url}/pd`, slack: `${receiver.url}/slack-proxy` }),
    });
  });
  afterAll(() => w.stop());

  it('sends a channel test as Healthchecks’ check named TEST, keyed by a unique key of its own', async () => {
    const channel = await createChannel(w.app.db, w.alice.id, { kind: 'pd', value: 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4' });
    expect(channel.kind).toBe('pagerduty');
    const result = await testChannel(w.app.db, w.app.notifier, w.alice.id, channel.code, w.clock.now());
    expect(result).toMatchObject({ state: 'sent', error: '' });
    const [req] = await receiver.waitFor(1);
    expect(req!.path).toBe('/pd/v2/enqueue');
    const body = JSON.parse(req!.body);
    expect(body).toMatchObject({ event_action: 'trigger', payload: { summary: 'TEST is DOWN (success signal did not arrive on time, grace time passed).' } });
    expect(body.dedup_key).toMatch(/^[0-9a-f]{40}$/);
  });

  it('lists PagerDuty as "pd" in the REST API, as Healthchecks does', async () => {
    const res = await w.api('GET', '/api/v3/channels/');
    expect(res.json.channels.map((c: { kind: string }) => c.kind)).toContain('pd');
    expect(res.json.channels.map((c: { kind: string }) => c.kind)).not.toContain('pagerduty');
  });

  it('rebases the chat kinds’ hooks too', async () => {
    await flipDown(w, 'slack', 'https://hooks.slack.com/services/T0/B0/xyz', 'chat');
    const [req] = await receiver.waitFor(1);
    expect(req!.path).toBe('/slack-proxy/services/T0/B0/xyz');
  });
});

describe('the pieces', () => {
  it('rebase takes the base’s scheme, host and port, puts its path first and keeps the rest', () => {
    expect(rebase('https://events.pagerduty.com/v2/enqueue', 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/v2/enqueue');
    expect(rebase('https://api.opsgenie.com:8443/v2/alerts/k/close?identifierType=alias', 'https://proxy.example.org/og/')).toBe('https://proxy.example.org/og/v2/alerts/k/close?identifierType=alias');
    expect(rebase('https://ntfy.sh', undefined)).toBe('https://ntfy.sh');
  });

  it('reads Retry-After in seconds or as an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-01-05T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 05 Jan 2026 10:01:30 GMT', now)).toBe(90_000);
    expect(retryAfterMs('Mon, 05 Jan 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('waits for a Retry-After longer than the backoff, at most an hour, and never past the last attempt', () => {
    const at = new Date('2026-01-05T10:00:00Z');
    const backoff = new Date(at.getTime() + 5_000);
    expect(withRetryAfter(backoff, at, 120_000)).toEqual(new Date(at.getTime() + 120_000));
    expect(withRetryAfter(backoff, at, 1_000)).toEqual(backoff);
    expect(withRetryAfter(backoff, at, 86_400_000)).toEqual(new Date(at.getTime() + 3_600_000));
    expect(withRetryAfter(null, at, 120_000)).toBeNull();
    expect(withRetryAfter(backoff, at, undefined)).toEqual(backoff);
  });
});
