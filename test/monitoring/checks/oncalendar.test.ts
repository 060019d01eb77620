// OnCalendar rules in readable examples: which schedules are OnCalendar (Healthchecks'
// guess_kind), the status functions with an OnCalendar check (Healthchecks' test_check_model),
// the library's own DST tests, zones named in the expression, and our rule where the library
// goes back in time. The golden table (oncalendar-golden.test.ts) is the exhaustive check.
import { describe, expect, it } from 'vitest';
import { applySpec, checkDefaults } from '../../../src/monitoring/checks/apply-spec.ts';
import { guessKind, isValidSchedule, nextOccurrence, occurrences } from '../../../src/monitoring/checks/schedule.ts';
import { computeStatus, graceStart, type CheckTiming } from '../../../src/monitoring/checks/status.ts';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const times = (expr: string, tz: string, after: string, n = 3) => iso(occurrences(expr, tz, new Date(after), n));

describe('which schedules are OnCalendar', () => {
  it('is what guess_kind says: one line of five fields is cron, anything else OnCalendar', () => {
    expect(guessKind('0 9 * * *')).toBe('cron');
    expect(guessKind('0\t9 * * *\n')).toBe('cron'); // stripped first; a tab separates
    expect(guessKind('Mon..Fri 09:00')).toBe('oncalendar');
    expect(guessKind('0 9 * * *\n12:00')).toBe('oncalendar');
    expect(guessKind('a b c d e')).toBe('cron'); // and then refused as cron
    expect(isValidSchedule('a b c d e')).toBe(false);
  });

  it('a name Object has ("__proto__", "constructor", "toString") is a bad expression, not a shortcut', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect(isValidSchedule(name)).toBe(false);
    expect(isValidSchedule('Daily')).toBe(true);
  });

  it('the API sets the kind by it', () => {
    expect(applySpec(checkDefaults, { schedule: 'daily' }, 3)).toMatchObject({ kind: 'oncalendar', schedule: 'daily' });
    expect(applySpec({ ...checkDefaults, kind: 'oncalendar' }, { schedule: '0 0 * * *' }, 3).kind).toBe('cron');
    expect(applySpec({ ...checkDefaults, kind: 'oncalendar', schedule: 'daily' }, { timeout: 120 }, 3).kind).toBe('simple');
  });
});

describe('status of an OnCalendar check (Healthchecks test_check_model)', () => {
  const check = (over: Partial<CheckTiming>): CheckTiming => ({
    kind: 'oncalendar', timeout: 86400, grace: 3600, schedule: '00:00', tz: 'UTC', status: 'up',
    lastPing: new Date('2000-01-01T00:00:00Z'), lastStart: null, ...over,
  });

  it('expects a ping every midnight, with an hour of grace', () => {
    const c = check({});
    expect(computeStatus(c, new Date('2000-01-01T23:59:00Z'))).toBe('up');
    expect(computeStatus(c, new Date('2000-01-02T00:00:00Z'))).toBe('grace');
    expect(computeStatus(c, new Date('2000-01-02T01:00:00Z'))).toBe('down');
  });

  it('a schedule that has ended expects nothing: up, no next ping', () => {
    const c = check({ schedule: '2019-01-01', lastPing: new Date('2020-01-01T00:00:00Z') });
    expect(graceStart(c)).toBeNull();
    expect(computeStatus(c, new Date('2020-01-01T01:00:00Z'))).toBe('up');
  });

  it('is evaluated by the stored kind, whatever the schedule looks like', () => {
    expect(graceStart(check({ kind: 'cron', schedule: '0 0 * * *' }))).toEqual(new Date('2000-01-02T00:00:00Z'));
    // An OnCalendar check whose text does not parse as OnCalendar expects nothing.
    expect(graceStart(check({ kind: 'oncalendar', schedule: '0 0 * * *' }))).toBeNull();
  });
});

describe('OnCalendar times', () => {
  it('the library’s DST tests: a skipped time is skipped, a repeated one is read once, before the change', () => {
    expect(times('*-*-29 3:30', 'Europe/Riga', '2019-12-31T22:00:00Z')).toEqual([
      '2020-01-29T01:30:00.000Z',
      '2020-02-29T01:30:00.000Z',
      '2020-04-29T00:30:00.000Z', // not 2020-03-29, when Riga skips 03:00-03:59
    ]);
    expect(times('*-*-25 3:30', 'Europe/Riga', '2020-09-30T21:00:00Z')).toEqual([
      '2020-10-25T00:30:00.000Z', // 03:30 EEST, the first reading
      '2020-11-25T01:30:00.000Z',
      '2020-12-25T01:30:00.000Z',
    ]);
  });

  it('a zone named at the end of a line is that line’s zone; a legacy alias is the zone it stands for', () => {
    expect(times('12:34 Europe/Riga', 'Europe/Berlin', '2019-12-31T23:00:00Z', 1)).toEqual(['2020-01-01T10:34:00.000Z']);
    expect(times('12:34 US/Eastern', 'UTC', '2026-01-05T00:00:00Z', 1)).toEqual(times('12:34 America/New_York', 'UTC', '2026-01-05T00:00:00Z', 1));
    // Names outside Healthchecks' list are refused, whatever a server's tzdata files hold.
    for (const expr of ['12:34 Factory', '12:34 posix/Europe/Riga', '12:34 europe/riga', '12:34 Europe/']) expect(isValidSchedule(expr), expr).toBe(false);
    // Only a real space makes the library look for a zone.
    expect(isValidSchedule('12:34\tEurope/Riga')).toBe(false);
  });

  it('several lines fire at every time any of them names', () => {
    expect(times('00:00\n12:34', 'UTC', '2020-01-01T00:00:00Z', 4)).toEqual([
      '2020-01-01T12:34:00.000Z',
      '2020-01-02T00:00:00.000Z',
      '2020-01-02T12:34:00.000Z',
      '2020-01-03T00:00:00.000Z',
    ]);
    // One line ending does not end the schedule (the library's test_it_handles_subiterator_stopiteration).
    expect(times('2020-01-02\n12:34', 'UTC', '2020-01-01T00:00:00Z', 4)).toEqual([
      '2020-01-01T12:34:00.000Z',
      '2020-01-02T00:00:00.000Z',
      '2020-01-02T12:34:00.000Z',
      '2020-01-03T12:34:00.000Z',
    ]);
  });

  it('never a time at or before the previous one, where the library would go back in a repeated hour', () => {
    // Last ping 01:30 EST, the second reading: the library walks on from 01:30 and answers
    // 01:45 EDT, before the ping. We drop it and go on.
    expect(times('*:0/15', 'America/New_York', '2026-11-01T06:30:00Z', 2)).toEqual(['2026-11-01T07:00:00.000Z', '2026-11-01T07:15:00.000Z']);
    // Two lines merged by New York's clock: 01:45 EDT comes out after 01:30 EST; dropped.
    expect(times('01:45\n*:0/30 UTC', 'America/New_York', '2026-11-01T04:50:00Z', 6)).toEqual([
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T06:00:00.000Z',
      '2026-11-01T06:30:00.000Z',
      '2026-11-01T07:00:00.000Z', // (the library: 05:45, then 07:00)
      '2026-11-01T07:30:00.000Z',
    ]);
  });

  it('a per-second schedule started in a repeated hour stays cheap', () => {
    const expr = Array(16).fill('*:*:*').join('\n'); // 95 characters, 16 lines
    const started = performance.now();
    expect(nextOccurrence(expr, 'Antarctica/Troll', new Date('2026-10-25T01:00:30Z'))).toEqual(new Date('2026-10-25T03:00:00Z'));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
