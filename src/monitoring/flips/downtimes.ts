// Downtime per calendar month (or week, or day), from a check's flips: Healthchecks'
// Check.downtimes(months, tz) and downtimes_by_boundary (hc/api/models.py, DowntimeRecorder),
// with the periods bounded in a time zone as hc/lib/date.py bounds them (month_boundaries,
// week_boundaries, day_boundaries). Pure: the caller passes the check's stored status, its
// recent flips and `now`.
import { validationError } from '../../shared/errors.ts';
import { canonicalTimezone } from '../checks/timezones.ts';
import { instantsOf, offsetAt, wallClockAt } from '../checks/zoned-time.ts';

export const DOWNTIME_MONTHS_MIN = 1;
export const DOWNTIME_MONTHS_MAX = 12;

const DAY_MS = 86_400_000;

export interface MonthDowntime {
  /** The first instant of the month in the time zone asked for. */
  month: Date;
  /** Whole seconds the check was down in the month. */
  downtime: number;
  /**
   * Down stretches within the month. As in Healthchecks, one that runs across the start of a
   * month counts in each month it covers (a check down since November counts once in
   * November, December and January).
   */
  outages: number;
  /** The check did not exist yet in this month (Healthchecks' no_data: created after it ended). */
  noData: boolean;
}

/** One period of downtimes_by_boundary: a month, a week or a day. */
export interface PeriodDowntime {
  /** The period's first instant. */
  start: Date;
  /** Milliseconds down in the period (Healthchecks keeps a timedelta; reports sort by it). */
  durationMs: number;
  /** Whole seconds down (the timedelta's int(total_seconds())). */
  downtime: number;
  outages: number;
  noData: boolean;
}

export interface FlipInput {
  createdAt: Date;
  oldStatus: string;
}

/** The `months` it takes: 1 to 12, else a validation error. */
export function checkMonths(months: number): number {
  if (!Number.isInteger(months) || months < DOWNTIME_MONTHS_MIN || months > DOWNTIME_MONTHS_MAX) {
    throw validationError(`months must be between ${DOWNTIME_MONTHS_MIN} and ${DOWNTIME_MONTHS_MAX}`);
  }
  return months;
}

/** The canonical name of a time zone Healthchecks accepts (legacy names mapped), else a validation error. */
export function checkTimeZone(tz: string): string {
  const canonical = canonicalTimezone(tz);
  if (!canonical) throw validationError(`tz is not a valid time zone: ${tz}`);
  return canonical;
}

/**
 * The instant of a local wall-clock time (given as if it were UTC milliseconds), as Python's
 * `datetime(..., tzinfo=ZoneInfo(tz))` gives it (fold=0): an ambiguous time is its earlier
 * instant; a time in a DST gap takes the offset from before the gap (so it lands after it).
 */
export function localInstant(wall: number, tz: string): number {
  if (tz === 'UTC') return wall;
  const found = instantsOf(wall, tz);
  if (found.length) return found[0]!;
  return wall - offsetAt(wall - DAY_MS, tz);
}

/** The local calendar date at `now` in `tz`, as UTC midnight of that date (for date arithmetic). */
function localDate(now: Date, tz: string): Date {
  const wall = new Date(tz === 'UTC' ? now.getTime() : wallClockAt(now.getTime(), tz));
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
}

/** month_boundaries: the starts of the current month and the `months - 1` before it, newest first, in `tz`. */
export function monthStarts(now: Date, months: number, tz = 'UTC'): Date[] {
  const today = localDate(now, tz);
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  // Date.UTC carries a negative month into earlier years.
  return Array.from({ length: months }, (_, i) => new Date(localInstant(Date.UTC(year, month - i, 1), tz)));
}

