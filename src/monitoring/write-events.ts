// A monitoring write and the events it causes: one transaction in which the events are recorded
// (where they fan out to other instances: events/outbox.ts), published once it has committed.
// A subscriber never hears of a write that rolled back, and one on another instance hears of
// every write that committed, even if this instance dies right after the commit.
import type { Prisma } from '../generated/prisma/client.ts';
import type { CheckChange, CheckChangedEvent, FlipEvent } from '../events/bus.ts';
import { committing, TransactionEvents } from '../events/outbox.ts';
import type { Check } from '../generated/prisma/client.ts';
import type { MonitoringDeps } from './context.ts';
import type { PendingFlip } from './flips/pending-flip.ts';

export const flipEvent = (f: PendingFlip): FlipEvent => ({
  checkId: f.check.id,
  checkCode: f.check.code,
  projectId: f.check.projectId,
  oldStatus: f.oldStatus,
  newStatus: f.newStatus,
  at: f.at,
  reason: f.reason,
});

export const checkChangedEvent = (change: CheckChange, check: Check): CheckChangedEvent => ({ projectId: check.projectId, checkId: check.id, change, check });

/** The events of a check write, added inside its transaction. */
export class CheckWriteEvents extends TransactionEvents {
  flips(flips: PendingFlip[]): void {
    for (const f of flips) this.add('flip', flipEvent(f));
  }

  changed(change: CheckChange, check: Check): void {
    this.add('checkChanged', checkChangedEvent(change, check));
  }
}

export function writeWithEvents<T>(deps: Pick<MonitoringDeps, 'db' | 'events' | 'clock'>, work: (tx: Prisma.TransactionClient, events: CheckWriteEvents) => Promise<T>): Promise<T> {
  return committing(deps.db, new CheckWriteEvents(deps.events, deps.clock), work);
}
