// systemd OnCalendar expressions parsed exactly as the `oncalendar` library 1.1 parses them
// (cuu508/oncalendar, oncalendar/__init__.py: Field.parse, BaseIterator.__init__,
// TzIterator.__init__, OnCalendar.__init__), because Healthchecks accepts or refuses an
// OnCalendar schedule by what that library says. Each quirk below is the library's, kept on
// purpose: it is not systemd's parser, and where the two differ Healthchecks follows this one.
import { pySplit, pyStrip } from '../cron/parse.ts';
import { canonicalTimezone } from '../timezones.ts';

/** systemd stops at 2200 and so does the library: years are 1970..2199. */
export const MAX_YEAR = 2200;

/** One expression without its zone: the field sets BaseIterator walks. */
export interface OnCalendarSpec {
  /** 0 (Monday) .. 6 (Sunday), Python's date.weekday(). */
  weekdays: Set<number>;
  years: Set<number>;
  months: Set<number>;
  /** 1..31, and -1 (last day), -2, ... for the `~` (counted from the end) form. */
  days: Set<number>;
  hours: Set<number>;
  minutes: Set<number>;
  seconds: Set<number>;
  anyReverseDay: boolean;
}

/** One line of a schedule (TzIterator): the expression and the zone it names, if any. */
export interface OnCalendarLine {
  spec: OnCalendarSpec;
  /** The zone named at the end of the line (canonical name); null: the check's own zone. */
  zone: string | null;
}

export class OnCalendarSyntaxError extends Error {}

type Field = 'dow' | 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';
const FIELD_NAMES: Record<Field, string> = {
  dow: 'day-of-week',
  year: 'year',
  month: 'month',
  day: 'day-of-month',
  hour: 'hour',
  minute: 'minute',
  second: 'second',
};
/** RANGES, inclusive. */
const RANGES: Record<Field, [number, number]> = {
  dow: [0, 6],
  year: [1970, MAX_YEAR - 1],
  month: [1, 12],
  day: [1, 31],
  hour: [0, 23],
  minute: [0, 59],
  second: [0, 59],
};
const SYMBOLIC_DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const SYMBOLIC_DAYS_SHORT = SYMBOLIC_DAYS.map((s) => s.slice(0, 3));
const SPECIALS: Record<string, string> = {
  minutely: '*-*-* *:*:00',
  hourly: '*-*-* *:00:00',
  daily: '*-*-* 00:00:00',
  monthly: '*-*-01 00:00:00',
  weekly: 'Mon *-*-* 00:00:00',
  yearly: '*-01-01 00:00:00',
  annually: '*-01-01 00:00:00',
  quarterly: '*-01,04,07,10-01 00:00:00',
  semiannually: '*-01,07-01 00:00:00',
};

function fail(field: Field | null, what?: string): never {
  throw new OnCalendarSyntaxError(field ? `Bad ${FIELD_NAMES[field]}` : what);
}

function fullRange(field: Field): Set<number> {
  const [lo, hi] = RANGES[field];
  const out = new Set<number>();
  for (let v = lo; v <= hi; v++) out.add(v);
  return out;
}

/** Field._int: ASCII digits and nothing else (no sign, no underscores, no Unicode digits). */
function digits(field: Field, value: string): number {
  if (!/^[0-9]+$/.test(value)) fail(field);
  // A long run of digits is a huge number either way: out of range, or a step past the end.
  return Number(value);
}

/** Field.int: weekday names, two-digit years, and the range check. */
function int(field: Field, s: string): number {
  if (field === 'dow') {
    // Python's str.upper(): full case mapping, as JavaScript's ("ſun" is "SUN" in both).
    const upper = s.toUpperCase();
    if (SYMBOLIC_DAYS.includes(upper)) return SYMBOLIC_DAYS.indexOf(upper);
    if (SYMBOLIC_DAYS_SHORT.includes(upper)) return SYMBOLIC_DAYS_SHORT.indexOf(upper);
    fail(field);
  }
  let v = digits(field, s);
  // 0..69 are 2000..2069, 70..99 are 1970..1999.
  if (field === 'year' && v < 70) v += 2000;
  if (field === 'year' && v < 100) v += 1900;
  const [lo, hi] = RANGES[field];
  if (!(v >= lo && v <= hi)) fail(field);
  return v;
}

/** Python's `range(start, end + 1)[::step]`. */
function stepped(start: number, end: number, step: number): Set<number> {
  const out = new Set<number>();
  for (let v = start; v <= end; v += step) out.add(v);
  return out;
}

