// The times a schedule fires after a start: cronsim's, except where cronsim is wrong. cronsim
// can go back in time in a repeated hour (a time at or before the start, or before the time
// it gave just before), and in its real-time walk it can then loop there, returning the same
// stretch again and again or never returning at all. Healthchecks would then expect the next
// ping before the last one (or hang); we never return a time at or before the previous one.
// scripts/cronsim-golden/generate.py applies the same rule to the real cronsim.
import { CronSim, HANG } from './cronsim.ts';
import { matchesWall, secondOf } from './match.ts';
import type { CronSpec } from './parse.ts';
import { localOf } from './zone.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** Longer than any repeated stretch of local time (Antarctica/Troll repeats two hours). */
const SCAN = 6 * 3_600_000;
/** Bounds per call, so no input keeps a request busy: dropped times (a fixed-time schedule
 * drops at most two hours of minutes), and fall-backs (each may cost a hung next()). */
const MAX_STEPS = 1000;
const MAX_FALLBACKS = 20;

/** The first whole local minute after `after`, in real time within SCAN, that matches. */
function scan(spec: CronSpec, tz: string, after: number): number | null {
  let t = Math.floor(after / SECOND) * SECOND + SECOND;
  while (t <= after + SCAN) {
    const { wall } = localOf(t, tz);
    const second = secondOf(wall);
    if (second !== 0) {
      t += (60 - second) * SECOND;
      continue;
    }
    if (matchesWall(spec, wall)) return t;
    t += MINUTE;
  }
  return null;
}

/**
 * Up to `count` times after `after` (epoch ms) in zone `tz`, increasing. Where cronsim gives a
 * time not after the previous one:
 * - in its naive local-time walk (fixed-time schedules) the time is dropped: that walk only
 *   goes back inside a repeated hour, and then moves on;
 * - in its real-time walk it has fallen into its repeated-hour loop: the next time is the
 *   first real minute after the previous one that matches, and cronsim restarts there.
 * Fewer than `count` when cronsim finds nothing within 50 years.
 */
export function occurrences(spec: CronSpec, tz: string, after: number, count: number): number[] {
  const out: number[] = [];
  let it = new CronSim(spec, after, tz);
  let last = after;
  let fallbacks = 0;
  for (let step = 0; out.length < count && step < MAX_STEPS; step++) {
    const t = it.next();
    if (t === null) break;
    if (t !== HANG && t > last) {
      out.push((last = t));
      continue;
    }
    if (t !== HANG && it.walksLocalTime) continue;
    if (++fallbacks > MAX_FALLBACKS) break;
    const found = scan(spec, tz, last);
    if (found !== null) out.push((last = found));
    it = new CronSim(spec, found ?? last + SCAN, tz);
  }
  return out;
}
