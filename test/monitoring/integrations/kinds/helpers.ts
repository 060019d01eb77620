// What the kinds' tests share: the message of a validation refusal, a check that flips down
// through one new channel of a kind, and the contract of every hook-URL kind.
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../helpers/world.ts';
import type { HttpReceiver } from '../../../helpers/receivers.ts';
import { createChannel, validateChannelInput } from '../../../../src/monitoring/integrations/service.ts';
import { DomainError } from '../../../../src/shared/errors.ts';

/** The VALIDATION message `fn` throws; fails the test if it throws anything else or nothing. */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('VALIDATION');
    return (e as Error).message;
  }
  throw new Error('expected a validation error, got none');
}

/** A check named `name` in alice's project notifying one new channel, pinged up then failed. */
export async function flipDown(w: World, kind: string, value: string, name = 'backup', extra: Record<string, unknown> = {}) {
  const channel = await createChannel(w.app.db, w.alice.id, { kind, value });
  const created = await w.api('POST', '/api/v3/checks/', { body: { name, channels: channel.code, ...extra } });
  await w.ping(`/ping/${created.json.uuid}`);
  await w.ping(`/ping/${created.json.uuid}/fail`, { method: 'POST', body: 'disk full' });
  await w.app.notifier.tick();
  return created.json.uuid as string;
}

/**
 * What every kind whose value is an http(s) hook URL must do, whatever it posts: take such a URL,
 * refuse anything else with Healthchecks' message, and, switched off by its operator setting,
 * refuse the alert for good without sending anything. Each kind's file adds what is its own.
 */
export function hookKindContract(kind: string, o: { label: string; switch: string; notAUrl: string; receiver: HttpReceiver }) {
  describe(`${kind}: the value`, () => {
    it('accepts an http(s) hook URL', () => {
      expect(validateChannelInput({ kind, value: 'https://chat.example.org/hooks/abc' })).toMatchObject({ kind, notifyDown: true, notifyUp: true });
    });

    it('refuses a value that is not an http(s) URL', () => {
      expect(refusal(() => validateChannelInput({ kind, value: o.notAUrl }))).toBe('value is not a valid http(s) URL');
    });
  });

  describe(`${kind}: switched off`, () => {
    it(`is refused for good when ${o.switch} is False, and nothing is sent`, async () => {
      const w = await createWorld({ [o.switch]: 'False' });
      try {
        o.receiver.requests.length = 0;
        await flipDown(w, kind, `${o.receiver.url}/hook`);
        expect(await w.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: `${o.label} notifications are not enabled.` }]);
        expect(o.receiver.requests).toHaveLength(0);
      } finally {
        await w.stop();
      }
    });
  });
}
