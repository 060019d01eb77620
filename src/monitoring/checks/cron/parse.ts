// Five-field cron expressions parsed exactly as cronsim 2.7 (cronsim/cronsim.py, Field.parse and
// CronSim.__init__) parses them, quirks included, because Healthchecks accepts or refuses a
// schedule by what cronsim says. Each quirk below is cronsim's, kept on purpose.

/** Day-of-month sentinels, cronsim's CronSim.LAST and CronSim.LAST_WEEKDAY. */
export const LAST = -1000;
export const LAST_WEEKDAY = -1001;

export interface CronSpec {
  minutes: Set<number>;
  hours: Set<number>;
  /** 1..31, LAST ("L") and LAST_WEEKDAY ("LW"). */
  days: Set<number>;
  months: Set<number>;
  /** Plain weekdays 0..7 (0 and 7 are Sunday). */
  weekdays: Set<number>;
  /** "5L": the last Friday of the month; weekdays 0..7. */
  lastWeekdays: Set<number>;
  /** "5#2": the second Friday; stored as weekday * 10 + n. */
  nthWeekdays: Set<number>;
  /** Debian cron: day-of-month AND day-of-week when either field starts with "*", else OR. */
  dayAnd: boolean;
  /**
   * Minute and hour both fixed (neither starts with "*"): cronsim then walks naive local time
   * (Debian cron's DST behaviour) instead of real time.
   */
  fixedLocalTime: boolean;
}

export class CronSyntaxError extends Error {}

const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS_IN_MONTH = [-1, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

type Field = 'minute' | 'hour' | 'day' | 'month' | 'dow';
const RANGES: Record<Field, [number, number]> = {
  minute: [0, 59],
  hour: [0, 23],
  day: [1, 31],
  month: [1, 12],
  dow: [0, 7],
};

/** Python's str.isspace() set, which str.split() and str.strip() use (JS \s differs). */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_SPLIT = new RegExp(`[${PY_SPACE}]+`);
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

/** Python's `s.split()`. */
export function pySplit(s: string): string[] {
  return s.split(PY_SPLIT).filter((part) => part !== '');
}

/** Python's `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}

function fail(): never {
  throw new CronSyntaxError('Bad cron expression');
}

/** Field._int: ASCII digits only (no sign, no spaces), no range check. */
function digits(value: string): number {
  if (value === '' || !/^[0-9]+$/.test(value)) fail();
  return Number(value);
}

/** Field.int: a name (months, weekdays) or an in-range number. */
function int(field: Field, s: string): number {
  if (field === 'month' && MONTHS.includes(s)) return MONTHS.indexOf(s) + 1;
  if (field === 'dow' && DAYS.includes(s)) return DAYS.indexOf(s);
  const v = digits(s);
  const [lo, hi] = RANGES[field];
  if (v < lo || v > hi) fail();
  return v;
}

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
}

/** Field.parse; "#" and "L" items of the weekday field are encoded as strings "L5" / "#5:2". */
function parseField(field: Field, s: string): Set<number | string> {
  const [lo, hi] = RANGES[field];
  if (s === '*') return new Set(range(lo, hi));
  if (s.includes(',')) {
    const result = new Set<number | string>();
    for (const term of s.split(',')) for (const v of parseField(field, term)) result.add(v);
    return result;
  }
  // Any "L" in the weekday field means "<digits>L"; names are not allowed before it.
  if (field === 'dow' && s.includes('L')) {
    if (!/^[0-9]+$/.test(s.slice(0, -1))) fail();
    return new Set([`L${int(field, s.slice(0, -1))}`]);
  }
  if (field === 'dow' && s.includes('#')) {
    const at = s.indexOf('#');
    const nth = digits(s.slice(at + 1));
    if (nth < 1 || nth > 5) fail();
    return new Set([`#${int(field, s.slice(0, at))}:${nth}`]);
  }
  if (s.includes('/')) {
    const at = s.indexOf('/');
    const step = digits(s.slice(at + 1));
    if (step === 0) fail();
    const items = parseField(field, s.slice(0, at));
    // "L/2" and "LW/3" ignore the step.
    if (items.size === 1 && (items.has(LAST) || items.has(LAST_WEEKDAY))) return items;
    // A single start value runs to the field's end: "5/15" and even "5-5/15" mean 5,20,35,50.
    if (items.size === 1) return new Set(range(items.values().next().value as number, hi, step));
    const sorted = [...items].map(Number).sort((a, b) => a - b);
    return new Set(sorted.filter((_, i) => i % step === 0));
  }
  if (s.includes('-')) {
    const at = s.indexOf('-');
    const start = int(field, s.slice(0, at));
    const end = int(field, s.slice(at + 1));
    if (end < start) fail();
    return new Set(range(start, end));
  }
  if (field === 'day' && s === 'LW') return new Set([LAST_WEEKDAY]);
  if (field === 'day' && s === 'L') return new Set([LAST]);
  return new Set([int(field, s)]);
}

function numbers(items: Set<number | string>): Set<number> {
  return items as Set<number>;
}

/**
 * CronSim.__init__ for a 5-field expression (the caller has checked the field count, as
 * Healthchecks' guess_kind does). Throws CronSyntaxError where cronsim raises CronSimError.
 */
export function parseCron(expr: string): CronSpec {
  // cronsim upper-cases first: "l", "lw", "mon", "jan" are fine.
  const parts = pySplit(expr.toUpperCase());
  if (parts.length !== 5) fail();
  const [minute, hour, day, month, dow] = parts as [string, string, string, string, string];
  const spec: CronSpec = {
    minutes: numbers(parseField('minute', minute)),
    hours: numbers(parseField('hour', hour)),
    days: numbers(parseField('day', day)),
    months: numbers(parseField('month', month)),
    weekdays: new Set(),
    lastWeekdays: new Set(),
    nthWeekdays: new Set(),
    dayAnd: day.startsWith('*') || dow.startsWith('*'),
    fixedLocalTime: !minute.startsWith('*') && !hour.startsWith('*'),
  };
  for (const item of parseField('dow', dow)) {
    if (typeof item === 'number') spec.weekdays.add(item);
    else if (item.startsWith('L')) spec.lastWeekdays.add(Number(item.slice(1)));
    else {
      const [d, n] = item.slice(1).split(':').map(Number) as [number, number];
      spec.nthWeekdays.add(d * 10 + n);
    }
  }
  // Only a day number no chosen month has is refused up front ("0 0 30 2 *"), even when ORed
  // with weekdays that would fire; other never-firing schedules fail at the first next().
  const minDay = Math.min(...spec.days);
  if (minDay > 29 && minDay > Math.max(...[...spec.months].map((m) => DAYS_IN_MONTH[m]!))) fail();
  return spec;
}
