// Healthchecks' status functions (hc/api/models.py) as pure functions of (check, now).
// Stored statuses are new, up, down and paused; "grace" and "started" are computed.
import { nextOccurrence } from './schedule.ts';

export type StoredStatus = 'new' | 'up' | 'down' | 'paused';
export type Status = 'new' | 'up' | 'grace' | 'down' | 'paused';

export interface CheckTiming {
  kind: string;
  /** Seconds. */
  timeout: number;
  /** Seconds. */
  grace: number;
  schedule: string;
  tz: string;
  status: string;
  lastPing: Date | null;
  lastStart: Date | null;
}

/** When the check is expected next (its grace period starts then); null when never. */
export function graceStart(check: CheckTiming, withStarted = true): Date | null {
  let result: Date | null = null;
  if (check.status === 'up' && check.lastPing) {
    result =
      check.kind === 'simple'
        ? new Date(check.lastPing.getTime() + check.timeout * 1000)
        : nextOccurrence(check.schedule, check.tz, check.lastPing);
  }
  // A running job must finish within the grace time, whatever the schedule says.
  if (withStarted && check.lastStart && check.status !== 'down') {
    if (!result || check.lastStart < result) result = check.lastStart;
  }
  return result;
}

/** The moment the check goes down if nothing arrives (stored as alertAfter). */
export function goingDownAfter(check: CheckTiming): Date | null {
  const start = graceStart(check, true);
  return start ? new Date(start.getTime() + check.grace * 1000) : null;
}

export function computeStatus(check: CheckTiming, now: Date, withStarted = false): Status | 'started' {
  const graceMs = check.grace * 1000;
  if (check.lastStart) {
    if (now.getTime() >= check.lastStart.getTime() + graceMs) return 'down';
    if (withStarted) return 'started';
  }
  if (check.status === 'new' || check.status === 'paused' || check.status === 'down') return check.status;
  const start = graceStart(check, false);
  if (!start) return 'up';
  if (now.getTime() >= start.getTime() + graceMs) return 'down';
  if (now >= start) return 'grace';
  return 'up';
}
