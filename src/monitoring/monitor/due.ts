// The rule every monitor store applies to each due check it reads, pure so that the SQLite and
// PostgreSQL stores (which run it inside their own transactions) share it.
import { computeStatus, goingDownAfter, type CheckTiming } from '../checks/status.ts';

/** What a pass does with a check its store read as due; pure, the same on every database. */
export type DueAction =
  /** Down: the flip is dated at the going-down time, not at detection (Healthchecks' sendalerts). */
  | { down: true; at: Date }
  /** Not down yet (the stored alertAfter was stale, e.g. a run started): look again then. */
  | { down: false; alertAfter: Date | null };

export function dueAction(check: CheckTiming, now: Date): DueAction {
  if (computeStatus(check, now) !== 'down') return { down: false, alertAfter: goingDownAfter(check) };
  return { down: true, at: goingDownAfter(check) ?? now };
}
