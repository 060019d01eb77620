// What the kinds' tests share: the message of a validation refusal, and a check that flips down
// through one new channel of a kind.
import { expect } from 'vitest';
import type { World } from '../../../helpers/world.ts';
import { createChannel } from '../../../../src/monitoring/integrations/service.ts';
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
