// The times an OnCalendar schedule fires after a start: the library's, except where it goes
// back in time. It can, in a repeated hour: a start in the second reading of the hour walks on
// from the same wall time and answers the first reading (before the start), and the merge of
// several lines orders by local clock, so a line's first-reading time can come out after a
// later second-reading one. Healthchecks would then expect the next ping before the last one.
// Our rule is the one for cron (docs/decisions.md, "Cron schedules and time zones"): never a
// time at or before the previous one; such a time is dropped and the walk goes on (the
// library's walk always moves on: each line's own times increase).
// scripts/oncalendar-golden/generate.py applies the same rule to the real library.
import { OnCalendarIterator } from './iterate.ts';
import { OnCalendarSyntaxError, parseOnCalendar, type OnCalendarLine } from './parse.ts';

/**
 * Bound per call on the library's times looked at, so no input keeps a request busy. A repeated
 * hour drops at most its own times (3,600 per line for a per-second schedule; two hours in
 * Antarctica/Troll); 100 characters hold no more than 16 lines.
 */
const MAX_STEPS = 200_000;

/**
 * Up to `count` times after `after` (epoch ms) in zone `tz`, increasing. Fewer when the schedule
 * ends (the library stops at 2200, and a line may name a year).
 */
export function onCalendarOccurrences(lines: OnCalendarLine[], tz: string, after: number, count: number): number[] {
  const out: number[] = [];
  const it = new OnCalendarIterator(lines, after, tz);
  let last = after;
  for (let step = 0; out.length < count && step < MAX_STEPS; step++) {
    const t = it.next();
    if (t === null) break;
    if (t > last) out.push((last = t));
  }
  return out;
}

/**
 * What Healthchecks' API accepts (hc/api/views.py Spec.check_schedule): every line parses and
 * `next(OnCalendar(v, datetime(2000, 1, 1, tzinfo=timezone.utc)))` finds a time before 2200.
 * Null when refused.
 */
export function parseValidOnCalendar(expr: string): OnCalendarLine[] | null {
  let lines: OnCalendarLine[];
  try {
    lines = parseOnCalendar(expr);
  } catch (err) {
    if (err instanceof OnCalendarSyntaxError) return null;
    throw err;
  }
  return new OnCalendarIterator(lines, Date.UTC(2000, 0, 1), 'UTC').next() === null ? null : lines;
}
