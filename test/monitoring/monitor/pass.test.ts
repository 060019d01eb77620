import { describe, expect, it, vi } from 'vitest';
import { createMonitor } from '../../../src/monitoring/monitor/loop.ts';
import type Database from 'better-sqlite3';
import { runMonitorPass } from '../../../src/monitoring/monitor/pass.ts';
import { DUE_SQL } from '../../../src/monitoring/monitor/sqlite-store.ts';
import type { FlipEvent } from '../../../src/events/bus.ts';
import { T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { postgresUnderTest } from '../../helpers/postgres.ts';

const w = useWorld();

const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

async function upCheck(body: Record<string, unknown>) {
  const code = (await w.api('POST', '/api/v2/checks/', { body })).json.uuid as string;
  w.clock.set(T0);
  await w.ping(`/ping/${code}`);
  return code;
}

describe('monitor pass', () => {
  it('moves an overdue check to down exactly at last_ping + timeout + grace, dating the flip then', async () => {
    const code = await upCheck({ timeout: 60, grace: 60 });
    expect((await runMonitorPass(w.app.deps, at(119.999))).wentDown).toBe(0);
    const events: FlipEvent[] = [];
    w.app.deps.events.on('flip', (e) => events.push(e));
    const result = await runMonitorPass(w.app.deps, at(300));
    expect(result.wentDown).toBeGreaterThanOrEqual(1);
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { flips: { orderBy: { id: 'asc' } } } });
    expect(check.status).toBe('down');
    expect(check.alertAfter).toBeNull();
    expect(check.flips.map((f) => [f.oldStatus, f.newStatus, f.reason])).toEqual([['new', 'up', ''], ['up', 'down', 'timeout']]);
    expect(check.flips[1]!.createdAt).toEqual(at(120));
    expect(events.filter((e) => e.checkCode === code)).toEqual([expect.objectContaining({ oldStatus: 'up', newStatus: 'down', at: at(120) })]);
    // A second pass finds nothing more to do for this check.
    await runMonitorPass(w.app.deps, at(400));
    expect(await w.app.db.flip.count({ where: { checkId: check.id } })).toBe(2);
  });

  it('a check pinged often keeps an earlier going-down time: the monitor reschedules it, then flips it at the real one', async () => {
    const code = await upCheck({ timeout: 60, grace: 60 });
    // Pings at 10 s and 50 s keep the stored 120 s (more than half the way to the new time).
    for (const s of [10, 50]) {
      w.clock.set(at(s));
      await w.ping(`/ping/${code}`);
    }
    const kept = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    expect([kept.nPings, kept.lastPing, kept.alertAfter]).toEqual([3, at(50), at(120)]);
    // At 120 s it is not down (last ping 50 s + 120 s): stored again at the real time, no flip.
    expect(await runMonitorPass(w.app.deps, at(120))).toMatchObject({ wentDown: 0, rescheduled: expect.any(Number) });
    expect((await w.app.db.check.findUniqueOrThrow({ where: { code } })).alertAfter).toEqual(at(170));
    expect((await runMonitorPass(w.app.deps, at(169.999))).wentDown).toBe(0);
    await runMonitorPass(w.app.deps, at(200));
    const down = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { flips: { orderBy: { id: 'desc' }, take: 1 } } });
    expect([down.status, down.flips[0]!.createdAt]).toEqual(['down', at(170)]);
  });

  it('records one flip when two passes race for the same check', async () => {
    const code = await upCheck({ timeout: 60, grace: 60 });
    await Promise.all([runMonitorPass(w.app.deps, at(500)), runMonitorPass(w.app.deps, at(500))]);
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    expect(await w.app.db.flip.count({ where: { checkId: check.id, newStatus: 'down' } })).toBe(1);
  });

  it('takes a cron check down at next occurrence + grace in its time zone', async () => {
    // 10:00 UTC on 2026-01-05 is 12:00 in Riga; the next 12:30 local run is 10:30 UTC.
    const code = await upCheck({ schedule: '30 12 * * *', tz: 'Europe/Riga', grace: 300 });
    expect((await runMonitorPass(w.app.deps, at(30 * 60 + 299))).wentDown).toBe(0);
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    expect(check.status).toBe('up');
    await runMonitorPass(w.app.deps, at(30 * 60 + 300));
    const after = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { flips: { orderBy: { id: 'desc' }, take: 1 } } });
    expect(after.status).toBe('down');
    expect(after.flips[0]!.createdAt).toEqual(at(30 * 60 + 300));
  });

  it.skipIf(postgresUnderTest())('only reads checks that are due, through the alertAfter index, never the whole table (SQLite only: postgres-monitor.test.ts)', async () => {
    const seen: string[] = [];
    const stop = w.app.onStatement((sql) => seen.push(sql));
    await runMonitorPass(w.app.deps, at(1));
    stop();
    expect(seen.filter((s) => s.startsWith('SELECT'))).toEqual([DUE_SQL]);
    const plan = await w.app.exclusive((db) => (db as Database.Database).prepare(`EXPLAIN QUERY PLAN ${DUE_SQL}`).all(0, 0, 0, 1) as Array<{ detail: string }>);
    expect(plan.map((p) => p.detail)).toEqual([expect.stringMatching(/^SEARCH Check USING INDEX Check_alertAfter_id_idx/)]);
  });

  it('takes a thousand and more checks down in one pass, each flip dated at its own going-down time', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push(await upCheck({ timeout: 60 + i, grace: 60 }));
    // More due checks than one page holds: every one goes down, in pages.
    const project = await w.app.db.check.findUniqueOrThrow({ where: { code: codes[0] }, select: { projectId: true } });
    await w.app.db.check.createMany({
      data: Array.from({ length: 1200 }, (_, i) => ({
        code: `bulk-${i}`, uniqueKey: `bulk-u-${i}`, badgeKey: `bulk-b-${i}`, projectId: project.projectId,
        status: 'up', lastPing: T0, timeout: 60, grace: 60, alertAfter: at(120),
      })),
    });
    const result = await runMonitorPass(w.app.deps, at(1000));
    expect(result.wentDown).toBeGreaterThanOrEqual(1205);
    expect(await w.app.db.check.count({ where: { code: { startsWith: 'bulk-' }, status: 'down' } })).toBe(1200);
    const flips = await w.app.db.flip.findMany({ where: { check: { code: { in: codes } }, newStatus: 'down' }, include: { check: true } });
    expect(flips.map((f) => [f.check.code, f.createdAt.getTime()]).sort()).toEqual(codes.map((c, i) => [c, at(120 + i).getTime()]).sort());
  });
});

