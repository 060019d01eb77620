// Channel tests are limited per project (ten a minute): the eleventh is refused RATE_LIMITED
// with the seconds to wait and sends nothing; a minute later tests go out again; another
// project's budget is its own. The clock is the world's, moved by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { startHttpReceiver, type HttpReceiver } from '../helpers/receivers.ts';
import { inProcess, type Query } from './in-process.ts';
import { TESTS_PER_WINDOW } from '../../src/monitoring/notifications/test-rate.ts';

const CREATE = 'mutation($value: String) { createChannel(kind: WEBHOOK, value: $value) { uuid } }';
const TEST = 'mutation($id: ID!) { testChannel(id: $id) { ok state } }';

describe('testChannel rate limit', () => {
  let w: World;
  let receiver: HttpReceiver;
  let q: Query;
  beforeAll(async () => {
    receiver = await startHttpReceiver();
    w = await createWorld({ INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True' });
    q = inProcess(w.app.services, w.app.log, w.alice.api_key);
  });
  afterAll(async () => {
    await w?.stop();
    await receiver?.close();
  });

  const channelOf = async (key: string, path: string) => {
    const r = await q(CREATE, { value: `${receiver.url}/${path}` }, key);
    expect(r.errors).toBeUndefined();
    return r.data.createChannel.uuid as string;
  };

  it('refuses the eleventh test in a minute, sending nothing, and allows tests again once the minute has passed', async () => {
    const alice = await channelOf(w.alice.api_key, 'alice');
    for (let i = 0; i < TESTS_PER_WINDOW; i++) {
      w.clock.advance(1000);
      expect((await q(TEST, { id: alice })).data.testChannel).toEqual({ ok: true, state: 'SENT' });
    }
    expect(receiver.requests).toHaveLength(TESTS_PER_WINDOW);

    const refused = await q(TEST, { id: alice });
    expect(refused.data).toBeNull();
    // The first test was 10 s before the last: its minute ends in 51 s.
    expect(refused.errors?.[0]).toMatchObject({ message: 'Too many channel tests in this project: try again in 51 seconds', extensions: { code: 'RATE_LIMITED', retryAfter: 51 } });
    expect(receiver.requests).toHaveLength(TESTS_PER_WINDOW);
    expect(await w.app.db.notification.count({ where: { reason: 'test' } })).toBe(TESTS_PER_WINDOW);

    // Another project's tests are not counted against this one.
    const bob = await channelOf(w.bob.api_key, 'bob');
    expect((await q(TEST, { id: bob }, w.bob.api_key)).data.testChannel).toEqual({ ok: true, state: 'SENT' });

    w.clock.advance(51_000);
    expect((await q(TEST, { id: alice })).data.testChannel).toEqual({ ok: true, state: 'SENT' });
    expect(receiver.requests.map((r) => r.path)).toEqual([...Array<string>(TESTS_PER_WINDOW).fill('/alice'), '/bob', '/alice']);
  });
});
