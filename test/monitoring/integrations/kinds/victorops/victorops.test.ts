// Splunk On-Call (VictorOps): the REST endpoint URL a channel takes, and what a local receiver
// gets at that URL's path through INTEGRATION_BASE_URLS: CRITICAL when the check goes down,
// RECOVERY when it comes back, one incident per check; a 404 fails for good (Healthchecks:
// permanent), other failures are retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { lastErrorsOf } from '../../../../../src/monitoring/notifications/last-errors.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const URL = 'https://alert.victorops.com/integrations/generic/20131114/alert/api-key/routing-key';
let w: World;

beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', INTEGRATION_BASE_URLS: JSON.stringify({ victorops: receiver.url }) });
});
afterAll(() => w.stop());

describe('victorops: the value', () => {
  it('takes the REST endpoint URL and refuses anything else', () => {
    expect(validateChannelInput({ kind: 'victorops', value: URL })).toMatchObject({ kind: 'victorops', value: URL });
    expect(refusal(() => validateChannelInput({ kind: 'victorops', value: 'alert.victorops.com/x' }))).toBe('value is not a valid http(s) URL');
  });
});

describe('victorops: the alerts', () => {
  it('posts CRITICAL when the check goes down and RECOVERY when it comes back, keyed by the unique key', async () => {
    const c = await incidentCheck(w, 'victorops', URL, { name: 'Foo & Bar' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/integrations/generic/20131114/alert/api-key/routing-key' });
    expect(down!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(down!.body)).toEqual({
      entity_id: c.uniqueKey,
      message_type: 'CRITICAL',
      entity_display_name: 'Foo & Bar',
      state_message: 'Foo & Bar is DOWN (success signal did not arrive on time, grace time passed).',
      monitoring_tool: 'Campus Checks',
    });
    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(JSON.parse(up!.body)).toEqual({ entity_id: c.uniqueKey, message_type: 'RECOVERY', entity_display_name: 'Foo & Bar', state_message: 'Foo & Bar is UP.', monitoring_tool: 'Campus Checks' });
  });

  it('fails for good on a 404 (the endpoint is gone), shown as the channel’s last error', async () => {
    receiver.respond(404);
    const c = await incidentCheck(w, 'victorops', URL);
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Received status code 404' }]);
    expect((await lastErrorsOf(w.app.db, [c.channel.id])).get(c.channel.id)).toBe('Received status code 404');
  });

  it('retries a 500', async () => {
    receiver.respond(500);
    const c = await incidentCheck(w, 'victorops', URL);
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'Received status code 500' }]);
  });
});
