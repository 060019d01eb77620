// What users do with notifications: test a channel, read what was sent and how it went, set
// the repeat-alert period. Both transports (GraphQL, CLI) call these.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { notFound, validationError } from '../../shared/errors.ts';
import { findChannel } from '../integrations/service.ts';
import type { DeliveryOutcome, Notifier } from './notifier.ts';

/** Sends a test notification to the channel now and returns how it went (no retry). */
export async function testChannel(db: Db, notifier: Notifier, projectId: string | null, code: string, now: Date): Promise<DeliveryOutcome & { id: string }> {
  const channel = await findChannel(db, projectId, code);
  // A test shows what a down alert looks like, unless the channel only takes "up".
  const status = channel.notifyDown ? 'down' : 'up';
  const id = randomUUID();
  const outcome = await notifier.sendNow({
    code: id,
    channelId: channel.id,
    checkId: null,
    flipId: null,
    reason: 'test',
    status,
    eventAt: now,
    nextAttemptAt: now,
    createdAt: now,
  });
  return { id, ...outcome };
}

export const NAG_PERIOD_MIN = 60;
export const NAG_PERIOD_MAX = 30 * 86400;

/** Sets (seconds) or clears (null) the project's repeat-alert period. */
export async function setNagPeriod(db: Db, projectId: string, period: number | null) {
  if (period !== null && (!Number.isInteger(period) || period < NAG_PERIOD_MIN || period > NAG_PERIOD_MAX)) {
    throw validationError(`nag period must be between ${NAG_PERIOD_MIN} and ${NAG_PERIOD_MAX} seconds`);
  }
  const result = await db.project.updateMany({ where: { id: projectId }, data: { nagPeriod: period, nagNextAt: null } });
  if (result.count === 0) throw notFound(`project not found: ${projectId}`);
}
