// When the next report is due: Healthchecks' Profile.choose_next_report_date. Reports go out
// between 9 and 11 in the morning of the account's time zone (a random minute spreads the sending
// over two hours): monthly on the 1st, weekly on Mondays, daily every day. Pure, given the
// random draw.
import { wallClockAt } from '../checks/zoned-time.ts';
import { localInstant } from '../flips/downtimes.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const REPORT_PERIODS = ['off', 'daily', 'weekly', 'monthly'] as const;
/** Healthchecks' Profile.reports. */
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** A random draw in [0, 1), as Math.random (tests pass their own). */
export type Random = () => number;

/**
 * The next report's time after `now`; null when reports are off. Like Healthchecks: today at
 * 9:00 local (seconds kept) plus 0–119 random minutes, then a day at a time until the day fits.
 * Days are added on the wall clock, so a DST change in between keeps the local hour.
 */
export function chooseNextReportDate(reports: ReportPeriod, tz: string, now: Date, random: Random = Math.random): Date | null {
  if (reports === 'off') return null;
  const wall = tz === 'UTC' ? now.getTime() : wallClockAt(now.getTime(), tz);
  const midnight = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  // dt.replace(hour=9, minute=0): seconds and microseconds stay as they were.
  let at = midnight + 9 * HOUR_MS + (((wall % MINUTE_MS) + MINUTE_MS) % MINUTE_MS) + Math.floor(random() * 120) * MINUTE_MS;
  for (;;) {
    at += DAY_MS;
    const day = new Date(at);
    if (reports === 'daily') break;
    if (reports === 'monthly' && day.getUTCDate() === 1) break;
    // Python's weekday() 0 is Monday.
    if (reports === 'weekly' && day.getUTCDay() === 1) break;
  }
  return new Date(localInstant(at, tz));
}