describe('monitor loop', () => {
  it('runs passes on its timer and stops cleanly (fake timers)', async () => {
    const code = await upCheck({ timeout: 60, grace: 60 });
    w.clock.set(at(121));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const monitor = createMonitor(w.app.deps, 1000);
      monitor.start();
      await vi.waitFor(async () => {
        expect((await w.app.db.check.findUniqueOrThrow({ where: { code } })).status).toBe('down');
      });
      await vi.advanceTimersByTimeAsync(1000);
      await monitor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('wakes early for a check that becomes due before its next scheduled wake-up (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const monitor = createMonitor(w.app.deps, 600_000); // would otherwise sleep 10 minutes
    try {
      w.clock.set(at(0));
      monitor.start();
      await monitor.tick();
      await vi.advanceTimersByTimeAsync(0);
      // Pinged while the monitor sleeps: due at 120 s.
      const code = (await w.api('POST', '/api/v2/checks/', { body: { timeout: 60, grace: 60 } })).json.uuid as string;
      await w.ping(`/ping/${code}`);
      w.clock.set(at(120));
      await vi.advanceTimersByTimeAsync(120_000);
      await vi.waitFor(async () => {
        expect((await w.app.db.check.findUniqueOrThrow({ where: { code } })).status).toBe('down');
      });
    } finally {
      await monitor.stop();
      vi.useRealTimers();
    }
  });
});