/** Field.parse: one component into a set of integers, recursing for lists, ranges and steps. */
function parseField(field: Field, s: string, reverse = false): Set<number> {
  // `~` counts days from the end of the month; it may also start a list item.
  if (field === 'day' && s.startsWith('~')) return parseField(field, s.slice(1), true);
  if (field !== 'dow' && s === '*') return fullRange(field);
  // systemd allows no '*' in lists, ranges or steps ("*/2", "1,*" are refused).
  if (s.includes('*')) fail(field);
  // "Mon," is "Mon" (systemd normalises the trailing comma away).
  if (field === 'dow' && s.endsWith(',')) return parseField(field, s.slice(0, -1));
  // "Mon-Fri" is "Mon..Fri".
  if (field === 'dow' && s.includes('-')) return parseField(field, s.replaceAll('-', '..'));
  if (s.includes(',')) {
    const out = new Set<number>();
    for (const term of s.split(',')) for (const v of parseField(field, term, reverse)) out.add(v);
    return out;
  }
  if (s.includes('/') && field !== 'dow') {
    const slash = s.indexOf('/');
    const term = s.slice(0, slash);
    const step = digits(field, s.slice(slash + 1));
    if (step === 0) fail(field);
    const items = parseField(field, term, reverse);
    if (items.size === 1) {
      // One value: from it to the end of the range (towards the month's end for `~`).
      const start = items.values().next().value as number;
      return stepped(start, reverse ? 0 : RANGES[field][1], step);
    }
    // A range or list: every step-th of its values, in order ("5..5/2" took the branch above).
    const sorted = [...items].sort((a, b) => a - b);
    return new Set(sorted.filter((_, i) => i % step === 0));
  }
  if (s.includes('..')) {
    const dots = s.indexOf('..');
    let start = int(field, s.slice(0, dots));
    let end = int(field, s.slice(dots + 2));
    if (end < start) fail(field);
    if (reverse) [start, end] = [-end, -start];
    return stepped(start, end, 1);
  }
  let v = int(field, s);
  if (reverse) {
    // systemd refuses "~29" and above.
    if (v > 28) fail(field);
    v = -v;
  }
  return new Set([v]);
}

/** BaseIterator.__init__'s parsing: weekday, date and time, each optional, in that order. */
export function parseExpression(expression: string): OnCalendarSpec {
  // Own keys only: "__proto__" or "constructor" is a bad expression, not Object's prototype.
  const lowered = expression.toLowerCase();
  if (Object.hasOwn(SPECIALS, lowered)) expression = SPECIALS[lowered]!;
  const parts = pySplit(expression.replaceAll('~', '-~'));
  if (parts.length === 0) fail(null, 'Wrong number of fields');

  let hours: Set<number>, minutes: Set<number>, seconds: Set<number>;
  if (parts[parts.length - 1]!.includes(':')) {
    const time = parts.pop()!.split(':');
    if (time.length !== 2 && time.length !== 3) fail(null, 'Bad time');
    if (time.length === 2) time.push('0');
    hours = parseField('hour', time[0]!);
    minutes = parseField('minute', time[1]!);
    seconds = parseField('second', time[2]!);
  } else {
    hours = new Set([0]);
    minutes = new Set([0]);
    seconds = new Set([0]);
  }

  let years: Set<number>, months: Set<number>, days: Set<number>;
  const last = parts[parts.length - 1];
  // A date starts with a digit or a star and has a dash ("Mon-Fri" is a weekday range).
  if (last !== undefined && last.includes('-') && '0123456789*'.includes(last[0]!)) {
    const date = parts.pop()!.split('-');
    if (date.length !== 2 && date.length !== 3) fail(null, 'Bad date');
    if (date.length === 2) date.unshift('*');
    years = parseField('year', date[0]!);
    months = parseField('month', date[1]!);
    days = parseField('day', date[2]!);
  } else {
    years = fullRange('year');
    months = fullRange('month');
    days = fullRange('day');
  }

  const weekdays = parts.length ? parseField('dow', parts.shift()!) : fullRange('dow');
  if (parts.length) fail(null, 'Wrong number of fields');
  return { weekdays, years, months, days, hours, minutes, seconds, anyReverseDay: [...days].some((d) => d < 0) };
}

/**
 * The zone a line ends with (TzIterator's parse_tz): Healthchecks' zone names and their legacy
 * aliases, case-sensitive (the library asks zoneinfo, which reads the server's tzdata files);
 * an alias is evaluated as the zone it stands for, which is what the tzdata link is.
 */
function zoneOf(value: string): string | null {
  // No zone name starts with a digit or a star.
  if ('0123456789*'.includes(value[0]!)) return null;
  return canonicalTimezone(value);
}

/** Python's `s.rsplit(maxsplit=1)` on an already stripped string with whitespace in it. */
function splitLast(s: string): [string, string] | null {
  const parts = pySplit(s);
  if (parts.length < 2) return null;
  const tail = parts[parts.length - 1]!;
  return [pyStrip(s.slice(0, s.length - tail.length)), tail];
}

/** TzIterator.__init__: the expression, and the zone it names at its end. */
export function parseLine(line: string): OnCalendarLine {
  let expression = pyStrip(line);
  let zone: string | null = null;
  // Only a real space makes the library look for a zone ("12:00\tUTC" is not one).
  if (expression.includes(' ')) {
    const split = splitLast(expression);
    const named = split && zoneOf(split[1]);
    if (split && named) [expression, zone] = [split[0], named];
  }
  return { spec: parseExpression(expression), zone };
}

/** OnCalendar.__init__: one expression per line; any line that does not parse refuses all. */
export function parseOnCalendar(expressions: string): OnCalendarLine[] {
  return pyStrip(expressions).split('\n').map(parseLine);
}
