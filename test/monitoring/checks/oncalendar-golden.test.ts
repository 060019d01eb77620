// Differential test against the `oncalendar` library, which Healthchecks evaluates OnCalendar
// schedules with: oncalendar-golden.jsonl, next to this file, is written by
// scripts/oncalendar-golden/generate.py (see its README) from the real library. Validation and
// the next five times must match exactly, in every zone and from every start in the table.
// Where the library goes back in time in a repeated hour, the table holds the times our rule
// gives (docs/decisions.md, "OnCalendar schedules") and lists what the library gave; those rows
// are the known-defect allowlist.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guessKind, isValidSchedule, occurrences } from '../../../src/monitoring/checks/schedule.ts';
import { allTimezones } from '../../../src/monitoring/checks/timezones.ts';
import { predatesTzdataChange } from './tzdata-changes.ts';

interface Header {
  oncalendar: string;
  tzdata: string;
  expressions: number;
  valid: number;
  cases: number;
  defects: number;
}
/** [start epoch ms, next times epoch s, the library's dropped times epoch s] */
type Case = [number, number[], number[]?];
interface Row {
  expr: string;
  valid: boolean;
  cases: Record<string, Case[]>;
}

const [headerLine, ...lines] = readFileSync(new URL('./oncalendar-golden.jsonl', import.meta.url), 'utf8')
  .trimEnd()
  .split('\n');
const header = JSON.parse(headerLine!) as Header;
const rows = lines.map((line) => JSON.parse(line) as Row);
const cases = rows.flatMap((row) =>
  Object.entries(row.cases).flatMap(([zone, list]) => list.map(([start, times, dropped]) => ({ row, zone, start, times, dropped }))),
);

describe(`OnCalendar schedules against oncalendar ${header.oncalendar} (tzdata ${header.tzdata})`, () => {
  it('reads the whole table', () => {
    expect(rows).toHaveLength(header.expressions);
    expect(rows.filter((r) => r.valid)).toHaveLength(header.valid);
    expect(cases).toHaveLength(header.cases);
    expect(cases.length).toBeGreaterThan(10_000);
  });

  it('accepts and refuses exactly what Healthchecks does', () => {
    // `valid`: accepted as OnCalendar. A cron-shaped line (one line, five fields) is cron to
    // Healthchecks whatever the library would say; the table holds a few.
    const asOnCalendar = (expr: string) => guessKind(expr) === 'oncalendar' && isValidSchedule(expr);
    const wrong = rows.filter((row) => asOnCalendar(row.expr) !== row.valid).map((row) => [row.expr, row.valid]);
    expect(wrong).toEqual([]);
  });

  it('gives the same next five times in every zone, DST changes included', () => {
    const wrong = [];
    for (const { row, zone, start, times } of cases) {
      if (predatesTzdataChange(header.tzdata, zone, row.expr)) continue;
      const ours = occurrences(row.expr, zone, new Date(start), 5, 'oncalendar').map((d) => d.getTime() / 1000);
      if (ours.join() !== times.join()) {
        wrong.push({ expr: row.expr, zone, start: new Date(start).toISOString(), ours, oncalendar: times });
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(wrong).toHaveLength(0);
  });

  it('departs from the library only where it went back in time', () => {
    const defects = cases.filter((c) => c.dropped);
    expect(defects).toHaveLength(header.defects);
    for (const { start, times, dropped } of defects) {
      // Every dropped time is at or before a time already given (or the start).
      const latest = Math.max(start / 1000, ...times);
      for (const d of dropped!) expect(d).toBeLessThanOrEqual(latest);
    }
    // Both ways are in the table: a start in the second reading, and the merge of two lines.
    const exprs = new Set(defects.map((c) => c.row.expr));
    expect(exprs.has('*:0/15')).toBe(true);
    expect(exprs.has('01:45\n*:0/30 UTC')).toBe(true);
  });

  it('covers every zone Healthchecks accepts, zones named in the expression, and several lines', () => {
    const zones = new Set(cases.map((c) => c.zone));
    expect([...zones].filter((z) => !allTimezones().includes(z))).toEqual([]);
    expect(allTimezones().filter((z) => !zones.has(z))).toEqual([]);
    const valid = rows.filter((r) => r.valid).map((r) => r.expr);
    expect(valid).toEqual(expect.arrayContaining(['*-*~1 12:00', '12:34 Europe/Riga', '12:34 US/Eastern', 'Mon..Fri 09:00', 'daily', '00:00\n12:34']));
    expect(rows.filter((r) => !r.valid).map((r) => r.expr)).toEqual(
      expect.arrayContaining(['12:34\nsurprise', '12:34 Europe/surprise', 'Surprise 12:34', '*:*/2', '0 0 * * *', '']),
    );
  });
});
