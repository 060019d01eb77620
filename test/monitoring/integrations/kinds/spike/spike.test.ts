// Spike.sh: the webhook URL a channel takes, and what a local receiver gets through
// INTEGRATION_BASE_URLS: the check's unique key, Healthchecks' title and message, the status;
// failures retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const URL = 'https://hooks.spike.sh/abc123/push-events';
let w: World;

beforeAll(async () => {
  w = await createWorld({ INTEGRATION_BASE_URLS: JSON.stringify({ spike: receiver.url }) });
});
afterAll(() => w.stop());

describe('spike: the value', () => {
  it('takes the webhook URL and refuses anything else', () => {
    expect(validateChannelInput({ kind: 'spike', value: URL })).toMatchObject({ kind: 'spike', value: URL });
    expect(refusal(() => validateChannelInput({ kind: 'spike', value: 'hooks.spike.sh/abc' }))).toBe('value is not a valid http(s) URL');
  });
});

describe('spike: the alerts', () => {
  it('posts the status with Healthchecks’ title and message, down and up', async () => {
    const c = await incidentCheck(w, 'spike', URL, { name: 'Foo & Bar' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/abc123/push-events' });
    expect(down!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(down!.body)).toEqual({
      check_id: c.uniqueKey,
      title: 'Foo & Bar is DOWN (success signal did not arrive on time, grace time passed)',
      message: 'Foo & Bar is DOWN (success signal did not arrive on time, grace time passed).\n\nLast ping was 2 minutes ago.',
      status: 'down',
    });
    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(JSON.parse(up!.body)).toEqual({ check_id: c.uniqueKey, title: 'Foo & Bar is UP', message: 'Foo & Bar is UP.', status: 'up' });
  });

  it('retries a failure answer, no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '90' } }));
    const c = await incidentCheck(w, 'spike', URL);
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 429' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(90_000);
  });
});
