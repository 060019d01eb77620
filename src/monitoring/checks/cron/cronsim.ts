// cronsim 2.7's forward iteration (CronSim.__next__ and advance*), ported step by step so
// Healthchecks' next-ping times come out identical, DST included. Times are "wall" values:
// a local date-time written as if it were UTC milliseconds.
//
// cronsim has two ways to walk a zone, and which one it takes changes the results:
// - fixed-time schedules (minute and hour not starting with "*") walk naive local time like
//   Debian cron; a result in a skipped hour moves to the first minute that exists, and a
//   result in a repeated hour takes its first reading;
// - the rest ("*/30 2 * * *", "0 * * * *") tick in real time and re-read the local clock, so a
//   skipped hour is skipped and a repeated one fires twice.
import { dateOf, hourOf, matchDay, minuteOf, secondOf, startOfDay } from './match.ts';
import type { CronSpec } from './parse.ts';
import { instantOf, isSkipped, localOf } from './zone.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 86_400_000;
// More rounds of advance() than any schedule needs to look 50 years ahead. cronsim itself has
// no such cap and can loop forever in a repeated hour ("45 */3 * * *" in Pacific/Chatham on
// 2026-04-05); the golden-table generator counts rounds with the same cap.
const MAX_ROUNDS = 10_000;

/** next() gave up: cronsim would never have returned. */
export const HANG = 'hang';

export class CronSim {
  private wall: number;
  private fold: number;
  /** The zone cronsim ticks in (aware datetimes); null when it ticks naive local time. */
  private readonly tickZone: string | null;
  /** The zone a naive result is placed in at the end (cronsim's fixup_tz). */
  private readonly fixupZone: string | null;
  private readonly zoned: boolean;

  /**
   * `CronSim(expr, start.astimezone(tz))`; tz null is cronsim with a naive start, which is
   * how Healthchecks validates (start then is a wall value).
   */
  constructor(
    private readonly spec: CronSpec,
    start: number,
    tz: string | null,
  ) {
    // cronsim drops microseconds; offsets are whole seconds, so flooring the instant suffices.
    start = Math.floor(start / SECOND) * SECOND;
    const local = tz === null || tz === 'UTC' ? { wall: start, fold: 0 } : localOf(start, tz);
    this.wall = local.wall;
    this.fold = local.fold;
    // UTC has nothing to fix up, so cronsim's naive walk gives the same times there.
    this.zoned = tz !== null;
    const zone = tz === 'UTC' ? null : tz;
    this.fixupZone = zone && spec.fixedLocalTime ? zone : null;
    this.tickZone = zone && !spec.fixedLocalTime ? zone : null;
  }

  /** True for cronsim's naive local-time walk (fixed-time schedules in a zone). */
  get walksLocalTime(): boolean {
    return this.zoned && this.spec.fixedLocalTime;
  }

  /**
   * The next time as an instant; null where cronsim raises StopIteration (none within 50
   * years); HANG where cronsim would loop forever.
   */
  next(): number | null | typeof HANG {
    this.tick(1);
    const found = this.advance();
    if (found !== true) return found;
    if (this.fixupZone) {
      while (isSkipped(this.wall, this.fixupZone)) this.wall += MINUTE;
      return instantOf(this.wall, 0, this.fixupZone);
    }
    return this.tickZone ? instantOf(this.wall, this.fold, this.tickZone) : this.wall;
  }

  private tick(seconds: number): void {
    if (this.tickZone) {
      const local = localOf(instantOf(this.wall, this.fold, this.tickZone) + seconds * SECOND, this.tickZone);
      this.wall = local.wall;
      this.fold = local.fold;
    } else {
      this.wall += seconds * SECOND;
      this.fold = 0; // Python's datetime arithmetic resets fold
    }
  }

  /** datetime.combine(date, time(), tzinfo): midnight, fold 0. */
  private toMidnight(date: number): void {
    this.wall = date;
    this.fold = 0;
  }

  private advance(): true | null | typeof HANG {
    const startYear = dateOf(this.wall).year;
    for (let round = 1; ; round++) {
      if (round > MAX_ROUNDS) return HANG;
      this.advanceMonth();
      if (dateOf(this.wall).year > startYear + 50) return null;
      if (this.advanceDay()) continue;
      if (this.advanceHour()) continue;
      if (this.advanceMinute()) continue;
      if (this.advanceSecond()) continue;
      return true;
    }
  }

  private advanceMonth(): void {
    let { year, month } = dateOf(this.wall);
    if (this.spec.months.has(month)) return;
    while (!this.spec.months.has(month)) {
      if (++month > 12) {
        month = 1;
        year++;
      }
    }
    this.toMidnight(Date.UTC(year, month - 1, 1));
  }

  private advanceDay(): boolean {
    let needle = startOfDay(this.wall);
    if (matchDay(this.spec, needle)) return false;
    while (!matchDay(this.spec, needle)) {
      needle += DAY;
      // A new month: go back and re-check the month first.
      if (dateOf(needle).day === 1) break;
    }
    this.toMidnight(needle);
    return true;
  }

  private advanceHour(): boolean {
    if (this.spec.hours.has(hourOf(this.wall))) return false;
    // replace(minute=0, second=0) keeps fold.
    this.wall -= minuteOf(this.wall) * MINUTE + secondOf(this.wall) * SECOND;
    while (!this.spec.hours.has(hourOf(this.wall))) {
      this.tick(3600);
      if (hourOf(this.wall) === 0) break;
    }
    return true;
  }

  private advanceMinute(): boolean {
    const minute = minuteOf(this.wall);
    if (this.spec.minutes.has(minute)) return false;
    this.wall -= secondOf(this.wall) * SECOND;
    if (this.spec.minutes.size === 1) {
      // Jump straight to the only minute, then check (an offset change may have moved it).
      const target = this.spec.minutes.values().next().value as number;
      this.tick((((target - minute) % 60) + 60) % 60 * 60);
    }
    while (!this.spec.minutes.has(minuteOf(this.wall))) {
      this.tick(60);
      if (minuteOf(this.wall) === 0) break;
    }
    return true;
  }

  /** Five-field cron always fires at second 0. */
  private advanceSecond(): boolean {
    const second = secondOf(this.wall);
    if (second === 0) return false;
    this.tick(60 - second);
    while (secondOf(this.wall) !== 0) this.tick(1);
    return true;
  }
}
