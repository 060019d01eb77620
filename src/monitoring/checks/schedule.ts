// Schedules exactly as Healthchecks evaluates them: five-field cron with cronsim, systemd
// OnCalendar with its `oncalendar` library. What the API accepts (hc/api/views.py guess_kind +
// check_schedule) and the next expected ping (hc/api/models.py get_grace_start). cron-parser is
// not used: its syntax and DST walk differ from cronsim in too many places to patch over (see
// docs/decisions.md, "Cron schedules and time zones").
import { CronSim } from './cron/cronsim.ts';
import { occurrences as cronOccurrences } from './cron/occurrences.ts';
import { parseCron, pySplit, pyStrip, type CronSpec } from './cron/parse.ts';
import { onCalendarOccurrences, parseValidOnCalendar } from './oncalendar/occurrences.ts';
import type { OnCalendarLine } from './oncalendar/parse.ts';

export type ScheduleKind = 'cron' | 'oncalendar';

/**
 * Healthchecks' guess_kind: a single line of five fields (after Python's strip/split) is cron,
 * anything else OnCalendar. The API sets a check's kind by it.
 */
export function guessKind(expr: string): ScheduleKind {
  return !pyStrip(expr).includes('\n') && pySplit(expr).length === 5 ? 'cron' : 'oncalendar';
}

type Parsed = { kind: 'cron'; spec: CronSpec } | { kind: 'oncalendar'; lines: OnCalendarLine[] } | null;
const parsed = new Map<string, Parsed>();

/**
 * The schedule parsed as `kind`, or null when it does not parse or never fires; memoised.
 * Validity is the API's test for that kind (started at 2000-01-01 it must find a next time).
 */
function parse(expr: string, kind: ScheduleKind): Parsed {
  const key = `${kind}:${expr}`;
  if (parsed.has(key)) return parsed.get(key)!;
  let result: Parsed = null;
  if (kind === 'cron') {
    try {
      const spec = parseCron(expr);
      // cronsim started at 2000-01-01 (naive) has to find a time within 50 years.
      if (new CronSim(spec, Date.UTC(2000, 0, 1), null).next() !== null) result = { kind, spec };
    } catch {
      result = null;
    }
  } else {
    const lines = parseValidOnCalendar(expr);
    if (lines) result = { kind, lines };
  }
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(key, result);
  return result;
}

/** What the API accepts: the kind guess_kind gives, valid as that kind. */
export function isValidSchedule(expr: string): boolean {
  return parse(expr, guessKind(expr)) !== null;
}

/**
 * The first `count` times the schedule fires after `after` in zone `tz`, as the library of its
 * kind yields them (Healthchecks' get_grace_start takes the first), except that none is at or
 * before the previous one (see cron/occurrences.ts, oncalendar/occurrences.ts). Fewer when the
 * schedule ends: cronsim looks 50 years ahead, the OnCalendar library stops at 2200.
 * `kind` is the check's stored kind; by default the one the API would give the expression.
 */
export function occurrences(expr: string, tz: string, after: Date, count: number, kind: ScheduleKind = guessKind(expr)): Date[] {
  const p = parse(expr, kind);
  if (!p) return [];
  const times = p.kind === 'cron' ? cronOccurrences(p.spec, tz, after.getTime(), count) : onCalendarOccurrences(p.lines, tz, after.getTime(), count);
  return times.map((t) => new Date(t));
}

/** The first occurrence strictly after `after`, evaluated in `tz`; null when there is none. */
export function nextOccurrence(expr: string, tz: string, after: Date, kind: ScheduleKind = guessKind(expr)): Date | null {
  return occurrences(expr, tz, after, 1, kind)[0] ?? null;
}
