// Opsgenie: Healthchecks' JSON value (API key and region), and the Alert API requests a local
// receiver gets through INTEGRATION_BASE_URLS: an alert created with the check's unique key as
// its alias when the check goes down, closed by that alias when it comes back; an error answer's
// message quoted in the error, retried as Healthchecks retries it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { opsgenieUrl } from '../../../../../src/monitoring/integrations/kinds/opsgenie/transport.ts';
import { lastErrorsOf } from '../../../../../src/monitoring/notifications/last-errors.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const VALUE = JSON.stringify({ region: 'us', key: 'og-key-123' });
let w: World;

beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', SITE_ROOT: 'https://checks.example.org', INTEGRATION_BASE_URLS: JSON.stringify({ opsgenie: receiver.url }) });
});
afterAll(() => w.stop());

describe('opsgenie: the value', () => {
  it('takes {"region", "key"} as Healthchecks stores it', () => {
    expect(validateChannelInput({ kind: 'opsgenie', value: VALUE })).toMatchObject({ kind: 'opsgenie', value: VALUE });
    expect(validateChannelInput({ kind: 'opsgenie', value: '{"key": "k", "region": "eu"}' })).toMatchObject({ kind: 'opsgenie' });
  });

  it('refuses a plain key, a missing field, a long key and another region', () => {
    const form = 'value must be {"key": "<Opsgenie API key>", "region": "us" or "eu"}';
    expect(refusal(() => validateChannelInput({ kind: 'opsgenie', value: 'og-key-123' }))).toBe(form);
    expect(refusal(() => validateChannelInput({ kind: 'opsgenie', value: '{"key": "k"}' }))).toBe(form);
    expect(refusal(() => validateChannelInput({ kind: 'opsgenie', value: JSON.stringify({ key: 'k'.repeat(41), region: 'us' }) }))).toBe('key must be an Opsgenie API key (up to 40 characters)');
    expect(refusal(() => validateChannelInput({ kind: 'opsgenie', value: '{"key": "k", "region": "apac"}' }))).toBe('region must be "us" or "eu"');
  });

  it('sends to the region’s host: api.opsgenie.com, or api.eu.opsgenie.com', () => {
    expect(opsgenieUrl({ key: 'k', region: 'us' }, 'down', 'abc')).toBe('https://api.opsgenie.com/v2/alerts');
    expect(opsgenieUrl({ key: 'k', region: 'eu' }, 'down', 'abc')).toBe('https://api.eu.opsgenie.com/v2/alerts');
    expect(opsgenieUrl({ key: 'k', region: 'eu' }, 'up', 'abc')).toBe('https://api.eu.opsgenie.com/v2/alerts/abc/close?identifierType=alias');
  });
});

describe('opsgenie: the alerts', () => {
  it('creates an alert aliased by the unique key when the check goes down, and closes it by that alias when it comes back', async () => {
    const c = await incidentCheck(w, 'opsgenie', VALUE, { name: 'Grades & export', tags: 'prod db', desc: 'nightly' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/v2/alerts' });
    expect(down!.headers).toMatchObject({ authorization: 'GenieKey og-key-123', 'content-type': 'application/json' });
    expect(JSON.parse(down!.body)).toEqual({
      alias: c.uniqueKey,
      source: 'Campus Checks',
      tags: ['prod', 'db'],
      // Healthchecks' template escapes the name.
      message: 'The check "Grades &amp; export" is DOWN (success signal did not arrive on time, grace time passed).',
      description: 'nightly',
      details: {
        Project: 'Alice',
        'Total pings': 1,
        'Last ping': 'Success, 2 minutes ago',
        Period: '1 minute',
        'Full details': `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`,
      },
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(up).toMatchObject({ method: 'POST', path: `/v2/alerts/${c.uniqueKey}/close?identifierType=alias` });
    expect(up!.headers.authorization).toBe('GenieKey og-key-123');
    expect(JSON.parse(up!.body)).toEqual({ alias: c.uniqueKey, source: 'Campus Checks' });
  });

  it('quotes the answer’s message in the error, shown as the channel’s last error, and retries', async () => {
    receiver.respond(() => ({ status: 403, headers: { 'Content-Type': 'application/json' }, body: '{"message": "Nice try", "took": 0.001}' }));
    const c = await incidentCheck(w, 'opsgenie', VALUE);
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', lastError: 'Received status code 403 with a message: "Nice try"' }]);
    expect((await lastErrorsOf(w.app.db, [c.channel.id])).get(c.channel.id)).toBe('Received status code 403 with a message: "Nice try"');

    receiver.respond(() => ({ status: 503, body: '<html>busy</html>', headers: { 'Retry-After': '30' } }));
    w.clock.advance(5_000);
    await w.app.notifier.tick();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 2, lastError: 'Received status code 503' });
    // Backoff after a second attempt is 20 s; the answer asked for 30.
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(30_000);
  });
});
