// What users do with notifications: test a channel, read what was sent and how it went, set
// the repeat-alert period. Both transports (GraphQL, CLI) call these.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { notFound, validationError } from '../../shared/errors.ts';
import { findChannel } from '../integrations/service.ts';
import { memberCodesOf } from './recipients.ts';
import type { DeliveryOutcome, Notifier } from './notifier.ts';

/** Sends a test notification to the channel now and returns how it went (no retry). */
export async function testChannel(db: Db, notifier: Notifier, projectId: string | null, code: string, now: Date): Promise<DeliveryOutcome & { id: string }> {
  const channel = await findChannel(db, projectId, code);
  const members = memberCodesOf(channel);
  if (members) return testGroup(db, notifier, channel.projectId, members, now);
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

/**
 * A group's test tests each member an alert would reach (not disabled, not a group), each with a
 * notification of its own, and fails as Healthchecks' Group transport words it ("1 out of 2
 * notifications failed"). The result's id is the first failed member test's (else the first's).
 */
async function testGroup(db: Db, notifier: Notifier, projectId: string, codes: string[], now: Date): Promise<DeliveryOutcome & { id: string }> {
  const found = await db.channel.findMany({ where: { projectId, code: { in: codes }, disabled: false }, orderBy: { id: 'asc' } });
  const members = found.filter((m) => !memberCodesOf(m));
  // Healthchecks reports success for a group whose members are all gone; a test that reached nobody is a failure here.
  if (members.length === 0) throw validationError('The group has no member channels to test');
  const started = performance.now();
  const results = await Promise.all(members.map((m) => testChannel(db, notifier, projectId, m.code, now)));
  const failed = results.filter((r) => r.state !== 'sent');
  return {
    id: (failed[0] ?? results[0]!).id,
    state: failed.length ? 'failed' : 'sent',
    error: failed.length ? `${failed.length} out of ${results.length} notifications failed` : '',
    attempt: 1,
    durationMs: Math.round(performance.now() - started),
    nextAttemptAt: null,
  };
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
