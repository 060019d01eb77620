// Healthchecks' status functions (hc/api/models.py: get_grace_start, going_down_after,
// get_status) as pure functions of (check, now). Only new/up/down/paused are ever stored;
// "grace" and "started" are computed, and "down" is reported as soon as it is due, before the
// monitor stores it.
import { nextOccurrence } from './schedule.ts';

export type StoredStatus = 'new' | 'up' | 'down' | 'paused';
export type Status = 'new' | 'up' | 'grace' | 'down' | 'paused';

export interface CheckTiming {
  /** 'simple' | 'cron' | 'oncalendar' */
  kind: string;
  /** Seconds. */
  timeout: number;
  /** Seconds. */
  grace: number;
  schedule: string;
  tz: string;
  /** A StoredStatus. */
  status: string;
  lastPing: Date | null;
  lastStart: Date | null;
}

/**
 * When the next ping is due, i.e. when the grace period starts; null for "never" (new, paused
 * and down checks that are not running). `next_ping` in the API is this with withStarted.
 */
export function graceStart(check: CheckTiming, withStarted = true): Date | null {
  let result: Date | null = null;
  if (check.status === 'up' && check.lastPing) {
    if (check.kind === 'simple') result = new Date(check.lastPing.getTime() + check.timeout * 1000);
    // Next occurrence strictly after the last ping, in the check's zone, by the check's kind
    // (null: none; cronsim looks 50 years ahead, OnCalendar stops at 2200).
    else if (check.kind === 'cron' || check.kind === 'oncalendar') result = nextOccurrence(check.schedule, check.tz, check.lastPing, check.kind);
  }
  // A running job is due by its start (plus grace), whatever the schedule says; a down check
  // has already alerted, so its run changes nothing.
  if (withStarted && check.lastStart && check.status !== 'down') {
    if (result === null || check.lastStart < result) result = check.lastStart;
  }
  return result;
}

/** When the check goes down if nothing arrives (stored as alert_after); null when never. */
export function goingDownAfter(check: CheckTiming): Date | null {
  const start = graceStart(check, true);
  return start && new Date(start.getTime() + check.grace * 1000);
}

/** The status to show at `now`; 'started' only with withStarted (API v1 reports it so). */
export function computeStatus(check: CheckTiming, now: Date, withStarted = false): Status | 'started' {
  const t = now.getTime();
  const grace = check.grace * 1000;
  if (check.lastStart) {
    // The run has taken longer than the grace time: down, whatever the stored status.
    if (t >= check.lastStart.getTime() + grace) return 'down';
    if (withStarted) return 'started';
  }
  if (check.status === 'new' || check.status === 'paused' || check.status === 'down') return check.status;
  const start = graceStart(check, false);
  if (start === null) return 'up'; // next ping expected "never": stays up
  if (t >= start.getTime() + grace) return 'down';
  if (t >= start.getTime()) return 'grace';
  return 'up';
}
