// Target 3: GraphQL query planning. A dashboard query (100 checks, each with its last 10 pings
// and their durations, and its flips) in at most 4 SQL statements, and its throughput against a
// hand-written REST handler serving the same data (bench/lib/baseline-routes.ts), both served
// by the same server process on loopback and measured side by side.
import { load, type LoadResult } from '../lib/load.ts';
import { scrape } from '../lib/metrics.ts';
import type { Figure } from '../lib/report.ts';
import { seedChecks, seedProject } from '../lib/seed.ts';
import { cpuMsOf, startServer, type ServerProcess } from '../lib/server.ts';
import type { BenchContext } from './context.ts';

// Page sizes go in variables: graphql-armor multiplies a selection's cost by a literal `first`,
// and `checks(first: 100) … pings(first: 10)` written literally exceeds the configured limit.
export const DASHBOARD = `query Dashboard($checks: Int!, $pings: Int!) { project { checks(first: $checks) { nodes {
  name status lastPing
  pings(first: $pings) { n type date duration }
  flips { timestamp newStatus oldStatus }
} } } }`;

interface Dashboard {
  name: string;
  status: string;
  pings: { n: number; duration: number | null }[];
  flips: unknown[];
}

/** The benchmark's server on `databaseUrl`, with its checks and their pings stored. */
async function dashboardServer(ctx: BenchContext, databaseUrl: string) {
  const project = await seedProject(databaseUrl);
  const codes = await seedChecks(databaseUrl, project.id, ctx.smoke ? 20 : 100, () => ({ timeout: 86400, grace: 3600 }));
  // NODE_ENV as `npm start` sets it (scripts/start.mjs): graphql-js skips its development checks.
  const server = await startServer({ databaseUrl, entry: 'bench/lib/baseline-server.ts', env: { MONITOR: 'off', NOTIFIER: 'off', NODE_ENV: 'production' } });
  try {
    await sendPings(server, codes);
  } catch (err) {
    await server.stop();
    throw err;
  }
  const graphql = {
    paths: ['/graphql'],
    method: 'POST',
    body: JSON.stringify({ query: DASHBOARD, variables: { checks: 100, pings: 10 } }),
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': project.api_key },
  };
  return { project, codes, server, graphql };
}

/** PostgreSQL runs: the dashboard query's statements on SQLite, the same data, in the same run. */
async function sqliteStatements(ctx: BenchContext): Promise<number> {
  const { server, graphql } = await dashboardServer(ctx, `file:${ctx.file('graphql-reference.db')}`);
  try {
    return await statementsOf(server, graphql);
  } finally {
    await server.stop();
  }
}

