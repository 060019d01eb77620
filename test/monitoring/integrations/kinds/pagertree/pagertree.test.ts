// PagerTree: the webhook URL a channel takes, and what a local receiver gets through
// INTEGRATION_BASE_URLS: a trigger when the check goes down and a resolve when it comes back
// (incident_key: the check's unique key), as Healthchecks words them; failures retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const URL = 'https://api.pagertree.com/integration/int_abc123';
let w: World;

beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', SITE_ROOT: 'https://checks.example.org', INTEGRATION_BASE_URLS: JSON.stringify({ pagertree: `${receiver.url}/pt` }) });
});
afterAll(() => w.stop());

describe('pagertree: the value', () => {
  it('takes the webhook URL and refuses anything else', () => {
    expect(validateChannelInput({ kind: 'pagertree', value: URL })).toMatchObject({ kind: 'pagertree', value: URL });
    expect(refusal(() => validateChannelInput({ kind: 'pagertree', value: 'int_abc123' }))).toBe('value is not a valid http(s) URL');
  });
});

describe('pagertree: the alerts', () => {
  it('triggers when the check goes down and resolves when it comes back', async () => {
    const c = await incidentCheck(w, 'pagertree', URL, { name: 'Foo & Bar', tags: 'prod db' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/pt/integration/int_abc123' });
    expect(down!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(down!.body)).toEqual({
      incident_key: c.uniqueKey,
      event_type: 'trigger',
      title: 'Foo & Bar is DOWN (success signal did not arrive on time, grace time passed)',
      // The description's name is escaped (Healthchecks' template has no |safe there).
      description: 'Foo &amp; Bar is DOWN (success signal did not arrive on time, grace time passed).\n\nLast ping was 2 minutes ago.',
      client: 'Campus Checks',
      client_url: 'https://checks.example.org',
      tags: 'prod db',
    });
    await c.up();
    const [, up] = await receiver.waitFor(2);
    expect(JSON.parse(up!.body)).toMatchObject({ incident_key: c.uniqueKey, event_type: 'resolve', title: 'Foo & Bar is UP', description: 'Foo &amp; Bar is UP.' });
  });

  it('retries a failure answer, a 404 too (Healthchecks marks none permanent)', async () => {
    receiver.respond(404);
    const c = await incidentCheck(w, 'pagertree', URL);
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'Received status code 404' }]);
  });
});
