// Values computed from a stored check at a moment: what both transports show as status,
// started and next_ping. Pure: (check, now) in, values out.
import { createHash } from 'node:crypto';
import { computeStatus, graceStart, type CheckTiming, type Status } from './status.ts';

export interface CheckState {
  status: Status;
  /** API v1's status, which says "started" for a running check. */
  statusV1: Status | 'started';
  started: boolean;
  nextPing: Date | null;
}

export function checkState(check: CheckTiming, now: Date): CheckState {
  return {
    status: computeStatus(check, now, false) as Status,
    statusV1: computeStatus(check, now, true),
    started: check.lastStart !== null,
    nextPing: graceStart(check, true),
  };
}

/** Healthchecks' unique_key: sha1 of the first 16 hex digits of the UUID (dashes removed). */
export function uniqueKeyFor(code: string): string {
  return createHash('sha1').update(code.replace(/-/g, '').slice(0, 16)).digest('hex');
}

export function tagList(tags: string): string[] {
  return tags.split(' ').map((t) => t.trim()).filter(Boolean);
}