export async function graphqlSuite(ctx: BenchContext): Promise<Figure[]> {
  const onSqlite = ctx.db === 'postgres' ? await sqliteStatements(ctx) : undefined;
  const { project, codes, server, graphql } = await dashboardServer(ctx, await ctx.database('graphql'));
  const figures: Figure[] = [];
  try {
    const rest = (path: string) => ({ paths: [path], headers: { 'X-Api-Key': project.api_key } });
    const nested = rest('/bench/baseline');
    const windowed = rest('/bench/baseline-window');

    // Same data, checked once before anything is measured.
    const [fromGraphql, fromRest, fromWindow] = await Promise.all([
      request(server, graphql).then((r) => (r as { data: { project: { checks: { nodes: Dashboard[] } } } }).data.project.checks.nodes),
      request(server, nested).then((r) => (r as { checks: Dashboard[] }).checks),
      request(server, windowed).then((r) => (r as { checks: Dashboard[] }).checks),
    ]);
    sameData('GraphQL', fromGraphql, 'hand-written REST', fromRest, codes.length);
    sameData('hand-written REST', fromRest, 'hand-written REST on the window query', fromWindow, codes.length);
    const pingsListed = fromGraphql.reduce((s, c) => s + c.pings.length, 0);
    const flipsListed = fromGraphql.reduce((s, c) => s + c.flips.length, 0);
    const shape = `${codes.length} checks, ${pingsListed} pings, ${flipsListed} flips`;

    const graphqlStatements = await statementsOf(server, graphql);
    const nestedStatements = await statementsOf(server, nested);
    const windowStatements = await statementsOf(server, windowed);
    figures.push({
      suite: 'graphql',
      name: 'SQL statements of the dashboard query (GraphQL)',
      value: graphqlStatements,
      unit: 'statements',
      target: '≤ 4',
      met: graphqlStatements <= 4,
      note: shape,
    });
    if (onSqlite !== undefined) {
      figures.push({
        suite: 'graphql',
        name: 'SQL statements of the dashboard query, PostgreSQL against SQLite',
        value: graphqlStatements,
        unit: 'statements',
        ratioTo: { name: 'SQLite', value: onSqlite },
        target: 'the same as on SQLite',
        met: graphqlStatements === onSqlite,
        note: `${onSqlite} on SQLite with the same data, measured in this run`,
      });
    }
    figures.push({
      suite: 'graphql',
      name: 'SQL statements, hand-written REST (Prisma nested findMany)',
      value: nestedStatements,
      unit: 'statements',
      note: 'for information: key, checks, project, pings, flips, then one look-back per run cut off by the window',
    });
    figures.push({ suite: 'graphql', name: 'SQL statements, hand-written REST (window query)', value: windowStatements, unit: 'statements', note: 'for information' });

    const base = { url: server.url, connections: ctx.smoke ? 4 : 8, seconds: ctx.smoke ? 1 : 10 };
    if (!ctx.smoke) {
      // Warm both paths up (JIT, Prisma's query cache) before either is measured.
      for (const o of [nested, graphql, windowed]) await load({ ...base, ...o, seconds: 2 });
    }
    // Each run also gives the server's CPU time per request: on a machine other work shares,
    // throughput moves with that work, CPU per request much less.
    const measured = async (o: typeof nested, name: string) => {
      const cpuBefore = await cpuMsOf(server.child.pid!);
      const result = checked(await load({ ...base, ...o }), name);
      return { ...result, cpuMs: ((await cpuMsOf(server.child.pid!)) - cpuBefore) / result.requests };
    };
    const restLoad = await measured(nested, 'hand-written REST');
    const graphqlLoad = await measured(graphql, 'GraphQL');
    const windowLoad = await measured(windowed, 'hand-written REST on the window query');
    const restRef = { name: 'hand-written REST', value: restLoad.perSecond };
    figures.push({
      suite: 'graphql',
      name: 'hand-written REST (Prisma nested findMany)',
      value: restLoad.perSecond,
      unit: 'req/s',
      note: latency(restLoad),
    });
    figures.push({
      suite: 'graphql',
      name: 'GraphQL dashboard query',
      value: graphqlLoad.perSecond,
      unit: 'req/s',
      ratioTo: restRef,
      target: '≥ 0.8× hand-written REST',
      met: graphqlLoad.perSecond >= 0.8 * restLoad.perSecond,
      note: `${latency(graphqlLoad)}; ${(graphqlLoad.perSecond / windowLoad.perSecond).toFixed(2)}× REST on the same plan`,
    });
    figures.push({
      suite: 'graphql',
      name: 'GraphQL dashboard query against REST on the same plan',
      value: graphqlLoad.perSecond,
      unit: 'req/s',
      ratioTo: { name: 'REST on the same plan', value: windowLoad.perSecond },
      target: '≥ 1.0× REST on the same plan (issue #14)',
      met: graphqlLoad.perSecond >= windowLoad.perSecond,
      note: `${windowLoad.perSecond.toFixed(1)} req/s on the same 4 statements without GraphQL`,
    });
    figures.push({
      suite: 'graphql',
      name: 'server CPU per dashboard request, GraphQL',
      value: graphqlLoad.cpuMs,
      unit: 'ms',
      ratioTo: { name: 'REST on the same plan', value: windowLoad.cpuMs },
      note: `REST on the same plan ${windowLoad.cpuMs.toFixed(1)} ms, Prisma nested findMany ${restLoad.cpuMs.toFixed(1)} ms (user + system over each run ÷ requests)`,
    });
    figures.push({
      suite: 'graphql',
      name: 'hand-written REST on the window query (same plan as GraphQL)',
      value: windowLoad.perSecond,
      unit: 'req/s',
      ratioTo: restRef,
      note: `for information; ${latency(windowLoad)}`,
    });
  } finally {
    await server.stop();
  }
  return figures;
}

