// Local times in an IANA zone the way Python's zoneinfo reads them (PEP 495), since cronsim runs
// on zoneinfo-aware datetimes: a wall-clock time plus `fold`. In a repeated hour fold 0 is the
// first reading and fold 1 the second; in a skipped hour (which cronsim can land in) fold 0
// uses the offset from before the change and fold 1 the offset after it.
import { offsetAt } from '../zoned-time.ts';

const DAY = 86_400_000;

/** A day of a zone: its offset, or the one instant in it where the offset changes. */
interface DayOffsets {
  before: number;
  after: number;
  /** First instant with `after`; Infinity when the offset holds all day. */
  change: number;
}

const days = new Map<string, Map<number, DayOffsets>>();
let cached = 0;

function dayOffsets(day: number, tz: string): DayOffsets {
  const start = day * DAY;
  const before = offsetAt(start, tz);
  const after = offsetAt(start + DAY - 1, tz);
  if (before === after) return { before, after, change: Infinity };
  // Offset changes fall on whole seconds: bisect to the second.
  let lo = start / 1000;
  let hi = (start + DAY) / 1000;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid * 1000, tz) === before) lo = mid;
    else hi = mid;
  }
  return { before, after, change: hi * 1000 };
}

/**
 * offsetAt, memoised per zone and UTC day: cronsim's walk asks the same zone hundreds of times
 * per step, and Intl is slow. Exact because no zone changes its offset twice within two days
 * (checked over every tzdata zone since 1900): a day whose two ends agree has no change.
 */
export function offset(instant: number, tz: string): number {
  let zone = days.get(tz);
  if (!zone) days.set(tz, (zone = new Map()));
  const day = Math.floor(instant / DAY);
  let d = zone.get(day);
  if (!d) {
    // A bounded memo: forget everything rather than grow with every day ever asked.
    if (++cached > 100_000) {
      days.clear();
      cached = 1;
      days.set(tz, (zone = new Map()));
    }
    zone.set(day, (d = dayOffsets(day, tz)));
  }
  return instant < d.change ? d.before : d.after;
}

/** Every instant whose local time is `wall`, earliest first (none in a gap, two in a fold). */
function readings(wall: number, tz: string): number[] {
  const out: number[] = [];
  for (const o of new Set([offset(wall - DAY, tz), offset(wall, tz), offset(wall + DAY, tz)])) {
    const instant = wall - o;
    if (instant + offset(instant, tz) === wall) out.push(instant);
  }
  return out.sort((a, b) => a - b);
}

/** `datetime(wall, tzinfo=tz, fold=fold).astimezone(UTC)`. */
export function instantOf(wall: number, fold: number, tz: string): number {
  const found = readings(wall, tz);
  if (found.length) return found[Math.min(fold, found.length - 1)]!;
  // A gap: the offsets in force a day before and a day after are those around the change.
  const before = offset(wall - DAY, tz);
  const after = offset(wall + DAY, tz);
  return wall - (fold === 0 ? before : after);
}

/** `instant.astimezone(tz)`: the wall-clock time, and fold 1 for the second reading. */
export function localOf(instant: number, tz: string): { wall: number; fold: number } {
  const wall = instant + offset(instant, tz);
  const found = readings(wall, tz);
  return { wall, fold: found.length > 1 && instant === found[found.length - 1] ? 1 : 0 };
}

/** A local time the zone skips: cronsim's is_imaginary(). */
export function isSkipped(wall: number, tz: string): boolean {
  return readings(wall, tz).length === 0;
}
