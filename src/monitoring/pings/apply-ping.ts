// What a ping does to a check (Healthchecks' Check.ping), as a pure function of the stored
// check, the ping and the time. The service persists the result atomically.
import type { CheckTiming } from '../checks/status.ts';
import { goingDownAfter } from '../checks/status.ts';
import type { PingKind } from './classify.ts';

export interface PingTarget extends CheckTiming {
  manualResume: boolean;
  lastStartRid: string | null;
  lastDurationMs: number | null;
  nPings: number;
  /** The going-down time as stored (a lower bound of the real one: keptDeadline). */
  alertAfter: Date | null;
}

export interface PingOutcome {
  kind: PingKind;
  changes: {
    status: string;
    lastPing: Date | null;
    lastStart: Date | null;
    lastStartRid: string | null;
    lastDurationMs: number | null;
    alertAfter: Date | null;
    nPings: number;
  };
  flip: { oldStatus: string; newStatus: string; reason: string } | null;
}

export function applyPing(check: PingTarget, requested: PingKind, rid: string | null, now: Date): PingOutcome {
  // A paused check with manual_resume ignores every ping, start included.
  const kind: PingKind = check.status === 'paused' && check.manualResume ? 'ign' : requested;
  let { status, lastPing, lastStart, lastStartRid, lastDurationMs } = check;
  let flip: PingOutcome['flip'] = null;

  if (kind === 'start') {
    lastStart = now;
    lastStartRid = rid;
  } else if (kind === 'success' || kind === 'fail') {
    lastPing = now;
    lastDurationMs = null;
    if (lastStart) {
      if (lastStartRid === rid) {
        lastDurationMs = now.getTime() - lastStart.getTime();
        lastStart = null;
        lastStartRid = null;
      } else if (kind === 'fail' || rid === null) {
        lastStart = null;
        lastStartRid = null;
      }
      // A success with another run id leaves the earlier run running.
    }
    const newStatus = kind === 'fail' ? 'down' : 'up';
    if (status !== newStatus) {
      flip = { oldStatus: status, newStatus, reason: kind === 'fail' ? 'fail' : '' };
      status = newStatus;
    }
  }
  const alertAfter = keptDeadline(check.alertAfter, goingDownAfter({ ...check, status, lastPing, lastStart }), now);
  return {
    kind,
    changes: { status, lastPing, lastStart, lastStartRid, lastDurationMs, alertAfter, nPings: check.nPings + 1 },
    flip,
  };
}

/**
 * The going-down time to store: the new one, unless the stored one is earlier but still more
 * than half the way from now to it. The monitor only needs a lower bound (it recomputes the
 * status of every check it reads as due and stores the real time: monitor/due.ts), and a check
 * pinged many times per period then moves its entry in the alertAfter index once or twice a
 * period instead of at every ping: most ping updates touch no indexed column (fewer pages
 * written on SQLite; heap-only updates on PostgreSQL). While pings keep coming the stored time
 * stays at least half a period ahead, so the monitor never wakes for it; once they stop, it
 * wakes early once and stores the real time. A check pinged once a period writes every ping,
 * as before; an earlier time (a run started) or none is always written (docs/decisions.md).
 */
export function keptDeadline(stored: Date | null, due: Date | null, now: Date): Date | null {
  if (!stored || !due) return due;
  const s = stored.getTime();
  const d = due.getTime();
  return s <= d && 2 * (s - now.getTime()) > d - now.getTime() ? stored : due;
}
