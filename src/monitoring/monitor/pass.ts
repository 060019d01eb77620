// One monitor pass: move every check whose going-down time has passed to "down" and record
// the flip dated at that moment (not at detection), as Healthchecks' sendalerts does.
// Cost is O(checks due): the store reads only rows through the indexed alertAfter column, a
// page at a time, each page read and written in one transaction.
import type { MonitoringDeps } from '../context.ts';
import { CheckWriteEvents } from '../write-events.ts';
import type { MonitorCursor } from './store.ts';

const PAGE = 1000;

export interface PassResult {
  /** Checks moved to down in this pass. */
  wentDown: number;
  /** Checks looked at but not (yet) down, whose alertAfter was moved forward. */
  rescheduled: number;
}

export async function runMonitorPass(deps: MonitoringDeps, now: Date): Promise<PassResult> {
  const result: PassResult = { wentDown: 0, rescheduled: 0 };
  const walk = async (after: MonitorCursor) => {
    for (;;) {
      const page = await handlePage(deps, now, after, result);
      if (page.read < PAGE) return;
      after = page.last;
    }
  };
  // Where the store allows pages in flight side by side (PostgreSQL), every worker starts at
  // once from the start of the index: the store hands each one rows the others do not hold
  // (SKIP LOCKED), so a thousand cron jobs due at midnight are shared from the first page on,
  // and a pass with nothing due costs one empty read per worker, side by side.
  await Promise.all(Array.from({ length: Math.max(1, deps.storage.monitor.parallelPages) }, () => walk({ alertAfter: -Infinity, id: 0 })));
  return result;
}

async function handlePage(deps: MonitoringDeps, now: Date, after: MonitorCursor, result: PassResult) {
  // Recorded with the page's writes (where they fan out), published after its commit, once.
  let events = new CheckWriteEvents(deps.events, deps.clock);
  const page = await deps.storage.monitor.passPage(now, after, PAGE, (written, tx) => {
    events = new CheckWriteEvents(deps.events, deps.clock);
    for (const check of written.down) events.changed('status', check);
    events.flips(written.flips);
    return events.recordWith((rows) => tx.insertEvents(rows));
  });
  events.publish(deps.db);
  result.wentDown += page.down.length;
  result.rescheduled += page.rescheduled;
  return page;
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
