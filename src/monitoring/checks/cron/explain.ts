// A cron expression in plain English, ported from cronsim 2.7's explain module
// (cronsim/explain.py, which Healthchecks shows beside its cron preview). Kept line for line
// close to the original, so its test table (tests/test_explain.py) carries over unchanged, and
// its quirks with it ("every fifth minute" but "every 15th minute"; "day of month" in lists).
// It describes, it does not validate: call it on expressions parseCron accepted. Six fields
// (seconds first) are described too, as cronsim does, though schedules take five.
import { pySplit } from './parse.ts';

/** A term of a field: a wildcard (start null), a range (start..stop by step), a single value, or an nth/last value. */
interface Sequence {
  start: number | null;
  stop: number | null;
  step: number;
  /** -1 for "L" forms, n for "#n"; null otherwise. */
  nth: number | null;
}

const seq = (s: Partial<Sequence> = {}): Sequence => ({ start: null, stop: null, step: 1, nth: null, ...s });
const sameSeq = (a: Sequence, b: Sequence) => a.start === b.start && a.stop === b.stop && a.step === b.step && a.nth === b.nth;
const isStar = (s: Sequence) => s.start === null && s.step === 1;
const isSingle = (s: Sequence) => s.start !== null && s.start === s.stop;

/** "a", "a and b", "a, b, and c". */
export function join(items: string[]): string {
  if (items.length === 1) return items[0]!;
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

const ORDINALS: Record<number, string> = { [-1]: 'last', 1: 'first', 2: 'second', 3: 'third', 4: 'fourth', 5: 'fifth', 6: 'sixth', 7: 'seventh', 8: 'eighth', 9: 'ninth' };

/** "first" … "ninth", then "10th", "15th", "100th" (cronsim's English, not a general ordinal). */
export function ordinal(x: number): string {
  return ORDINALS[x] ?? `${x}th`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:MM, or HH:MM:SS when seconds are given. */
export function formatTime(h: number, m: number, s: number | null = null): string {
  return s === null ? `${pad(h)}:${pad(m)}` : `${pad(h)}:${pad(m)}:${pad(s)}`;
}

class Field {
  readonly name: string = '';
  readonly symbolic: readonly string[] = [];
  readonly minValue: number = 0;
  readonly maxValue: number = 0;
  parsed: Sequence[] = [];
  /** The field's one numeric value ("5", "5,5"), else null. */
  singleValue: number | null = null;
  /** The field is exactly the value 0. */
  zero = false;
  /** Every term covers the whole range. */
  star = false;
  anySingles = false;
  allSingles = false;

  // Subclasses set their name and range as field initialisers, which run after a base
  // constructor: so the parsing happens in init(), called once the object is complete.
  init(value: string): this {
    for (const s of this.parse(value)) if (!this.parsed.some((p) => sameSeq(p, s))) this.parsed.push(s);
    this.singleValue = this.parsed[0]!.start;
    for (const s of this.parsed) {
      if (s.start !== this.singleValue || s.stop !== this.singleValue) {
        this.singleValue = null;
        break;
      }
    }
    this.zero = this.singleValue === 0;
    this.star = this.parsed.every(isStar);
    this.anySingles = this.parsed.some(isSingle);
    this.allSingles = this.parsed.every(isSingle);
    return this;
  }

  private *parse(value: string): Generator<Sequence> {
    for (let term of value.split(',')) {
      if (term === '*') {
        yield seq();
      } else if (this instanceof Weekday && term.endsWith('L')) {
        const v = this.int(term.slice(0, -1));
        yield seq({ start: v, stop: v, nth: -1 });
      } else if (term.includes('#')) {
        const [t, nth] = term.split('#') as [string, string];
        const v = this.int(t);
        yield seq({ start: v, stop: v, nth: Number(nth) });
      } else if (term.includes('/')) {
        const [t, stepText] = term.split('/') as [string, string];
        term = t;
        const step = Number(stepText);
        if (term === '*') yield seq({ step });
        else if (term === 'LW') yield seq({ start: -2, stop: -2, nth: -1 });
        else if (term === 'L') yield seq({ start: -1, stop: -1, nth: -1 });
        else {
          let start: number;
          let stop: number;
          if (term.includes('-')) {
            const [a, b] = term.split('-') as [string, string];
            [start, stop] = [this.int(a), this.int(b)];
          } else {
            start = this.int(term);
            stop = this.maxValue;
          }
          if (start <= this.minValue && stop >= this.maxValue) yield seq({ step });
          else yield seq({ start, stop, step });
        }
      } else if (term.includes('-')) {
        const [a, b] = term.split('-') as [string, string];
        const [start, stop] = [this.int(a), this.int(b)];
        if (start + 1 === stop) {
          // A range of two reads better as two single values.
          yield seq({ start, stop: start });
          yield seq({ start: stop, stop });
        } else if (start <= this.minValue && stop >= this.maxValue) {
          yield seq();
        } else {
          yield seq({ start, stop });
        }
      } else if (term === 'LW') {
        yield seq({ start: -2, stop: -2, nth: -1 });
      } else if (term === 'L') {
        yield seq({ start: -1, stop: -1, nth: -1 });
      } else {
        const v = this.int(term);
        yield seq({ start: v, stop: v });
      }
    }
  }

  /** A number, or a month or weekday name (JAN, MON) as its number. */
  private int(value: string): number {
    const at = this.symbolic.indexOf(value);
    return at >= 0 ? at : Number(value);
  }

  /** The start of every term that has one (used when all terms are single values). */
  singles(): number[] {
    return this.parsed.filter((s) => s.start !== null).map((s) => s.start!);
  }

  label(idx: number): string {
    return String(idx);
  }

  formatSingle(value: number): string {
    return `${this.name} ${this.label(value)}`;
  }

  formatNth(_value: number, _nth: number): string {
    throw new Error(`no nth form for the ${this.name} field`);
  }

  formatEvery(step = 1): string {
    return step === 1 ? `every ${this.name}` : `every ${ordinal(step)} ${this.name}`;
  }

  formatSeq(start: number, stop: number, step = 1): string {
    const range = `${this.name} from ${this.label(start)} through ${this.label(stop)}`;
    return step === 1 ? `every ${range}` : `every ${ordinal(step)} ${range}`;
  }

  format(): string {
    return join(
      this.parsed.map((s) => {
        if (s.start === null) return this.formatEvery(s.step);
        if (s.stop !== s.start) return this.formatSeq(s.start, s.stop!, s.step);
        if (s.nth !== null) return this.formatNth(s.start, s.nth);
        return this.formatSingle(s.start);
      }),
    );
  }

  /** With the field's preposition ("at", "past", "on", "in"). */
  toString(): string {
    return this.format();
  }
}

/** Minutes and seconds: "minutes 5 and 10" rather than "minute 5 and minute 10"; "at" before single values. */
class ClockField extends Field {
  override format(): string {
    if (this.allSingles && this.parsed.length > 1) return `${this.name}s ${join(this.singles().map((v) => this.label(v)))}`;
    return super.format();
  }

  override toString(): string {
    return this.anySingles ? `at ${super.toString()}` : super.toString();
  }
}

class Second extends ClockField {
  override readonly name = 'second';
  override readonly maxValue = 59;
}

class Minute extends ClockField {
  override readonly name = 'minute';
  override readonly maxValue = 59;
}

class Hour extends Field {
  override readonly name = 'hour';
  override readonly maxValue = 23;

  override format(): string {
    if (this.allSingles && this.parsed.length > 1) return `hours ${join(this.singles().map((v) => this.label(v)))}`;
    return super.format();
  }

  override toString(): string {
    return `past ${super.toString()}`;
  }
}

class Day extends Field {
  override readonly name = 'day of month';
  override readonly minValue = 1;
  override readonly maxValue = 31;

  override formatSingle(value: number): string {
    return `the ${ordinal(value)} day of month`;
  }

  override formatNth(value: number, nth: number): string {
    if (nth === -1 && value === -1) return 'the last day of the month';
    if (nth === -1 && value === -2) return 'the last weekday of the month';
    return super.formatNth(value, nth);
  }

  override format(): string {
    // "the 1st, 3rd, and 5th day of month"; not with LW (-2), which has no ordinal.
    if (this.allSingles && this.parsed.length > 1) {
      const singles = this.singles();
      if (!singles.includes(-2)) return `${join(singles.map((v) => `the ${ordinal(v)}`))} day of month`;
    }
    return super.format();
  }

  override toString(): string {
    return `on ${super.toString()}`;
  }
}

class Month extends Field {
  override readonly name = 'month';
  override readonly minValue = 1;
  override readonly maxValue = 12;
  override readonly symbolic = '_ JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC'.split(' ');
  private readonly labels = '_ January February March April May June July August September October November December'.split(' ');

  override label(idx: number): string {
    return this.labels[idx]!;
  }

  override formatSingle(value: number): string {
    return this.label(value);
  }

  override toString(): string {
    return `in ${super.toString()}`;
  }
}

class Weekday extends Field {
  override readonly name = 'day of week';
  override readonly maxValue = 7;
  override readonly symbolic = 'SUN MON TUE WED THU FRI SAT SUN'.split(' ');
  private readonly labels = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(' ');

  override label(idx: number): string {
    return this.labels[idx]!;
  }

  override formatSingle(value: number): string {
    return this.label(value);
  }

  override formatNth(value: number, nth: number): string {
    return nth === -1 ? `the last ${this.label(value)} of the month` : `the ${ordinal(nth)} ${this.label(value)} of the month`;
  }

  override formatSeq(start: number, stop: number, step = 1): string {
    // "Monday through Friday" rather than "every day of week from Monday through Friday".
    return step === 1 ? `${this.label(start)} through ${this.label(stop)}` : super.formatSeq(start, stop, step);
  }

  override toString(): string {
    return `on ${super.toString()}`;
  }
}

class Expression {
  private readonly second: Second;
  private readonly minute: Minute;
  private readonly hour: Hour;
  private readonly day: Day;
  private readonly month: Month;
  private readonly dow: Weekday;
  private readonly dayAnd: boolean;

  constructor(parts: string[]) {
    if (parts.length === 5) parts = ['0', ...parts];
    this.second = new Second().init(parts[0]!);
    this.minute = new Minute().init(parts[1]!);
    this.hour = new Hour().init(parts[2]!);
    this.day = new Day().init(parts[3]!);
    this.month = new Month().init(parts[4]!);
    this.dow = new Weekday().init(parts[5]!);
    this.dayAnd = parts[3]!.startsWith('*') || parts[5]!.startsWith('*');
  }

  /** Hours and minutes told together ("at 13:00 and 13:30", "every minute from 09:00 through 17:59"); null when no such form fits. */
  private optimizedTimes(): [string, boolean] | null {
    const { second, minute, hour } = this;
    if (hour.allSingles && minute.allSingles && second.allSingles) {
      const [ss, ms, hs] = [second.singles(), minute.singles(), hour.singles()];
      if (ss.length * ms.length * hs.length <= 4) {
        const times: string[] = [];
        const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
        for (const h of sorted(hs)) for (const m of sorted(ms)) for (const s of sorted(ss)) times.push(formatTime(h, m, second.zero ? null : s));
        return [`at ${join(times)}`, true];
      }
    }
    // Python truthiness, kept: hour 0 does not take this form ("every minute from 0 through 10 past hour 0").
    if (hour.singleValue && minute.parsed.length === 1 && second.zero) {
      const s = minute.parsed[0]!;
      if (s.start !== null && s.stop !== null && s.step === 1) {
        return [`every minute from ${formatTime(hour.singleValue, s.start)} through ${formatTime(hour.singleValue, s.stop)}`, false];
      }
    }
    if (hour.parsed.length === 1 && minute.parsed.length === 1 && second.zero) {
      const h = hour.parsed[0]!;
      if (minute.parsed[0]!.start === null && h.start !== null && h.stop !== null && h.step === 1) {
        return [`${minute} from ${formatTime(h.start, 0)} through ${formatTime(h.stop, 59)}`, false];
      }
    }
    return null;
  }

  /** Day and month told together ("on January 1", "on the last day of every month"); null when no such form fits. */
  private optimizedDates(): string | null {
    const { day, month } = this;
    if (!this.dow.star) return null;
    if (day.singleValue === -1) return `on the last day of ${month.format()}`;
    if (day.singleValue === -2) return `on the last weekday of ${month.format()}`;
    if (month.singleValue && day.singleValue) return `on ${month.format()} ${day.singleValue}`;
    if (day.singleValue) return `on the ${ordinal(day.singleValue)} day of ${month.format()}`;
    return null;
  }

  /** The time of day, and whether "every day" may follow it. */
  private translateTime(): [string, boolean] {
    const { second, minute, hour } = this;
    if (hour.star) {
      if (minute.star && second.star) return ['every second', false];
      if (minute.star && second.zero) return ['every minute', false];
      // Hours and minutes are both "*": only the seconds are left to tell.
      if (minute.star) return [`${second} of every minute`, false];
      if (minute.singleValue === 0 && second.zero) return ['at the start of every hour', false];
      if (second.zero) return [`${minute} of every hour`, false];
    }
    const times = this.optimizedTimes();
    if (times) return times;
    if (second.zero) return [`${minute} ${hour}`, false];
    return [`${second} ${minute} ${hour}`, false];
  }

  private translateDate(allowEveryDay: boolean): string {
    const dates = this.optimizedDates();
    if (dates) return dates;
    const { day, dow, month } = this;
    if (allowEveryDay && day.star && dow.star && month.allSingles) return `every day ${month}`;
    const parts: Array<Field | string> = [];
    if (!day.star) parts.push(day);
    if (!dow.star) {
      if (!day.star) parts.push(this.dayAnd ? "if it's" : 'and');
      parts.push(dow);
    }
    if (!month.star) parts.push(month);
    return parts.map(String).join(' ');
  }

  explain(): string {
    const [time, allowEveryDay] = this.translateTime();
    const date = this.translateDate(allowEveryDay);
    const result = date ? `${time} ${date}` : allowEveryDay ? `${time} every day` : time;
    return result[0]!.toUpperCase() + result.slice(1);
  }
}

/** The expression in words, e.g. "0 0 15 JAN-FEB *" → "At 00:00 on the 15th day of January and February". */
export function explainCron(expr: string): string {
  return new Expression(pySplit(expr.toUpperCase())).explain();
}
