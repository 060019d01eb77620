// Flips are written inside the transaction that changes the status; their events are
// published only after that transaction commits, exactly once.
import type { MonitoringDeps } from '../context.ts';
import type { Check } from '../../generated/prisma/client.ts';
import type { CheckChange } from '../../events/bus.ts';
import type { PendingFlip } from './pending-flip.ts';
import { checkChangedEvent, flipEvent } from '../write-events.ts';

export type { PendingFlip } from './pending-flip.ts';

export function publishFlips(deps: Pick<MonitoringDeps, 'events'>, flips: PendingFlip[]) {
  for (const f of flips) deps.events.emit('flip', flipEvent(f));
}

/** After a commit: a check's new state, for live subscribers. */
export function publishCheckChanged(deps: Pick<MonitoringDeps, 'events'>, change: CheckChange, check: Check) {
  deps.events.emit('checkChanged', checkChangedEvent(change, check));
}
