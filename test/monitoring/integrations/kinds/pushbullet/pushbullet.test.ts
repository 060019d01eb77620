// Pushbullet: the value is the access token, and a local receiver (INTEGRATION_BASE_URLS) gets
// Healthchecks' push: a "note" titled with SITE_NAME, the Access-Token header, the check down
// (and why) or up (and the downtime). Failures are retried, Retry-After honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
let w: World;

beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', INTEGRATION_BASE_URLS: JSON.stringify({ pushbullet: `${receiver.url}/pb` }) });
});
afterAll(() => w.stop());

describe('pushbullet: the value', () => {
  it('takes an access token and refuses what cannot be one', () => {
    expect(validateChannelInput({ kind: 'pushbullet', value: 'o.AbCdEf123' })).toMatchObject({ kind: 'pushbullet', notifyDown: true, notifyUp: true });
    expect(refusal(() => validateChannelInput({ kind: 'pushbullet', value: 'two words' }))).toBe('value must be a Pushbullet access token');
  });
});

describe('pushbullet: the alerts', () => {
  it('pushes the down note with the reason, then the up note with the downtime', async () => {
    const c = await incidentCheck(w, 'pushbullet', 'o.AbCdEf123', { name: 'Grades & <export>' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/pb/v2/pushes' });
    expect(down!.headers).toMatchObject({ 'access-token': 'o.AbCdEf123', 'content-type': 'application/json' });
    expect(JSON.parse(down!.body)).toEqual({
      type: 'note',
      title: 'Campus Checks',
      body: 'The check "Grades & <export>" is DOWN (success signal did not arrive on time, grace time passed).',
    });
    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(JSON.parse(up!.body)).toEqual({ type: 'note', title: 'Campus Checks', body: 'The check "Grades & <export>" is UP.\nThe downtime lasted 38 minutes, 0 seconds.' });
    expect(down!.body + up!.body).not.toContain(c.uuid);
  });

  it('retries a failure no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '30' }, body: '{"error":{"code":"too_many_requests"}}' }));
    const c = await incidentCheck(w, 'pushbullet', 'o.AbCdEf123');
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 429' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(30_000);
  });

  it('retries an unauthorized answer too (Healthchecks treats every refusal alike)', async () => {
    receiver.respond(401);
    const c = await incidentCheck(w, 'pushbullet', 'o.revoked');
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'Received status code 401' }]);
  });
});
