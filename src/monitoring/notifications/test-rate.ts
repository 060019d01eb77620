// Channel tests are limited per project. A test sends a real message to a real address, phone
// or chat at once, so without a limit anyone holding a project's key (or a member) could use
// "Test" to flood a stranger. Counted from the outbox's own rows (reason "test"), so the budget
// holds across instances and restarts without a store of its own; a burst that races past the
// count by one or two is harmless.
import type { Db } from '../../db/client.ts';
import { RateLimitedError } from '../../shared/errors.ts';

/** Tests per project per window: enough to fix a channel's settings by trial, too few to spam. */
export const TESTS_PER_WINDOW = 10;
export const TEST_WINDOW_MS = 60_000;

/** Refuses (RATE_LIMITED, with the seconds to wait) when the project has sent its budget of tests in the last minute. */
export async function refuseTooManyTests(db: Db, projectId: string, now: Date): Promise<void> {
  const recent = await db.notification.findMany({
    where: { reason: 'test', createdAt: { gt: new Date(now.getTime() - TEST_WINDOW_MS) }, channel: { projectId } },
    select: { createdAt: true },
    orderBy: { createdAt: 'desc' },
    take: TESTS_PER_WINDOW,
  });
  if (recent.length < TESTS_PER_WINDOW) return;
  // The budget frees up when the oldest of the last TESTS_PER_WINDOW tests leaves the window.
  const oldest = recent[recent.length - 1]!.createdAt.getTime();
  const retryAfter = Math.max(1, Math.ceil((oldest + TEST_WINDOW_MS - now.getTime()) / 1000));
  throw new RateLimitedError(`Too many channel tests in this project: try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`, retryAfter);
}
