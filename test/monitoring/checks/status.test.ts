import { describe, expect, it } from 'vitest';
import { computeStatus, goingDownAfter, graceStart, type CheckTiming } from '../../../src/monitoring/checks/status.ts';

const T = Date.parse('2026-01-05T10:00:00Z');
const at = (seconds: number, ms = 0) => new Date(T + seconds * 1000 + ms);
/** Timeout 1 h, grace 10 min, last ping at T. */
const simple = (o: Partial<CheckTiming> = {}): CheckTiming => ({
  kind: 'simple',
  timeout: 3600,
  grace: 600,
  schedule: '* * * * *',
  tz: 'UTC',
  status: 'up',
  lastPing: at(0),
  lastStart: null,
  ...o,
});

describe('simple checks', () => {
  it('are up until last_ping + timeout, in grace from then, down from + grace (exact milliseconds)', () => {
    const c = simple();
    expect(computeStatus(c, at(3600, -1))).toBe('up');
    expect(computeStatus(c, at(3600))).toBe('grace');
    expect(computeStatus(c, at(4200, -1))).toBe('grace');
    expect(computeStatus(c, at(4200))).toBe('down');
    expect(graceStart(c)).toEqual(at(3600));
    expect(goingDownAfter(c)).toEqual(at(4200));
  });

  it('keep new, paused and down as stored, and are never due', () => {
    for (const status of ['new', 'paused', 'down']) {
      const c = simple({ status, lastPing: status === 'new' ? null : at(0) });
      expect(computeStatus(c, at(999_999))).toBe(status);
      expect(graceStart(c)).toBeNull();
      expect(goingDownAfter(c)).toBeNull();
    }
  });
});

describe('running checks (last_start set)', () => {
  it('are down once the run outlasts the grace time, whatever the stored status', () => {
    for (const status of ['new', 'up', 'paused']) {
      const c = simple({ status, lastStart: at(100) });
      expect(computeStatus(c, at(700, -1))).not.toBe('down');
      expect(computeStatus(c, at(700))).toBe('down');
    }
  });

  it('report "started" only for API v1, until grace runs out', () => {
    const c = simple({ status: 'new', lastPing: null, lastStart: at(0) });
    expect(computeStatus(c, at(600, -1))).toBe('new');
    expect(computeStatus(c, at(600, -1), true)).toBe('started');
    expect(computeStatus(c, at(600), true)).toBe('down');
  });

  it('keep an up check "up" during the run: the run does not start its grace period', () => {
    const c = simple({ lastStart: at(3500) }); // started 100 s before the ping is due
    expect(computeStatus(c, at(3599))).toBe('up');
    expect(computeStatus(c, at(3600))).toBe('grace');
    expect(computeStatus(c, at(4100))).toBe('down'); // start + grace comes first
  });

  it('are due at min(expected ping, start): the grace start used for next_ping and alert_after', () => {
    expect(graceStart(simple({ lastStart: at(100) }))).toEqual(at(100));
    expect(graceStart(simple({ lastStart: at(100) }), false)).toEqual(at(3600));
    expect(graceStart(simple({ lastStart: at(5000) }))).toEqual(at(3600));
    expect(graceStart(simple({ status: 'new', lastPing: null, lastStart: at(0) }))).toEqual(at(0));
  });
});

describe('goingDownAfter', () => {
  it('is last_ping + timeout + grace for an up check', () => {
    expect(goingDownAfter(simple())).toEqual(at(4200));
  });

  it('is last_start + grace for a new or paused check that is running', () => {
    expect(goingDownAfter(simple({ status: 'new', lastPing: null, lastStart: at(0) }))).toEqual(at(600));
    expect(goingDownAfter(simple({ status: 'paused', lastStart: at(100) }))).toEqual(at(700));
  });

  it('is null for a down check, running or not', () => {
    expect(goingDownAfter(simple({ status: 'down' }))).toBeNull();
    expect(goingDownAfter(simple({ status: 'down', lastStart: at(100) }))).toBeNull();
  });
});

describe('cron checks', () => {
  it('are due at the next occurrence after last_ping in their zone (New York, exact boundaries)', () => {
    // Daily at 09:00 New York = 14:00 UTC in January; last ping 10:00 UTC; grace 5 min.
    const c = simple({ kind: 'cron', schedule: '0 9 * * *', tz: 'America/New_York', grace: 300 });
    expect(graceStart(c)).toEqual(new Date('2026-01-05T14:00:00Z'));
    expect(goingDownAfter(c)).toEqual(new Date('2026-01-05T14:05:00Z'));
    expect(computeStatus(c, new Date('2026-01-05T13:59:59.999Z'))).toBe('up');
    expect(computeStatus(c, new Date('2026-01-05T14:00:00Z'))).toBe('grace');
    expect(computeStatus(c, new Date('2026-01-05T14:04:59.999Z'))).toBe('grace');
    expect(computeStatus(c, new Date('2026-01-05T14:05:00Z'))).toBe('down');
  });

  it('are due at the next occurrence, not the same one, when pinged exactly on time (Kolkata)', () => {
    // 09:00 IST = 03:30 UTC.
    const c = simple({ kind: 'cron', schedule: '0 9 * * *', tz: 'Asia/Kolkata', lastPing: new Date('2026-01-05T03:30:00Z') });
    expect(graceStart(c)).toEqual(new Date('2026-01-06T03:30:00Z'));
  });

  it('follow DST: a Tokyo job never shifts, a London job does', () => {
    const tokyo = simple({ kind: 'cron', schedule: '0 6 * * *', tz: 'Asia/Tokyo', lastPing: new Date('2026-03-29T00:00:00Z') });
    expect(graceStart(tokyo)).toEqual(new Date('2026-03-29T21:00:00Z'));
    const london = simple({ kind: 'cron', schedule: '0 6 * * *', tz: 'Europe/London', lastPing: new Date('2026-03-28T07:00:00Z') });
    expect(graceStart(london)).toEqual(new Date('2026-03-29T05:00:00Z'));
  });

  it('take min(next occurrence, last_start) while running', () => {
    const c = simple({ kind: 'cron', schedule: '0 9 * * *', tz: 'America/New_York', lastStart: at(60) });
    expect(graceStart(c)).toEqual(at(60));
    expect(graceStart(c, false)).toEqual(new Date('2026-01-05T14:00:00Z'));
  });
});

describe('checks of another kind', () => {
  it('OnCalendar checks are due by their schedule (more in oncalendar.test.ts)', () => {
    const c = simple({ kind: 'oncalendar', schedule: 'daily', tz: 'Europe/Riga' });
    expect(graceStart(c)).toEqual(new Date('2026-01-05T22:00:00Z')); // midnight in Riga
  });

  it('a kind we do not know is never due, so it stays up', () => {
    const c = simple({ kind: 'weekly-report', schedule: 'daily' });
    expect(graceStart(c)).toBeNull();
    expect(computeStatus(c, at(999_999))).toBe('up');
  });
});
