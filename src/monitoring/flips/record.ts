// Flips are written inside the transaction that changes the status; their events are
// published only after that transaction commits, exactly once.
import type { MonitoringDeps } from '../context.ts';
import type { Check } from '../../generated/prisma/client.ts';
import type { CheckChange } from '../../events/bus.ts';
import type { PendingFlip } from './pending-flip.ts';

export type { PendingFlip } from './pending-flip.ts';

export function publishFlips(deps: Pick<MonitoringDeps, 'events'>, flips: PendingFlip[]) {
  for (const f of flips) {
    deps.events.emit('flip', {
      checkId: f.check.id,
      checkCode: f.check.code,
      projectId: f.check.projectId,
      oldStatus: f.oldStatus,
      newStatus: f.newStatus,
      at: f.at,
      reason: f.reason,
    });
  }
}

/** After a commit: a check's new state, for live subscribers. */
export function publishCheckChanged(deps: Pick<MonitoringDeps, 'events'>, change: CheckChange, check: Check) {
  deps.events.emit('checkChanged', { projectId: check.projectId, checkId: check.id, change, check });
}
