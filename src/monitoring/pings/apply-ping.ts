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
  const alertAfter = goingDownAfter({ ...check, status, lastPing, lastStart });
  return {
    kind,
    changes: { status, lastPing, lastStart, lastStartRid, lastDurationMs, alertAfter, nPings: check.nPings + 1 },
    flip,
  };
}