/** week_boundaries: the starts (Monday 00:00) of the current week and the `weeks - 1` before it, newest first, in `tz`. */
export function weekStarts(now: Date, weeks: number, tz = 'UTC'): Date[] {
  const today = localDate(now, tz);
  // Python's weekday(): Monday is 0.
  const monday = today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY_MS;
  return Array.from({ length: weeks }, (_, i) => new Date(localInstant(monday - i * 7 * DAY_MS, tz)));
}

/** day_boundaries: the starts of today and the `days - 1` days before it, newest first, in `tz`. */
export function dayStarts(now: Date, days: number, tz = 'UTC'): Date[] {
  const today = localDate(now, tz).getTime();
  return Array.from({ length: days }, (_, i) => new Date(localInstant(today - i * DAY_MS, tz)));
}

/**
 * Only flips after this instant matter (Healthchecks reads `created > min(boundaries)`): the
 * walk below needs nothing older, because the status before the oldest month is irrelevant.
 */
export const flipsSince = (now: Date, months: number, tz = 'UTC'): Date => monthStarts(now, months, tz).at(-1)!;

/**
 * An instant no later than flipsSince(now, months, tz) whatever the zone (offsets lie between
 * −12 and +14 hours, and the zone's current month may be UTC's previous one): for reading flips
 * before the zone is known.
 */
export const flipsSinceAnyZone = (now: Date, months: number): Date => new Date(monthStarts(new Date(now.getTime() - DAY_MS), months).at(-1)!.getTime() - DAY_MS);

/**
 * downtimes_by_boundary: downtime in each period, newest first, for `boundaries` (period starts,
 * newest first). Walks back from `now` over the flips and the boundaries: while the status (the
 * stored one at `now`, then each flip's old status going back) is "down", the stretch back to the
 * previous event is added to the period it starts in. `flips` may hold older ones; they are left
 * out as Healthchecks' query leaves them out. `created`: when the check was created (no_data).
 */
export function downtimesByBoundary(status: string, flips: readonly FlipInput[], now: Date, boundaries: readonly Date[], created: Date | null = null): PeriodDowntime[] {
  const oldest = Math.min(...boundaries.map((b) => b.getTime()));
  // DowntimeRecorder: a period is "no data" when the check was created after the start of the
  // period after it (the previous boundary in the list), i.e. after the period ended.
  const records = boundaries.map((start, i) => ({
    start,
    ms: 0,
    outages: 0,
    noData: i > 0 && created !== null && created.getTime() > boundaries[i - 1]!.getTime(),
  }));
  // A boundary is an event without a status ("---"); at one instant, flips come first going
  // back, as Python's reverse sort of (time, status) puts "---" last.
  const events = [
    ...boundaries.map((s) => ({ at: s.getTime(), status: null as string | null })),
    ...flips.filter((f) => f.createdAt.getTime() > oldest).map((f) => ({ at: f.createdAt.getTime(), status: f.oldStatus })),
  ].sort((a, b) => b.at - a.at || byStatusDescending(a.status, b.status));

  let at = now.getTime();
  let current = status;
  for (const event of events) {
    if (current === 'down') {
      const record = records.find((r) => event.at >= r.start.getTime());
      if (record) {
        record.ms += at - event.at;
        record.outages += 1;
      }
    }
    at = event.at;
    if (event.status !== null) current = event.status;
  }
  return records.map((r) => ({ start: r.start, durationMs: r.ms, downtime: Math.floor(r.ms / 1000), outages: r.outages, noData: r.noData }));
}

/** Check.downtimes(months, tz): downtime in each month, newest first, the months bounded in `tz`. */
export function monthlyDowntimes(status: string, flips: readonly FlipInput[], now: Date, months: number, tz = 'UTC', created: Date | null = null): MonthDowntime[] {
  const starts = monthStarts(now, checkMonths(months), tz);
  return downtimesByBoundary(status, flips, now, starts, created).map((r) => ({ month: r.start, downtime: r.downtime, outages: r.outages, noData: r.noData }));
}

/** Descending as Python compares the statuses: strings descending, "---" (null) last. */
function byStatusDescending(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}
