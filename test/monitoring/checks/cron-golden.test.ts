// Differential test against cronsim, the library Healthchecks evaluates cron schedules with:
// cronsim-golden.jsonl, next to this file, is written by scripts/cronsim-golden/generate.py
// (see its README) from the real cronsim. Validation and the next five times must match exactly, in
// every zone and from every start in the table. Where cronsim goes back in time or loops in a
// repeated hour, the table holds the times our rule gives instead (docs/decisions.md, "Cron
// schedules"), and lists what cronsim did; those rows are the known-defect allowlist.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isValidSchedule, occurrences } from '../../../src/monitoring/checks/schedule.ts';
import { allTimezones } from '../../../src/monitoring/checks/timezones.ts';
import { predatesTzdataChange } from './tzdata-changes.ts';

interface Header {
  cronsim: string;
  tzdata: string;
  expressions: number;
  cases: number;
  defects: number;
}
/** [start epoch ms, next times epoch s, cronsim's defects (dropped times in epoch s, "hang")] */
type Case = [number, number[], (number | 'hang')[]?];
interface Row {
  expr: string;
  valid: boolean;
  cases: Record<string, Case[]>;
}

const [headerLine, ...lines] = readFileSync(new URL('./cronsim-golden.jsonl', import.meta.url), 'utf8')
  .trimEnd()
  .split('\n');
const header = JSON.parse(headerLine!) as Header;
const rows = lines.map((line) => JSON.parse(line) as Row);
const cases = rows.flatMap((row) =>
  Object.entries(row.cases).flatMap(([zone, list]) => list.map(([start, times, defects]) => ({ row, zone, start, times, defects }))),
);

describe(`cron schedules against cronsim ${header.cronsim} (tzdata ${header.tzdata})`, () => {
  it('reads the whole table', () => {
    expect(rows).toHaveLength(header.expressions);
    expect(cases).toHaveLength(header.cases);
    expect(cases.length).toBeGreaterThan(5000);
  });

  it('accepts and refuses exactly what Healthchecks does', () => {
    const wrong = rows.filter((row) => isValidSchedule(row.expr) !== row.valid).map((row) => [row.expr, row.valid]);
    expect(wrong).toEqual([]);
  });

  it('gives the same next five times in every zone, DST changes included', () => {
    const wrong = [];
    for (const { row, zone, start, times } of cases) {
      if (predatesTzdataChange(header.tzdata, zone, row.expr)) continue;
      const ours = occurrences(row.expr, zone, new Date(start), 5).map((d) => d.getTime() / 1000);
      if (ours.join() !== times.join()) {
        wrong.push({ expr: row.expr, zone, start: new Date(start).toISOString(), ours, cronsim: times });
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(wrong).toHaveLength(0);
  });

  it('departs from cronsim only where it went back in time or hung', () => {
    const defects = cases.filter((c) => c.defects);
    expect(defects).toHaveLength(header.defects);
    for (const { start, times, defects: what } of defects) {
      // Every dropped cronsim time is at or before a time already given (or the start).
      const latest = Math.max(start / 1000, ...times);
      for (const d of what!) if (d !== 'hang') expect(d).toBeLessThanOrEqual(latest);
    }
    // Both kinds are in the table: times dropped, and a next() that never returns.
    expect(defects.some((c) => c.defects!.includes('hang'))).toBe(true);
    expect(defects.some((c) => c.defects!.some((d) => d !== 'hang'))).toBe(true);
  });

  it('covers every zone Healthchecks accepts and the cases of issue #12', () => {
    const zones = new Set(cases.map((c) => c.zone));
    expect([...zones].filter((z) => !allTimezones().includes(z))).toEqual([]);
    expect(allTimezones().filter((z) => !zones.has(z))).toEqual([]);
    const exprs = new Set(rows.map((r) => r.expr));
    const issue = ['0 0 LW * *', '*,10 * * * *', '0 0 l * *', '0 0 L/2 * *', '0 0 * * 1#1,FRI', '0 0 * * 0,7'];
    issue.push('5-5/15 * * * *', '0 0 */2 * 1#2', '*/30 2 * * *', '*/20 1 * * *', '0 * * * *');
    expect(issue.filter((e) => !exprs.has(e))).toEqual([]);
  });
});
