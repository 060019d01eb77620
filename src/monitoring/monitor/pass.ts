// One monitor pass: move every check whose going-down time has passed to "down" and record
// the flip dated at that moment (not at detection), as Healthchecks' sendalerts does.
// Cost is O(checks due): it reads only rows through the indexed alertAfter column.
import type { MonitoringDeps } from '../context.ts';
import { computeStatus, goingDownAfter } from '../checks/status.ts';
import { publishCheckChanged, publishFlips, type PendingFlip } from '../flips/record.ts';

const BATCH = 200;

export interface PassResult {
  /** Checks moved to down in this pass. */
  wentDown: number;
  /** Checks looked at but not (yet) down, whose alertAfter was moved forward. */
  rescheduled: number;
}

export async function runMonitorPass(deps: MonitoringDeps, now: Date): Promise<PassResult> {
  const result: PassResult = { wentDown: 0, rescheduled: 0 };
  let afterId = 0;
  for (;;) {
    const due = await deps.db.check.findMany({
      where: { alertAfter: { lte: now }, status: { not: 'down' }, id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    for (const check of due) {
      const flips: PendingFlip[] = [];
      const moved = await deps.db.$transaction(async (tx) => {
        if (computeStatus(check, now) !== 'down') {
          // Not down yet (the stored alertAfter was stale): look again at the right time.
          await tx.check.updateMany({
            where: { id: check.id, status: check.status, alertAfter: check.alertAfter },
            data: { alertAfter: goingDownAfter(check) },
          });
          return 'rescheduled' as const;
        }
        const flipTime = goingDownAfter(check) ?? now;
        // Compare-and-set: if a ping or another monitor changed the row since we read it, the
        // update matches nothing and no flip is written. A flip is recorded exactly once.
        const cas = await tx.check.updateMany({
          where: { id: check.id, status: check.status, alertAfter: check.alertAfter, nPings: check.nPings },
          data: { status: 'down', alertAfter: null },
        });
        if (cas.count === 0) return 'lost' as const;
        await tx.flip.create({
          data: { checkId: check.id, createdAt: flipTime, oldStatus: check.status, newStatus: 'down', reason: 'timeout' },
        });
        flips.push({ check, oldStatus: check.status, newStatus: 'down', at: flipTime, reason: 'timeout', processed: null });
        return 'down' as const;
      });
      if (moved === 'down') {
        result.wentDown++;
        publishCheckChanged(deps, 'status', { ...check, status: 'down', alertAfter: null });
      }
      if (moved === 'rescheduled') result.rescheduled++;
      publishFlips(deps, flips);
    }
    if (due.length < BATCH) return result;
    afterId = due[due.length - 1]!.id;
  }
}

/** The earliest pending going-down time, so the loop can wake exactly then. */
export async function nextDueAt(deps: MonitoringDeps): Promise<Date | null> {
  const next = await deps.db.check.findFirst({
    where: { alertAfter: { not: null }, status: { not: 'down' } },
    orderBy: { alertAfter: 'asc' },
    select: { alertAfter: true },
  });
  return next?.alertAfter ?? null;
}
