import { describe, expect, it } from 'vitest';
import { computeStatus, goingDownAfter, graceStart, type CheckTiming } from '../../../src/monitoring/checks/status.ts';

const T = Date.parse('2026-01-05T10:00:00Z');
const at = (s: number) => new Date(T + s * 1000);
const simple = (o: Partial<CheckTiming> = {}): CheckTiming => ({
  kind: 'simple', timeout: 3600, grace: 600, schedule: '* * * * *', tz: 'UTC', status: 'up', lastPing: at(0), lastStart: null, ...o,
});

describe('simple checks', () => {
  it('are up until last_ping + timeout, in grace until + grace, then down (exact milliseconds)', () => {
    const c = simple();
    expect(computeStatus(c, new Date(T + 3600_000 - 1))).toBe('up');
    expect(computeStatus(c, at(3600))).toBe('grace');
    expect(computeStatus(c, new Date(T + 4200_000 - 1))).toBe('grace');
    expect(computeStatus(c, at(4200))).toBe('down');
    expect(graceStart(c)).toEqual(at(3600));
    expect(goingDownAfter(c)).toEqual(at(4200));
  });

  it('keep new, paused and down as stored', () => {
    for (const status of ['new', 'paused', 'down']) expect(computeStatus(simple({ status, lastPing: null }), at(99999))).toBe(status);
    expect(goingDownAfter(simple({ status: 'new', lastPing: null }))).toBeNull();
    expect(goingDownAfter(simple({ status: 'down' }))).toBeNull();
  });

  it('treat a run that outlasts the grace time as down, and report "started" in v1 before that', () => {
    const running = simple({ status: 'new', lastPing: null, lastStart: at(0) });
    expect(computeStatus(running, at(599))).toBe('new');
    expect(computeStatus(running, at(599), true)).toBe('started');
    expect(computeStatus(running, at(600))).toBe('down');
    expect(graceStart(running)).toEqual(at(0));
    expect(goingDownAfter(running)).toEqual(at(600));
    const pausedRunning = simple({ status: 'paused', lastStart: at(100) });
    expect(goingDownAfter(pausedRunning)).toEqual(at(700));
  });

  it('expect an up check that started a run at min(expected, start)', () => {
    expect(graceStart(simple({ lastStart: at(100) }))).toEqual(at(100));
    expect(graceStart(simple({ lastStart: at(100) }), false)).toEqual(at(3600));
    expect(graceStart(simple({ status: 'down', lastStart: at(100) }))).toBeNull();
  });
});

describe('cron checks', () => {
  it('expect the next occurrence after last_ping in their time zone', () => {
    // Daily at 09:00 New York (14:00 UTC in January); last ping 10:00 UTC.
    const c = simple({ kind: 'cron', schedule: '0 9 * * *', tz: 'America/New_York', grace: 300 });
    expect(graceStart(c)).toEqual(new Date('2026-01-05T14:00:00Z'));
    expect(computeStatus(c, new Date('2026-01-05T13:59:59Z'))).toBe('up');
    expect(computeStatus(c, new Date('2026-01-05T14:00:00Z'))).toBe('grace');
    expect(computeStatus(c, new Date('2026-01-05T14:04:59.999Z'))).toBe('grace');
    expect(computeStatus(c, new Date('2026-01-05T14:05:00Z'))).toBe('down');
  });

  it('follow DST: a Tokyo job never shifts, a London job does', () => {
    const tokyo = simple({ kind: 'cron', schedule: '0 6 * * *', tz: 'Asia/Tokyo', lastPing: new Date('2026-03-29T00:00:00Z') });
    expect(graceStart(tokyo)).toEqual(new Date('2026-03-29T21:00:00Z'));
    const london = simple({ kind: 'cron', schedule: '0 6 * * *', tz: 'Europe/London', lastPing: new Date('2026-03-28T07:00:00Z') });
    expect(graceStart(london)).toEqual(new Date('2026-03-29T05:00:00Z'));
  });
});