/**
 * About 15 pings per check over HTTP, as cron jobs send them: a start, then a success (now and
 * then a failure); every fourth check tags its runs with a run id. Checks get 14, 15 or 16 pings,
 * so a third of the listed windows of 10 begin with a success whose start is just outside.
 */
export async function sendPings(server: Pick<ServerProcess, 'url'>, codes: string[]) {
  const rounds = (i: number) => 14 + (i % 3);
  for (let round = 0; round < 16; round++) {
    await Promise.all(
      codes.map(async (code, i) => {
        if (round >= rounds(i)) return;
        const kind = round % 2 === 0 ? '/start' : round % 6 === 5 && i % 5 === 0 ? '/fail' : '';
        const rid = i % 4 === 0 ? `?rid=00000000-0000-4000-8000-${String(i * 100 + (round >> 1)).padStart(12, '0')}` : '';
        const res = await fetch(`${server.url}/ping/${code}${kind}${rid}`);
        await res.text();
        if (res.status !== 200) throw new Error(`ping ${code}${kind}${rid} answered ${res.status}`);
      }),
    );
  }
}

async function request(server: ServerProcess, o: { paths: string[]; method?: string; body?: string; headers: Record<string, string> }) {
  const res = await fetch(server.url + o.paths[0], { method: o.method ?? 'GET', body: o.body, headers: o.headers });
  const body = (await res.json()) as { errors?: unknown };
  if (res.status !== 200 || body.errors) throw new Error(`${o.paths[0]} answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return body;
}

/**
 * The SQL statements one request sends, from the server's own counter (/metrics). A scrape
 * itself reads the database (the pending-notifications gauges): two scrapes in a row give its
 * own cost, which is taken off.
 */
async function statementsOf(server: ServerProcess, o: Parameters<typeof request>[1]) {
  const first = (await scrape(server.url))('gateway_sql_statements_total');
  const before = (await scrape(server.url))('gateway_sql_statements_total');
  const scrapeCost = before - first;
  await request(server, o);
  return (await scrape(server.url))('gateway_sql_statements_total') - before - scrapeCost;
}

/** Throws unless both lists show the same checks, ping numbers, durations and flip counts. */
function sameData(aName: string, a: Dashboard[], bName: string, b: Dashboard[], checks: number) {
  const digest = (list: Dashboard[]) =>
    list.map((c) => ({ name: c.name, status: c.status.toLowerCase(), pings: c.pings.map((p) => [p.n, p.duration]), flips: c.flips.length }));
  const [da, db] = [JSON.stringify(digest(a)), JSON.stringify(digest(b))];
  if (da !== db) throw new Error(`${aName} and ${bName} disagree:\n${da.slice(0, 800)}\n${db.slice(0, 800)}`);
  if (a.length !== checks || a.some((c) => c.pings.length !== 10) || !a.some((c) => c.pings.some((p) => p.duration !== null))) {
    throw new Error(`unexpected dashboard: ${a.length} checks, ping counts ${a.map((c) => c.pings.length).join(',')}`);
  }
}

function checked(result: LoadResult, name: string): LoadResult {
  if (result.requests === 0) throw new Error(`${name}: no request completed`);
  return result;
}

// Failures are non-2xx answers and socket errors (wrk waits up to 10 s for an answer).
const latency = (r: LoadResult) => `p50 ${r.latencyMs.p50.toFixed(1)} ms, p99 ${r.latencyMs.p99.toFixed(1)} ms${r.failures ? `, ${r.failures} failed` : ''}`;
