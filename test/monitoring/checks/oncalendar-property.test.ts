// Properties of OnCalendar next times over random expressions, zones and instants (DST changes
// included), checked against a plain reading of the expression rather than the walk:
// - every time is after the start and after the one before it, on a whole second;
// - every time matches one line of the schedule, in that line's zone, at the first reading of
//   its local time (the library never fires in a repeated hour's second reading or in a gap);
// - a minute-by-minute scan finds no match between the start and the first time, and starting
//   again from a time gives the next one (Healthchecks restarts from each ping).
// The last two hold wherever the library orders by instant: its merge of several lines compares
// local clock times in the check's zone, which in that zone's repeated hour is not the same (see
// oncalendar/iterate.ts); those windows are left to the golden table.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localOf, offset } from '../../../src/monitoring/checks/cron/zone.ts';
import { parseOnCalendar, type OnCalendarLine } from '../../../src/monitoring/checks/oncalendar/parse.ts';
import { isValidSchedule, occurrences } from '../../../src/monitoring/checks/schedule.ts';
import { allTimezones } from '../../../src/monitoring/checks/timezones.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// --- Expressions -----------------------------------------------------------------------------

const int = (lo: number, hi: number) => fc.integer({ min: lo, max: hi });
const pad = (v: number) => fc.constantFrom(String(v), String(v).padStart(2, '0'));

/** A numeric component: *, a value, a range, a step, a list. `hot` values are picked more. */
function numField(lo: number, hi: number, hot: number[]): fc.Arbitrary<string> {
  const value = fc.oneof(fc.constantFrom(...hot), int(lo, hi)).chain(pad);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('*') },
    { weight: 4, arbitrary: value },
    { weight: 1, arbitrary: fc.tuple(int(lo, hi), int(lo, hi)).map(([a, b]) => `${Math.min(a, b)}..${Math.max(a, b)}`) },
    { weight: 2, arbitrary: fc.tuple(value, fc.constantFrom(1, 2, 3, 5, 7, 10, 15, 20, 30)).map(([v, s]) => `${v}/${s}`) },
    { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }).map((vs) => vs.join(',')) },
  );
}

const weekday = fc.oneof(
  fc.constantFrom('Mon', 'tue', 'Wednesday', 'THU', 'Fri', 'Sat', 'Sun', 'Sat,Sun', 'Mon..Fri', 'Mon-Wed', 'Fri..Sun', 'Mon,'),
);
const day = fc.oneof(
  { weight: 4, arbitrary: numField(1, 31, [1, 15, 28, 29, 30, 31]) },
  { weight: 1, arbitrary: fc.oneof(int(1, 7).map((n) => `~${n}`), fc.constantFrom('~1..3', '~3/2', '1,~1')) },
);
const date = fc
  .tuple(fc.constantFrom('*', '*', '*', '2026', '27', '2026..2030', '2024/2'), numField(1, 12, [2, 3, 10, 11]), day)
  .map(([y, m, d]) => (d.startsWith('~') ? `${y}-${m}${d}` : `${y}-${m}-${d}`));
const time = fc
  .tuple(numField(0, 23, [0, 1, 2, 3, 23]), numField(0, 59, [0, 15, 30, 45, 59]), fc.option(numField(0, 59, [0, 30]), { freq: 3 }))
  .map(([h, m, s]) => (s === null ? `${h}:${m}` : `${h}:${m}:${s}`));
const FOCUS = ['America/New_York', 'Europe/London', 'Europe/Berlin', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Santiago', 'Antarctica/Troll', 'America/St_Johns', 'Asia/Kolkata'];
const lineZone = fc.option(fc.constantFrom('UTC', 'US/Eastern', ...FOCUS), { freq: 4 });

const line = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('daily', 'hourly', 'weekly', 'monthly', 'minutely', 'quarterly') },
  {
    weight: 12,
    arbitrary: fc
      .tuple(fc.option(weekday, { freq: 3 }), fc.option(date, { freq: 2 }), time, lineZone)
      .map((parts) => parts.filter((p) => p !== null).join(' ')),
  },
);
const expression = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));

