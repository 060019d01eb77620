// The monitor on PostgreSQL (the TEST_DB=postgres pass): a pass reads only due rows, through the
// alertAfter index, and monitors of several instances (several pools) running at once record
// each going-down flip, and its notifications, exactly once.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runMonitorPass } from '../../../src/monitoring/monitor/pass.ts';
import { POSTGRES_DUE_SQL, POSTGRES_PARALLEL_PAGES, postgresMonitorStore } from '../../../src/monitoring/monitor/postgres-store.ts';
import { T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { postgresUnderTest, testPool } from '../../helpers/postgres.ts';

const url = postgresUnderTest();
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe.skipIf(!url)(`monitor passes on PostgreSQL${url ? '' : ' (skipped: TEST_DB=postgres not set)'}`, () => {
  const w = useWorld();
  const pools: pg.Pool[] = [];
  const pool = () => {
    const p = testPool({ connectionString: w.databaseUrl, max: 4 });
    pools.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  /** `count` up checks going down at T0 + 120 s, each with an email channel; returns their ids. */
  async function dueChecks(prefix: string, count: number, alertAfter = at(120)): Promise<number[]> {
    const channel = await w.app.db.channel.findUniqueOrThrow({ where: { code: (await w.channel(w.alice, { kind: 'email' })).code } });
    await w.app.db.check.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        code: `${prefix}-${i}`, uniqueKey: `${prefix}-u-${i}`, badgeKey: `${prefix}-b-${i}`, projectId: w.alice.id,
        status: 'up', lastPing: T0, timeout: 60, grace: 60, alertAfter, nPings: 1,
      })),
    });
    const ids = (await w.app.db.check.findMany({ where: { code: { startsWith: `${prefix}-` } }, select: { id: true } })).map((c) => c.id);
    await w.app.db.checkChannel.createMany({ data: ids.map((checkId) => ({ checkId, channelId: channel.id })) });
    return ids;
  }

  it('only reads checks that are due, through the alertAfter index, never the whole table', async () => {
    // Many checks not due for a day: the planner must prefer the index to a scan.
    await dueChecks('later', 3000, at(86_400));
    const seen: string[] = [];
    const stop = w.app.onStatement((sql) => seen.push(sql));
    await runMonitorPass(w.app.deps, at(1));
    stop();
    // One read of the due rows per worker, side by side, and nothing else read.
    expect(seen.filter((s) => /^\s*SELECT/.test(s))).toEqual(Array(POSTGRES_PARALLEL_PAGES).fill(POSTGRES_DUE_SQL));
    const client = new pg.Client({ connectionString: w.databaseUrl });
    await client.connect();
    try {
      await client.query('ANALYZE "Check"');
      const plan = await client.query(`EXPLAIN ${POSTGRES_DUE_SQL}`, [at(1).toISOString(), '-infinity', 0, 1000]);
      const text = plan.rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      expect(text).toMatch(/Index Scan using "Check_alertAfter_id_idx"/);
      // The index is in the page's order (alertAfter, id): checks due at the same moment (a
      // thousand cron jobs at midnight) are not sorted again for every page.
      expect(text).not.toMatch(/Sort/);
      expect(text).toMatch(/Index Cond: .*"alertAfter" <=/);
      expect(text).not.toMatch(/Seq Scan/);
    } finally {
      await client.end();
    }
  });

  it('flips each of 100 due checks exactly once when two instances run passes at the same time', async () => {
    const ids = await dueChecks('race', 100);
    const instance = () => ({ ...w.app.deps, storage: { ...w.app.deps.storage, monitor: postgresMonitorStore(pool(), () => {}) } });
    const a = instance();
    const b = instance();
    const passes = await Promise.all([a, b, a, b, a, b].map((deps) => runMonitorPass(deps, at(300))));
    expect(passes.reduce((sum, p) => sum + p.wentDown, 0)).toBe(100);
    const flips = await w.app.db.flip.findMany({ where: { checkId: { in: ids } } });
    expect(flips).toHaveLength(100);
    expect(new Set(flips.map((f) => f.checkId)).size).toBe(100);
    // Dated at the going-down time, not the detection time.
    expect(new Set(flips.map((f) => f.createdAt.getTime()))).toEqual(new Set([at(120).getTime()]));
    const notifications = await w.app.db.notification.findMany({ where: { checkId: { in: ids } } });
    expect(notifications).toHaveLength(100);
    expect(notifications.every((n) => n.status === 'down' && n.flipId !== null && n.nextAttemptAt.getTime() === at(300).getTime())).toBe(true);
    expect(await w.app.db.check.count({ where: { id: { in: ids }, status: 'down', alertAfter: null } })).toBe(100);
  });

  it('shares a pass of many due checks between pages in flight side by side, each check flipped once', async () => {
    const ids = await dueChecks('wave', 3500, at(130));
    const kinds: string[] = [];
    const observe = (sql: string) => {
      if (sql === POSTGRES_DUE_SQL) kinds.push('due');
      else if (sql.startsWith('WITH "down"')) kinds.push('write');
    };
    // A pool with connections open, as a running server's is (a new one would take a connect).
    const p = pool();
    await Promise.all([1, 2, 3].map(() => p.query('SELECT pg_sleep(0.02)')));
    const pass = await runMonitorPass({ ...w.app.deps, storage: { ...w.app.deps.storage, monitor: postgresMonitorStore(p, observe) } }, at(400));
    expect(POSTGRES_PARALLEL_PAGES).toBeGreaterThan(1);
    // From the first page on, two pages are claimed before either is written.
    expect(kinds.slice(0, 2)).toEqual(['due', 'due']);
    expect(pass.wentDown).toBe(3500);
    const flips = await w.app.db.flip.findMany({ where: { checkId: { in: ids } }, select: { checkId: true } });
    expect(flips).toHaveLength(3500);
    expect(new Set(flips.map((f) => f.checkId)).size).toBe(3500);
    expect(await w.app.db.notification.count({ where: { checkId: { in: ids } } })).toBe(3500);
  });

  it('leaves a check another transaction holds to that transaction, and takes it on the next pass', async () => {
    const [id] = await dueChecks('held', 1);
    const client = new pg.Client({ connectionString: w.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM "Check" WHERE "id" = $1 FOR NO KEY UPDATE', [id]);
      // Not blocked: the pass skips the held row.
      const first = await runMonitorPass(w.app.deps, at(300));
      expect(await w.app.db.flip.count({ where: { checkId: id } })).toBe(0);
      expect(first.wentDown).toBe(0);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    expect((await runMonitorPass(w.app.deps, at(300))).wentDown).toBe(1);
    expect(await w.app.db.flip.count({ where: { checkId: id } })).toBe(1);
  });
});
