// Five-field cron schedules with Healthchecks' (cronsim) semantics, on top of cron-parser:
// - day-of-month and day-of-week are OR-ed unless either field starts with "*" (then AND);
// - for schedules at fixed local times (minute and hour fields not starting with "*"), times
//   in a DST gap move forward to the first existing minute and ambiguous times take their
//   first occurrence; "*"-style schedules (every hour, every 5 minutes) follow real time.
import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { instantsOf, wallClockAt } from './zoned-time.ts';

const MINUTE = 60_000;
const FIFTY_YEARS = 50 * 366 * 86_400_000;

interface Parsed {
  fields: string[];
  /** Weekdays allowed when day-of-week must be AND-ed with day-of-month; null for OR/plain. */
  andWeekdays: Set<number> | null;
  /** The expression cron-parser evaluates (day-of-week dropped when AND-ing). */
  expression: string;
  fixedLocalTime: boolean;
}

const cache = new Map<string, Parsed | null>();

function parse(expr: string): Parsed | null {
  if (cache.has(expr)) return cache.get(expr)!;
  let parsed: Parsed | null = null;
  const fields = expr.trim().split(/\s+/);
  // cron-parser also takes "?", "@nicknames" and 6 fields; Healthchecks does not.
  if (fields.length === 5 && !expr.includes('?') && !expr.includes('@') && !expr.includes('\n')) {
    try {
      const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
      const and = (dom.startsWith('*') || dow.startsWith('*')) && dom !== '*' && dow !== '*';
      const expression = and ? `${minute} ${hour} ${dom} ${month} *` : fields.join(' ');
      const andWeekdays = and ? weekdaysOf(dow) : null;
      CronExpressionParser.parse(expression, { currentDate: new Date(0), tz: 'UTC' });
      parsed = { fields, andWeekdays, expression, fixedLocalTime: !minute.startsWith('*') && !hour.startsWith('*') };
    } catch {
      parsed = null;
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(expr, parsed);
  return parsed;
}

function weekdaysOf(dow: string): Set<number> {
  const expr = CronExpressionParser.parse(`0 0 * * ${dow}`, { currentDate: new Date(0), tz: 'UTC' });
  const days = new Set<number>();
  for (const d of expr.fields.dayOfWeek.values) days.add(Number(d) % 7);
  return days;
}

function iterator(p: Parsed, after: number, tz: string): CronExpression {
  return CronExpressionParser.parse(p.expression, { currentDate: new Date(after), tz });
}

/** Next matching instant strictly after `after` in "tz-naive" form: iterate in the given zone. */
function nextMatch(p: Parsed, after: number, tz: string, limit: number): number | null {
  const it = iterator(p, after, tz);
  for (;;) {
    const t = it.next().getTime();
    if (t > limit) return null;
    if (!p.andWeekdays) return t;
    // AND semantics: the day-of-month half already matched; check the weekday in `tz`.
    const weekday = new Date(tz === 'UTC' ? t : wallClockAt(t, tz)).getUTCDay();
    if (p.andWeekdays.has(weekday)) return t;
  }
}

export function isValidSchedule(expr: string): boolean {
  const p = parse(expr);
  if (!p) return false;
  // Must fire at least once (rejects impossible dates like "0 0 30 2 *").
  try {
    const start = Date.UTC(2000, 0, 1);
    return nextMatch(p, start, 'UTC', start + FIFTY_YEARS) !== null;
  } catch {
    return false;
  }
}

/** The first occurrence strictly after `after`, evaluated in `tz`; null when none in 50 years. */
export function nextOccurrence(expr: string, tz: string, after: Date): Date | null {
  const p = parse(expr);
  if (!p) return null;
  const limit = after.getTime() + FIFTY_YEARS;
  try {
    if (!p.fixedLocalTime || tz === 'UTC') {
      const t = nextMatch(p, after.getTime(), tz, limit);
      return t === null ? null : new Date(t);
    }
    // Fixed local times: walk naive wall-clock times, then place each in the zone.
    let wall = wallClockAt(after.getTime(), tz) - MINUTE;
    for (;;) {
      const nextWall = nextMatch(p, wall, 'UTC', limit + 2 * 86_400_000);
      if (nextWall === null) return null;
      const instant = placeWallClock(nextWall, tz);
      if (instant > after.getTime()) return instant > limit ? null : new Date(instant);
      wall = nextWall;
    }
  } catch {
    return null;
  }
}

/** A local time to an instant: gaps move forward minute by minute, overlaps take the first. */
function placeWallClock(wall: number, tz: string): number {
  for (let w = wall; ; w += MINUTE) {
    const instants = instantsOf(w, tz);
    if (instants.length) return instants[0]!;
  }
}
