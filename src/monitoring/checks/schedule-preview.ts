// What a schedule means before a check is saved with it (Healthchecks' cron and OnCalendar
// previews): whether the server accepts it, in plain words, and when it would fire next. Pure: the caller
// passes `now`. The verdict is the check spec's own validation, so the preview can never
// accept what createCheck/updateCheck refuse, or word the refusal differently.
import { DomainError, validationError } from '../../shared/errors.ts';
import { explainCron } from './cron/explain.ts';
import { guessKind, occurrences } from './schedule.ts';
import { parseCheckSpec } from './validate.ts';

export const PREVIEW_COUNT_MIN = 1;
export const PREVIEW_COUNT_MAX = 10;

export interface SchedulePreview {
  ok: boolean;
  /** The message createCheck gives for this schedule and time zone; null when both are valid. */
  error: string | null;
  /** The expression in words (cronsim's explain); null when invalid, and for OnCalendar
   * (Healthchecks' OnCalendar preview lists times only). */
  description: string | null;
  /** The next `count` times after `now`, increasing; empty when invalid. */
  nextTimes: Date[];
}

/** The preview of `schedule` in zone `tz` at `now`; a `count` outside 1..10 is refused (a request error, not a verdict). */
export function previewSchedule(schedule: string, tz: string, now: Date, count: number): SchedulePreview {
  if (!Number.isInteger(count) || count < PREVIEW_COUNT_MIN || count > PREVIEW_COUNT_MAX) {
    throw validationError(`count must be between ${PREVIEW_COUNT_MIN} and ${PREVIEW_COUNT_MAX}`);
  }
  let spec: { schedule?: string; tz?: string };
  try {
    spec = parseCheckSpec({ schedule, tz });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'VALIDATION') return { ok: false, error: err.message, description: null, nextTimes: [] };
    throw err;
  }
  // The spec maps a legacy zone name (US/Eastern) to the canonical one the check would store;
  // the kind is the one the check would get.
  const kind = guessKind(schedule);
  const description = kind === 'cron' ? explainCron(schedule) : null;
  return { ok: true, error: null, description, nextTimes: occurrences(schedule, spec.tz!, now, count, kind) };
}
