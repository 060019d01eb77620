import { describe, expect, it } from 'vitest';
import { isValidSchedule, nextOccurrence } from '../../../src/monitoring/checks/schedule.ts';

const next = (expr: string, tz: string, after: string) => nextOccurrence(expr, tz, new Date(after))?.toISOString();

describe('isValidSchedule', () => {
  it.each(['*/5 * * * *', '0 9 * * MON-FRI', '0 9 * * mon-fri', '0 0 L * *', '0 0 * * 5L', '0 0 * * 1#2', '0 0 * * 7', '0 0 1 JAN *'])(
    'accepts %s',
    (expr) => expect(isValidSchedule(expr)).toBe(true),
  );
  it.each(['@daily', '@hourly', '* * * * * *', '0 0 ? * *', '0 0 31 2 *', '1,2 61 * * *', '* invalid *', 'bad', '', '0 0 * *'])(
    'rejects %j',
    (expr) => expect(isValidSchedule(expr)).toBe(false),
  );
});

describe('nextOccurrence', () => {
  it('is strictly after the given instant', () => {
    expect(next('0 12 * * *', 'UTC', '2026-01-01T12:00:00Z')).toBe('2026-01-02T12:00:00.000Z');
    expect(next('0 12 * * *', 'UTC', '2026-01-01T11:59:59.999Z')).toBe('2026-01-01T12:00:00.000Z');
  });

  it('evaluates in the check time zone', () => {
    expect(next('30 12 * * *', 'Europe/Riga', '2026-01-05T10:00:00Z')).toBe('2026-01-05T10:30:00.000Z'); // UTC+2
    expect(next('30 12 * * *', 'Europe/Riga', '2026-07-05T10:00:00Z')).toBe('2026-07-06T09:30:00.000Z'); // UTC+3
    expect(next('0 9 * * 1', 'Asia/Kolkata', '2026-01-05T03:29:00Z')).toBe('2026-01-05T03:30:00.000Z'); // UTC+5:30
    expect(next('0 2 * * *', 'Australia/Lord_Howe', '2026-01-05T00:00:00Z')).toBe('2026-01-05T15:00:00.000Z'); // UTC+11 (DST)
    expect(next('0 2 * * *', 'Australia/Lord_Howe', '2026-07-05T00:00:00Z')).toBe('2026-07-05T15:30:00.000Z'); // UTC+10:30
  });

  it('moves a daily job in the spring-forward gap to the first existing minute', () => {
    // 2026-03-08 02:30 does not exist in New York: the clock jumps from 02:00 EST to 03:00 EDT.
    expect(next('30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(next('30 2 * * *', 'America/New_York', '2026-03-08T07:00:00Z')).toBe('2026-03-09T06:30:00.000Z');
    // Berlin: 2026-03-29 02:30 does not exist either.
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
  });

  it('runs a daily job in the fall-back overlap once, at the first occurrence', () => {
    // 2026-11-01 01:30 happens twice in New York (EDT then EST); only the first counts.
    expect(next('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(next('30 1 * * *', 'America/New_York', '2026-11-01T05:30:00Z')).toBe('2026-11-02T06:30:00.000Z');
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-10-25T00:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('keeps hourly jobs on real hours across DST', () => {
    expect(next('0 * * * *', 'America/New_York', '2026-03-08T06:30:00Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(next('0 * * * *', 'America/New_York', '2026-11-01T05:30:00Z')).toBe('2026-11-01T06:00:00.000Z');
  });

  it('ORs day-of-month and day-of-week when both are restricted', () => {
    // The 13th or any Friday: Fri 9th, Tue 13th, Fri 16th.
    expect(next('0 0 13 * 5', 'UTC', '2026-01-03T00:00:00Z')).toBe('2026-01-09T00:00:00.000Z');
    expect(next('0 0 13 * 5', 'UTC', '2026-01-10T00:00:00Z')).toBe('2026-01-13T00:00:00.000Z');
  });

  it('ANDs them when one starts with "*", like cronsim', () => {
    // Odd days of the month that are also Fridays: Jan 9 and Jan 23 2026.
    expect(next('0 0 */2 * 5', 'UTC', '2026-01-01T00:00:00Z')).toBe('2026-01-09T00:00:00.000Z');
    expect(next('0 0 */2 * 5', 'UTC', '2026-01-09T00:00:00Z')).toBe('2026-01-23T00:00:00.000Z');
  });

  it('supports L, nL and n#k', () => {
    expect(next('0 0 L * *', 'UTC', '2026-02-01T00:00:00Z')).toBe('2026-02-28T00:00:00.000Z');
    expect(next('0 0 * * 5L', 'UTC', '2026-01-01T00:00:00Z')).toBe('2026-01-30T00:00:00.000Z');
    expect(next('0 0 * * 1#2', 'UTC', '2026-01-01T00:00:00Z')).toBe('2026-01-12T00:00:00.000Z');
  });
});
