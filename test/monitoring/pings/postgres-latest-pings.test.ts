// latestPings in PostgreSQL's dialect (the TEST_DB=postgres pass): the dashboard's checks with
// their newest pings, durations and flips in at most 4 statements, and each check's window read
// off the (checkId, n) index. The SQLite counterparts are in test/graphql/batching.test.ts.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createProject, setPingLogLimit } from '../../../src/monitoring/projects/service.ts';
import { T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { gql } from '../../helpers/gql.ts';
import { postgresUnderTest } from '../../helpers/postgres.ts';

const url = postgresUnderTest();

const DASHBOARD = `query Dashboard { project { checks(first: 100) { nodes {
  name status lastPing
  pings(first: 10) { n type date duration }
  flips { timestamp newStatus oldStatus }
} } } }`;

/** Ping `round` (n = round + 1) of the pattern start, success, fail, start, success, fail… */
const kindOf = (round: number) => (['start', 'success', 'fail'] as const)[round % 3]!;
const at = (base: Date, round: number) => new Date(base.getTime() + (round + 1) * 1000);

describe.skipIf(!url)(`latest pings on PostgreSQL${url ? '' : ' (skipped: TEST_DB=postgres not set)'}`, () => {
  // Statement counts cover the query's plan only: the rate limiter's once-a-minute
  // credential check (src/http/limits.ts) is not part of it.
  const w = useWorld({ RATE_LIMITS: 'off' });

  async function counted(query: string, key: string) {
    const sent: string[] = [];
    const stop = w.app.onStatement((sql) => sent.push(sql));
    try {
      const r = await gql(w, query, {}, key);
      expect(r.errors).toBeUndefined();
      return { data: r.data, sent };
    } finally {
      stop();
    }
  }

  it('loads 100 checks with their last 10 pings, durations and flips in at most 4 statements', async () => {
    const carol = await createProject(w.app.db, { name: 'Carol' });
    const base = new Date(T0.getTime() + 86_400_000);
    const checks: { code: string; pings: number }[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await w.api('POST', '/api/v3/checks/', { key: carol.api_key, body: { name: `c${i}` } });
      checks.push({ code: res.json.uuid, pings: 12 + (i % 3) });
    }
    for (let round = 0; round < 14; round++) {
      w.clock.set(at(base, round));
      const path = { start: '/start', success: '', fail: '/fail' }[kindOf(round)];
      await Promise.all(checks.filter((c) => round < c.pings).map((c) => w.ping(`/ping/${c.code}${path}`)));
    }

    const { data, sent } = await counted(DASHBOARD, carol.api_key);
    expect(sent.length).toBeLessThanOrEqual(4);
    const nodes = data.project.checks.nodes;
    expect(nodes).toHaveLength(100);
    nodes.forEach((node: any, i: number) => {
      const rounds = [...Array(checks[i]!.pings).keys()];
      const lastOutcome = rounds.filter((r) => kindOf(r) !== 'start').pop()!;
      // Newest first; the oldest listed success still pairs with its start just outside the window.
      const pings = rounds.slice(-10).reverse().map((r) => ({
        n: r + 1, type: kindOf(r), date: at(base, r).toISOString(), duration: kindOf(r) === 'success' ? 1 : null,
      }));
      const flips = rounds.filter((r) => kindOf(r) !== 'start').reverse().map((r) => ({
        timestamp: at(base, r).toISOString(),
        newStatus: kindOf(r) === 'success' ? 'up' : 'down',
        oldStatus: r === 1 ? 'new' : kindOf(r) === 'success' ? 'down' : 'up',
      }));
      expect(node).toEqual({ name: `c${i}`, status: kindOf(lastOutcome) === 'success' ? 'UP' : 'DOWN', lastPing: at(base, lastOutcome).toISOString(), pings, flips });
    });
  });

  it('reads a bounded window of a check with 500 pings off the (checkId, n) index', async () => {
    const dave = await createProject(w.app.db, { name: 'Dave' });
    await setPingLogLimit(w.app.db, dave.id, 1000);
    const res = await w.api('POST', '/api/v3/checks/', { key: dave.api_key, body: { name: 'busy' } });
    for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 50 }, () => w.ping(`/ping/${res.json.uuid}`)));
    const { data, sent } = await counted(DASHBOARD, dave.api_key);
    expect(data.project.checks.nodes[0].pings.map((p: { n: number }) => p.n)).toEqual([500, 499, 498, 497, 496, 495, 494, 493, 492, 491]);
    const window = sent.find((sql) => sql.includes('"Ping" p'))!;
    expect(window).toBeDefined();
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code: res.json.uuid } });
    const client = new pg.Client({ connectionString: w.databaseUrl });
    await client.connect();
    try {
      await client.query('ANALYZE');
      // Parameters in the template's order: first, the project, the check, the look-back limit twice.
      await client.query(`PREPARE "window" AS ${window}`);
      const plan = (await client.query(`EXPLAIN EXECUTE "window"(10, '${dave.id}', ${check.id}, 10, 10)`)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      // A range search on the index for the window (plain or bitmap), never every ping of the check.
      expect(plan).toMatch(/(Index (Only )?Scan using "Ping_checkId_n_key" on "Ping" p|Bitmap Index Scan on "Ping_checkId_n_key")[^\n]*\n\s*Index Cond: \(\("checkId" = \d+\) AND \(n > /);
      expect(plan).not.toMatch(/Seq Scan on "Ping"/);
    } finally {
      await client.end();
    }
  });
});
