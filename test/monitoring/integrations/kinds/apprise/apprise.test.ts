// Apprise: the channel's Apprise URLs, APPRISE_ENABLED and APPRISE_API_URL, and what a local
// stand-in for the Apprise API server receives at /notify/: the URLs, Healthchecks' title and
// body, "failure" or "success". The API's 424 (a service failed) is retried as Healthchecks'
// "Failed"; its 204 (no valid URL) fails for good; off by default, and refused at the
// configuration check when enabled without a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { inspectConfig } from '../../../../../src/config/index.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const URLS = 'json://hooks.example.org/alerts, mailto://ops:secret@example.org';
let w: World;

beforeAll(async () => {
  w = await createWorld({
    APPRISE_ENABLED: 'True',
    // Trailing "/" dropped; the server is the operator's own, so a private address is fine even
    // where users' URLs may not reach one.
    APPRISE_API_URL: `${receiver.url}/apprise/`,
    INTEGRATIONS_ALLOW_PRIVATE_IPS: 'False',
  });
});
afterAll(() => w?.stop());

describe('apprise: the value', () => {
  it('takes one or more Apprise URLs, separated by spaces or commas', () => {
    for (const value of ['json://example.org', URLS, 'tgram://bottoken/ChatID discord://id/token']) {
      expect(validateChannelInput({ kind: 'apprise', value }), value).toMatchObject({ kind: 'apprise', notifyDown: true, notifyUp: true });
    }
  });

  it('refuses what is not an Apprise URL, and more than Healthchecks’ 512 characters', () => {
    for (const value of ['example.org', 'json://example.org, ops@example.org', ',']) {
      expect(refusal(() => validateChannelInput({ kind: 'apprise', value })), value).toBe('value must be one or more Apprise URLs, such as json://example.org/hook or mailto://user:pass@example.org');
    }
    expect(refusal(() => validateChannelInput({ kind: 'apprise', value: `json://${'a'.repeat(506)}` }))).toBe('Ensure this value has at most 512 characters (it has 513).');
  });
});

describe('apprise: the alerts', () => {
  it('posts Healthchecks’ title and body to the Apprise API, as a failure when down and a success when up', async () => {
    const c = await incidentCheck(w, 'apprise', URLS, { name: 'Grades & export' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/apprise/notify/' });
    expect(down!.headers['content-type']).toBe('application/json');
    expect(down!.headers.accept).toBe('application/json');
    expect(JSON.parse(down!.body)).toEqual({
      urls: URLS,
      title: 'Grades & export is DOWN',
      body: 'Reason: success signal did not arrive on time, grace time passed.',
      type: 'failure',
      format: 'text',
    });
    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(JSON.parse(up!.body)).toEqual({ urls: URLS, title: 'Grades & export is UP', body: 'The downtime lasted 38 minutes, 0 seconds.', type: 'success', format: 'text' });
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'sent' }, { state: 'sent' }]);
  });

  it('retries when a service failed (424), as Healthchecks’ "Failed", and another refusal no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 424, headers: { 'Content-Type': 'application/json' }, body: '{"error": "One or more notifications could not be sent", "details": []}' }));
    const a = await incidentCheck(w, 'apprise', 'json://hooks.example.org/a');
    await a.down();
    expect(await notificationsOf(w, a.channel.id)).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'Failed (One or more notifications could not be sent)' }]);

    receiver.respond(() => ({ status: 503, headers: { 'Retry-After': '30' }, body: 'starting' }));
    const b = await incidentCheck(w, 'apprise', 'json://hooks.example.org/b');
    await b.down();
    const [n] = await notificationsOf(w, b.channel.id);
    expect(n).toMatchObject({ state: 'pending', lastError: 'Received status code 503' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(30_000);
  });

  it('fails for good when the Apprise API finds no valid URL (204), which no retry changes', async () => {
    receiver.respond(204);
    const c = await incidentCheck(w, 'apprise', 'nosuchservice://example.org');
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Failed: the Apprise API found no valid Apprise URL in the channel’s value' }]);
  });
});

describe('apprise: the settings', () => {
  it('is off by default: refused for good, and nothing is sent', async () => {
    const off = await createWorld({ APPRISE_API_URL: `${receiver.url}/apprise` });
    try {
      const c = await incidentCheck(off, 'apprise', URLS);
      await c.down();
      expect(await notificationsOf(off, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Apprise notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });

  it('refuses APPRISE_ENABLED without APPRISE_API_URL at the configuration check', () => {
    expect(inspectConfig({ APPRISE_ENABLED: 'True' })).toMatchObject({
      config: null,
      problems: [
        {
          name: 'APPRISE_ENABLED',
          value: 'True',
          message: 'Apprise alerts need APPRISE_API_URL, the base URL of an Apprise API server (https://github.com/caronc/apprise-api), e.g. http://127.0.0.1:8000',
        },
      ],
    });
    expect(inspectConfig({ APPRISE_ENABLED: 'True', APPRISE_API_URL: 'http://apprise:8000/' }).config?.notify.appriseApiUrl).toBe('http://apprise:8000');
    expect(inspectConfig({ APPRISE_API_URL: 'http://apprise:8000' }).config?.notify.appriseApiUrl).toBeNull();
  });
});
