// Five-field cron schedules exactly as Healthchecks evaluates them with cronsim: what it accepts
// (hc/api/views.py guess_kind + check_schedule) and the next expected ping (hc/api/models.py
// get_grace_start). cron-parser is not used here: its syntax and DST walk differ from cronsim
// in too many places to patch over (see docs/decisions.md, "Cron schedules").
import { CronSim } from './cron/cronsim.ts';
import { occurrences as cronOccurrences } from './cron/occurrences.ts';
import { parseCron, pySplit, pyStrip, type CronSpec } from './cron/parse.ts';

const specs = new Map<string, CronSpec | null>();

/** The parsed schedule, or null when Healthchecks would refuse it; memoised. */
function specOf(expr: string): CronSpec | null {
  if (specs.has(expr)) return specs.get(expr)!;
  let spec: CronSpec | null = null;
  // Healthchecks reads a single line of 5 fields as cron and anything else as OnCalendar,
  // which this server does not support.
  if (!pyStrip(expr).includes('\n') && pySplit(expr).length === 5) {
    try {
      spec = parseCron(expr);
      // It must also fire: cronsim started at 2000-01-01 (naive) has to find a time within
      // 50 years, as Healthchecks checks with next().
      if (new CronSim(spec, Date.UTC(2000, 0, 1), null).next() === null) spec = null;
    } catch {
      spec = null;
    }
  }
  if (specs.size > 10_000) specs.clear();
  specs.set(expr, spec);
  return spec;
}

export function isValidSchedule(expr: string): boolean {
  return specOf(expr) !== null;
}

/**
 * The first `count` times the schedule fires after `after` in zone `tz`, as cronsim yields
 * them (Healthchecks' get_grace_start takes the first), except that none is at or before the
 * previous one (see cron/occurrences.ts). Fewer when cronsim finds none within 50 years.
 */
export function occurrences(expr: string, tz: string, after: Date, count: number): Date[] {
  const spec = specOf(expr);
  return spec ? cronOccurrences(spec, tz, after.getTime(), count).map((t) => new Date(t)) : [];
}

/** The first occurrence strictly after `after`, evaluated in `tz`; null when none in 50 years. */
export function nextOccurrence(expr: string, tz: string, after: Date): Date | null {
  return occurrences(expr, tz, after, 1)[0] ?? null;
}