const zone = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('UTC', ...FOCUS) }, { weight: 1, arbitrary: fc.constantFrom(...allTimezones()) });
const instant = fc.oneof(
  int(Date.UTC(2000, 0, 1), Date.UTC(2060, 0, 1)),
  // Around 2026's changes: late March/early April and October/November, any time of day.
  fc.tuple(fc.constantFrom(2, 3, 8, 9, 10), int(0, 34 * 24 * 60), int(0, 59_999)).map(([m, min, ms]) => Date.UTC(2026, m, 1) + min * MINUTE + ms),
);

// --- A plain reading of the expression ---------------------------------------------------------

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether `t` (epoch ms) is a time the line names: its local time in the line's zone, read once. */
function matches({ spec, zone }: OnCalendarLine, tz: string, t: number): boolean {
  if (t % 1000 !== 0) return false;
  const { wall, fold } = localOf(t, zone ?? tz);
  if (fold !== 0) return false; // the second reading of a repeated hour never fires
  const d = new Date(wall);
  const [y, mo, dd] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  const dom = spec.days.has(dd) || (spec.anyReverseDay && spec.days.has(dd - daysInMonth(y, mo) - 1));
  return (
    spec.years.has(y) &&
    spec.months.has(mo) &&
    dom &&
    spec.weekdays.has((d.getUTCDay() + 6) % 7) &&
    spec.hours.has(d.getUTCHours()) &&
    spec.minutes.has(d.getUTCMinutes()) &&
    spec.seconds.has(d.getUTCSeconds())
  );
}

/** The library orders by instant here: every line in the check's zone, or that zone steady around the window. */
function ordersByInstant(lines: OnCalendarLine[], tz: string, from: number, to: number): boolean {
  if (lines.every((l) => l.zone === null || l.zone === tz)) return true;
  // No zone changes its offset twice within two days, so equal ends mean no change between.
  return to - from <= 36 * HOUR && offset(from - 6 * HOUR, tz) === offset(to, tz);
}

/** A match strictly between `from` and `to`, looked for minute by minute (at most `minutes` of them). */
function earlierMatch(lines: OnCalendarLine[], tz: string, from: number, to: number, minutes: number): number | null {
  for (let m = Math.floor(from / MINUTE) * MINUTE, i = 0; m < to && i < minutes; m += MINUTE, i++) {
    for (const l of lines) {
      // A few of the line's seconds: enough to catch a walk that skips a minute.
      for (const s of [...l.spec.seconds].slice(0, 3)) {
        const t = m + s * 1000;
        if (t > from && t < to && matches(l, tz, t)) return t;
      }
    }
  }
  return null;
}

describe('OnCalendar next times (property)', () => {
  it('are increasing, match the schedule, and skip no earlier match', () => {
    let checkedScan = 0;
    fc.assert(
      fc.property(expression, zone, instant, (expr, tz, after) => {
        fc.pre(isValidSchedule(expr));
        const lines = parseOnCalendar(expr);
        const times = occurrences(expr, tz, new Date(after), 5, 'oncalendar').map((d) => d.getTime());
        let last = after;
        for (const t of times) {
          expect(t).toBeGreaterThan(last);
          expect(t % 1000).toBe(0);
          expect(lines.some((l) => matches(l, tz, t)), new Date(t).toISOString()).toBe(true);
          last = t;
        }
        if (times.length === 0) return;
        if (ordersByInstant(lines, tz, after, times[0]!)) {
          checkedScan++;
          expect(earlierMatch(lines, tz, after, times[0]!, 1500)).toBeNull();
          // Healthchecks dates each next ping afresh from the last ping: the same sequence.
          if (times.length > 1 && ordersByInstant(lines, tz, times[0]!, times[1]!)) {
            expect(occurrences(expr, tz, new Date(times[0]!), 1, 'oncalendar')[0]?.getTime()).toBe(times[1]);
          }
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 400) },
    );
    expect(checkedScan).toBeGreaterThan(200);
  });
});
