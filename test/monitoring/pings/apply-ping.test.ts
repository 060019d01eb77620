import { describe, expect, it } from 'vitest';
import { applyPing, keptDeadline, type PingTarget } from '../../../src/monitoring/pings/apply-ping.ts';
import { classifyBody, matchKeywords } from '../../../src/monitoring/pings/classify.ts';

const T = Date.parse('2026-01-05T10:00:00Z');
const at = (s: number) => new Date(T + s * 1000);
const RID_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const RID_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const check = (o: Partial<PingTarget> = {}): PingTarget => ({
  kind: 'simple', timeout: 60, grace: 60, schedule: '* * * * *', tz: 'UTC', status: 'new', lastPing: null,
  lastStart: null, lastStartRid: null, lastDurationMs: null, manualResume: false, nPings: 0, alertAfter: null, ...o,
});

describe('applyPing', () => {
  it('success makes the check up, flips, and sets the going-down time', () => {
    const out = applyPing(check(), 'success', null, at(0));
    expect(out.changes).toMatchObject({ status: 'up', lastPing: at(0), nPings: 1, alertAfter: at(120) });
    expect(out.flip).toEqual({ oldStatus: 'new', newStatus: 'up', reason: '' });
    expect(applyPing(check({ status: 'up' }), 'success', null, at(0)).flip).toBeNull();
  });

  it('fail makes the check down with reason "fail"', () => {
    const out = applyPing(check({ status: 'up' }), 'fail', null, at(0));
    expect(out.changes).toMatchObject({ status: 'down', alertAfter: null });
    expect(out.flip).toEqual({ oldStatus: 'up', newStatus: 'down', reason: 'fail' });
  });

  it('start records the run without touching status or last_ping', () => {
    const out = applyPing(check({ status: 'up', lastPing: at(-10) }), 'start', RID_A, at(0));
    expect(out.changes).toMatchObject({ status: 'up', lastPing: at(-10), lastStart: at(0), lastStartRid: RID_A, alertAfter: at(60) });
    expect(out.flip).toBeNull();
  });

  it('pairs a completion with the start of the same run id into a duration', () => {
    const running = check({ lastStart: at(0), lastStartRid: RID_A });
    expect(applyPing(running, 'success', RID_A, at(42)).changes).toMatchObject({ lastDurationMs: 42_000, lastStart: null });
    // Another run's success leaves this run running; a failure or a rid-less ping ends it.
    expect(applyPing(running, 'success', RID_B, at(42)).changes).toMatchObject({ lastDurationMs: null, lastStart: at(0) });
    expect(applyPing(running, 'fail', RID_B, at(42)).changes).toMatchObject({ lastStart: null, lastDurationMs: null });
    expect(applyPing(running, 'success', null, at(42)).changes).toMatchObject({ lastStart: null });
  });

  it('log and ign change nothing but the counter', () => {
    for (const kind of ['log', 'ign'] as const) {
      const out = applyPing(check({ status: 'up', lastPing: at(-5), nPings: 7 }), kind, null, at(0));
      expect(out.changes).toMatchObject({ status: 'up', lastPing: at(-5), nPings: 8 });
      expect(out.flip).toBeNull();
    }
  });

  it('ignores every ping of a paused check with manual_resume, and unpauses otherwise', () => {
    const manual = applyPing(check({ status: 'paused', manualResume: true }), 'success', null, at(0));
    expect(manual.kind).toBe('ign');
    expect(manual.changes.status).toBe('paused');
    expect(applyPing(check({ status: 'paused', manualResume: true }), 'start', null, at(0)).changes.lastStart).toBeNull();
    const auto = applyPing(check({ status: 'paused' }), 'success', null, at(0));
    expect(auto.flip).toEqual({ oldStatus: 'paused', newStatus: 'up', reason: '' });
  });
});

describe('the going-down time a ping stores (keptDeadline)', () => {
  it('keeps an earlier stored time while it is more than half the way from now to the new one', () => {
    // Pinged every 10 s with timeout 60 + grace 60: written at 0, kept until the ping at 60.
    const up = check({ status: 'up', lastPing: at(0), alertAfter: at(120) });
    expect(applyPing(up, 'success', null, at(10)).changes).toMatchObject({ lastPing: at(10), alertAfter: at(120) });
    expect(applyPing(up, 'success', null, at(50)).changes.alertAfter).toEqual(at(120));
    expect(applyPing(up, 'success', null, at(60)).changes.alertAfter).toEqual(at(180));
  });

  it('writes every ping of a check pinged once a period, as before', () => {
    const up = check({ status: 'up', lastPing: at(0), alertAfter: at(120) });
    expect(applyPing(up, 'success', null, at(60)).changes.alertAfter).toEqual(at(180));
    expect(applyPing(up, 'success', null, at(100)).changes.alertAfter).toEqual(at(220));
  });

  it('always writes an earlier time, a time in place of none, and none', () => {
    // A run started: due by its start plus grace, earlier than the stored time.
    const up = check({ status: 'up', lastPing: at(0), alertAfter: at(120) });
    expect(applyPing(up, 'start', null, at(10)).changes.alertAfter).toEqual(at(70));
    expect(applyPing(check({ status: 'up', lastPing: at(0) }), 'success', null, at(10)).changes.alertAfter).toEqual(at(130));
    expect(applyPing(up, 'fail', null, at(10)).changes.alertAfter).toBeNull();
    // A stored time already past (the monitor has not been by yet) is replaced.
    expect(keptDeadline(at(5), at(130), at(10))).toEqual(at(130));
    expect(keptDeadline(at(120), at(130), at(10))).toEqual(at(120));
    expect(keptDeadline(at(140), at(130), at(10))).toEqual(at(130));
    expect(keptDeadline(null, at(130), at(10))).toEqual(at(130));
  });
});

describe('keyword classification', () => {
  it('matches trimmed, non-empty, case-sensitive keywords', () => {
    expect(matchKeywords('Backup OK', ' nope , OK')).toBe(true);
    expect(matchKeywords('backup ok', 'OK')).toBe(false);
    expect(matchKeywords('anything', ' , ')).toBe(false);
  });

  it('checks failure before success before start, then the default', () => {
    const f = { filterHttpBody: true, filterDefaultFail: false, startKw: 'BEGIN', successKw: 'OK', failureKw: 'ERR' };
    expect(classifyBody('OK but ERR', f)).toBe('fail');
    expect(classifyBody('OK', f)).toBe('success');
    expect(classifyBody('BEGIN', f)).toBe('start');
    expect(classifyBody('?', f)).toBe('ign');
    expect(classifyBody('?', { ...f, filterDefaultFail: true })).toBe('fail');
  });
});
