// The `oncalendar` library's iterators (BaseIterator, TzIterator, OnCalendar), ported step by
// step so Healthchecks' next-ping times come out identical, DST included. Times are instants
// (epoch ms) or "walls": a local date-time written as if it were UTC milliseconds.
//
// How the library treats time zones, which decides the results:
// - BaseIterator walks naive local time in the expression's zone (the one named at the end of
//   the line, else the check's) and then places the result in that zone with fold=0: a result
//   in a skipped hour is dropped (it moves on a second and walks again), and a result in a
//   repeated hour is its first reading only (the library's docstring says otherwise; its code
//   does this, and Healthchecks runs the code).
// - OnCalendar merges the lines by comparing datetimes in the check's zone. Python compares two
//   datetimes with the same tzinfo by their wall-clock values, ignoring fold, so in a repeated
//   hour the merge orders by local time, not by instant; the port compares walls the same way.
import { dateOf, hourOf, minuteOf, secondOf, startOfDay } from '../cron/match.ts';
import { instantOf, isSkipped, localOf } from '../cron/zone.ts';
import { MAX_YEAR, type OnCalendarLine, type OnCalendarSpec } from './parse.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const isUtc = (tz: string) => tz === 'UTC';

/** `instant.astimezone(tz)` as a wall (fold is not needed: comparisons ignore it). */
function wallOf(instant: number, tz: string): number {
  return isUtc(tz) ? instant : localOf(instant, tz).wall;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** BaseIterator: one expression walked in one zone. */
export class BaseIterator {
  private wall: number;
  /** The zone results are placed in (fixup_tz); null for UTC, where nothing needs fixing. */
  private readonly fixupZone: string | null;

  /** `BaseIterator(expr, start.astimezone(tz))`; tz 'UTC' is also the library's timezone.utc. */
  constructor(
    private readonly spec: OnCalendarSpec,
    start: number,
    tz: string,
  ) {
    // start.replace(microsecond=0); offsets are whole seconds, so flooring the instant suffices.
    this.wall = wallOf(Math.floor(start / SECOND) * SECOND, tz);
    this.fixupZone = isUtc(tz) ? null : tz;
  }

  /** The next time as an instant, or null where the library raises StopIteration (year 2200). */
  next(): number | null {
    this.wall += SECOND;
    for (;;) {
      this.advanceYear();
      if (dateOf(this.wall).year >= MAX_YEAR) return null;
      if (this.advanceMonth()) continue;
      if (this.advanceDay()) continue;
      if (this.advanceHour()) continue;
      if (this.advanceMinute()) continue;
      if (this.advanceSecond()) continue;
      if (this.fixupZone === null) return this.wall;
      // A time the zone skips: look for the next one, a second on.
      if (isSkipped(this.wall, this.fixupZone)) {
        this.wall += SECOND;
        continue;
      }
      return instantOf(this.wall, 0, this.fixupZone);
    }
  }

  private advanceSecond(): boolean {
    const { seconds } = this.spec;
    const second = secondOf(this.wall);
    if (seconds.has(second)) return false;
    if (seconds.size === 1) {
      // Jump straight to the only second.
      const target = seconds.values().next().value as number;
      this.wall += ((((target - second) % 60) + 60) % 60) * SECOND;
    }
    while (!seconds.has(secondOf(this.wall))) {
      this.wall += SECOND;
      // A new minute: go back and re-check the rest.
      if (secondOf(this.wall) === 0) break;
    }
    return true;
  }

  private advanceMinute(): boolean {
    const { minutes } = this.spec;
    if (minutes.has(minuteOf(this.wall))) return false;
    this.wall -= secondOf(this.wall) * SECOND;
    while (!minutes.has(minuteOf(this.wall))) {
      this.wall += MINUTE;
      if (minuteOf(this.wall) === 0) break;
    }
    return true;
  }

  private advanceHour(): boolean {
    const { hours } = this.spec;
    if (hours.has(hourOf(this.wall))) return false;
    this.wall -= minuteOf(this.wall) * MINUTE + secondOf(this.wall) * SECOND;
    while (!hours.has(hourOf(this.wall))) {
      this.wall += HOUR;
      if (hourOf(this.wall) === 0) break;
    }
    return true;
  }

  private matchDom(date: number): boolean {
    const { days, anyReverseDay } = this.spec;
    const { year, month, day } = dateOf(date);
    if (days.has(day)) return true;
    // `~n`: the n-th day counted back from the month's end (~1 is the last day).
    return anyReverseDay && days.has(day - daysInMonth(year, month) - 1);
  }

  private matchDow(date: number): boolean {
    // Python's weekday(): Monday 0 .. Sunday 6.
    return this.spec.weekdays.has((dateOf(date).weekday + 6) % 7);
  }

  private advanceDay(): boolean {
    let needle = startOfDay(this.wall);
    if (this.matchDow(needle) && this.matchDom(needle)) return false;
    while (!this.matchDow(needle) || !this.matchDom(needle)) {
      needle += DAY;
      // A new month: go back and re-check the year and month first.
      if (dateOf(needle).day === 1) break;
    }
    this.wall = needle;
    return true;
  }

  private advanceMonth(): boolean {
    const { months } = this.spec;
    let { year, month } = dateOf(this.wall);
    if (months.has(month)) return false;
    while (!months.has(month)) {
      if (++month > 12) {
        month = 1;
        year++;
      }
    }
    this.wall = Date.UTC(year, month - 1, 1);
    return true;
  }

  private advanceYear(): void {
    const { years } = this.spec;
    const { year } = dateOf(this.wall);
    if (years.has(year)) return;
    let y = year;
    while (!years.has(y) && y < MAX_YEAR) y++;
    // January 1st of the year found; midnight of the same day when the loop did not run.
    this.wall = y === year ? startOfDay(this.wall) : Date.UTC(y, 0, 1);
  }
}

/** TzIterator: a line's BaseIterator, run in the zone the line names (else the check's). */
function lineIterator(line: OnCalendarLine, start: number, tz: string): BaseIterator {
  return new BaseIterator(line.spec, start, line.zone ?? tz);
}

interface Held {
  it: BaseIterator;
  /** The line's latest time: the instant, and its wall in the check's zone. */
  instant: number;
  wall: number;
}

/**
 * OnCalendar: every line's times merged, soonest (by the check's local clock) first.
 * `tz` is the check's zone ('UTC' also stands for the library's timezone.utc).
 */
export class OnCalendarIterator {
  private held: Held[];
  private instant: number;
  private wall: number;

  constructor(lines: OnCalendarLine[], start: number, private readonly tz: string) {
    this.instant = start;
    this.wall = wallOf(start, tz);
    this.held = lines.map((line) => ({ it: lineIterator(line, start, tz), instant: start, wall: this.wall }));
  }

  /** The next time as an instant; null where the library raises StopIteration. */
  next(): number | null {
    for (const h of [...this.held]) {
      // Compared by wall, as Python compares datetimes sharing a tzinfo.
      if (h.wall > this.wall) continue;
      const t = h.it.next();
      if (t === null) {
        this.held.splice(this.held.indexOf(h), 1);
        continue;
      }
      h.instant = t;
      h.wall = wallOf(t, this.tz);
    }
    if (this.held.length === 0) return null;
    // min(): the first of the earliest walls, in line order.
    let best = this.held[0]!;
    for (const h of this.held) if (h.wall < best.wall) best = h;
    this.instant = best.instant;
    this.wall = best.wall;
    return this.instant;
  }
}
