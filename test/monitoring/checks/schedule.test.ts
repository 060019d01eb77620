import { describe, expect, it } from 'vitest';
import { isValidSchedule, nextOccurrence, occurrences } from '../../../src/monitoring/checks/schedule.ts';

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

// The cases issue #12 names, as readable examples; cron-golden.test.ts checks thousands more
// against cronsim itself.
describe('cronsim semantics (issue #12)', () => {
  const all = (expr: string, tz: string, after: string, n = 5) =>
    occurrences(expr, tz, new Date(after), n).map((d) => d.toISOString().slice(0, 16));

  it.each(['0 0 LW * *', '*,10 * * * *', '0 0 l * *', '0 0 L/2 * *', '0 0 * * 1#1,FRI', '0 0 * * 0,7', '0 0 * * *\n', '0 0 * * ſun'])(
    'accepts %j as cronsim does',
    (expr) => expect(isValidSchedule(expr)).toBe(true),
  );

  it.each(['0 0 15W * *', '0 0 30 2 1', '0 0 */31 * 1#5', '0 0\n* * *', '0 0 * * 5L-6', '１ * * * *'])(
    'refuses %j as cronsim does',
    (expr) => expect(isValidSchedule(expr)).toBe(false),
  );

  it('runs a single-value step to the end of the field: 5-5/15 is 5,20,35,50', () => {
    expect(all('5-5/15 * * * *', 'UTC', '2026-01-01T00:00:00Z')).toEqual([
      '2026-01-01T00:05', '2026-01-01T00:20', '2026-01-01T00:35', '2026-01-01T00:50', '2026-01-01T01:05',
    ]);
  });

  it('ANDs "*/2" with "1#2": the second Monday, on an odd day', () => {
    expect(all('0 0 */2 * 1#2', 'UTC', '2026-01-01T00:00:00Z', 2)).toEqual(['2026-02-09T00:00', '2026-03-09T00:00']);
  });

  it('skips the spring-forward day for "*/30 2" and fires twice in the repeated hour for "*/20 1"', () => {
    expect(all('*/30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 2)).toEqual(['2026-03-09T06:00', '2026-03-09T06:30']);
    expect(all('*/20 1 * * *', 'America/New_York', '2026-11-01T04:00:00Z', 6)).toEqual([
      '2026-11-01T05:00', '2026-11-01T05:20', '2026-11-01T05:40', '2026-11-01T06:00', '2026-11-01T06:20', '2026-11-01T06:40',
    ]);
  });

  it('always has a next hour in Lord Howe, across its 30-minute shifts', () => {
    expect(all('0 * * * *', 'Australia/Lord_Howe', '2026-04-04T13:00:00Z', 3)).toEqual(['2026-04-04T14:00', '2026-04-04T15:30', '2026-04-04T16:30']);
    expect(all('0 * * * *', 'Australia/Lord_Howe', '2026-10-03T14:00:00Z', 3)).toEqual(['2026-10-03T14:30', '2026-10-03T16:00', '2026-10-03T17:00']);
  });

  it('never goes back to the first reading of a repeated hour (cronsim does)', () => {
    // 01:40 EST, the second reading: cronsim answers 01:50 EDT, 50 minutes earlier.
    expect(next('50 1 * * *', 'America/New_York', '2026-11-01T06:40:00Z')).toBe('2026-11-02T06:50:00.000Z');
  });

  it('gets out of the repeated-hour loops cronsim never leaves', () => {
    // Chatham goes back from 03:45 to 02:45; cronsim returns 03:00-03:44 (first reading) forever.
    expect(all('* 3 * * *', 'Pacific/Chatham', '2026-04-04T13:59:59Z', 2)).toEqual(['2026-04-04T14:15', '2026-04-04T14:16']);
    // ...and here cronsim's next() never returns.
    expect(all('45 */3 * * *', 'Pacific/Chatham', '2026-04-04T12:00:00Z', 2)).toEqual(['2026-04-04T15:00', '2026-04-04T18:00']);
  });
});
