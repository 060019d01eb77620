// Target 1: ping ingest. The real server process on loopback, every ping committed before its
// 200; compared with the same server's no-op route (/healthz) in the same run. On PostgreSQL
// also two instances on one database, each loaded by its own wrk at the same time.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { load, type LoadResult } from '../lib/load.ts';
import { queryNumber } from '../lib/query.ts';
import type { Figure } from '../lib/report.ts';
import { seedChecks, seedProject } from '../lib/seed.ts';
import pg from 'pg';
import { providerOf } from '../../src/db/provider.ts';
import { cpuMsBetween, cpuMsOf, root, startServer, type ServerProcess } from '../lib/server.ts';
import type { BenchContext } from './context.ts';

const run = promisify(execFile);

const STORED_SQL = 'SELECT COALESCE(SUM("nPings"), 0) AS n FROM "Check"';

/**
 * A load, with the server's CPU time per request answered (user + system, ticks of 10 ms): on a
 * machine shared with other work the requests per second move with the neighbours' load, the
 * CPU a request costs the server much less.
 */
async function loadWithCpu(server: ServerProcess, databaseUrl: string, options: Parameters<typeof load>[0]): Promise<LoadResult & { cpuUs: number; databaseCpuUs: number | null }> {
  const before = await cpuMsOf(server.child.pid!);
  const databaseBefore = await backendsCpu(databaseUrl);
  const result = await load(options);
  const cpuMs = (await cpuMsOf(server.child.pid!)) - before;
  const databaseAfter = databaseBefore && (await backendsCpu(databaseUrl));
  const perRequest = (ms: number) => (ms * 1000) / Math.max(1, result.requests);
  return { ...result, cpuUs: perRequest(cpuMs), databaseCpuUs: databaseBefore && databaseAfter ? perRequest(cpuMsBetween(databaseBefore, databaseAfter)) : null };
}

/**
 * Pings stored once the server is quiet: requests wrk gave up on at its deadline may still
 * commit a moment later (on a busy machine, more than a moment), and would be counted as the
 * next measurement's.
 */
async function storedWhenQuiet(databaseUrl: string): Promise<number> {
  let last = await queryNumber(databaseUrl, STORED_SQL);
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const now = await queryNumber(databaseUrl, STORED_SQL);
    if (now === last) return now;
    last = now;
  }
  return last;
}

export async function pingSuite(ctx: BenchContext): Promise<Figure[]> {
  const postgres = ctx.db === 'postgres';
  const databaseUrl = await ctx.database('ping');
  const project = await seedProject(databaseUrl);
  const checks = ctx.smoke ? 200 : 10_000;
  const codes = await seedChecks(databaseUrl, project.id, checks, () => ({ timeout: 86400, grace: 3600 }));
  const server = await startServer({ databaseUrl, env: { MONITOR: 'off' } });
  const stored = () => queryNumber(databaseUrl, STORED_SQL);
  const figures: Figure[] = [];
  const paths = codes.map((c) => `/ping/${c}`);
  try {
    const base = { url: server.url, connections: ctx.smoke ? 16 : 128, seconds: ctx.smoke ? 1 : 10 };
    const noop = await loadWithCpu(server, databaseUrl, { ...base, paths: ['/healthz'] });
    const noopRef = { name: 'no-op route', value: noop.perSecond };
    figures.push({ suite: 'ping', name: 'no-op route /healthz (ceiling)', value: noop.perSecond, unit: 'req/s', note: `p99 ${noop.latencyMs.p99.toFixed(1)} ms` });
    const noopCpu = { name: 'no-op request', value: noop.cpuUs };

    const before = await stored();
    const updatesBefore = postgres ? await checkUpdates(databaseUrl) : null;
    const spread = await loadWithCpu(server, databaseUrl, { ...base, paths });
    await new Promise((r) => setTimeout(r, 200)); // requests wrk gave up on at its deadline may still commit
    const storedSpread = (await stored()) - before;
    const acknowledged = spread.requests - spread.failures;
    figures.push({
      suite: 'ping',
      name: `pings spread over ${checks.toLocaleString('en-US')} checks${postgres ? ', one instance' : ''}`,
      value: spread.perSecond,
      unit: 'pings/s',
      ratioTo: noopRef,
      target: postgres ? '≥ 5,000/s' : '≥ 10,000/s and ≥ 0.5× no-op',
      met: postgres ? spread.perSecond >= 5_000 : spread.perSecond >= 10_000 && spread.perSecond >= 0.5 * noop.perSecond,
      note: `p50 ${spread.latencyMs.p50.toFixed(1)} ms, p99 ${spread.latencyMs.p99.toFixed(1)} ms; ${acknowledged.toLocaleString('en-US')} acknowledged, ${storedSpread.toLocaleString('en-US')} stored, ${spread.failures} failed`,
    });
    figures.push(notStored('acknowledged pings not stored', acknowledged, storedSpread));
    if (updatesBefore) figures.push(await heapOnly(databaseUrl, updatesBefore));
    figures.push({
      suite: 'ping',
      name: 'server CPU per ping (spread)',
      value: spread.cpuUs,
      unit: 'µs',
      ratioTo: noopCpu,
      note: `the no-op route's ${noop.cpuUs.toFixed(1)} µs a request${spread.databaseCpuUs === null ? '' : `; PostgreSQL's backends ${spread.databaseCpuUs.toFixed(1)} µs a ping`}; for information: steadier than the throughput ratio on a shared machine`,
    });

    if (postgres) figures.push(...(await twoInstances(ctx, server, databaseUrl, paths, spread.perSecond)));

    const one = await load({ ...base, paths: [`/ping/${codes[0]}`] });
    figures.push({
      suite: 'ping',
      name: 'pings to one check (all in one row)',
      value: one.perSecond,
      unit: 'pings/s',
      ratioTo: noopRef,
      note: `p99 ${one.latencyMs.p99.toFixed(1)} ms, ${one.failures} failed`,
    });

    figures.push(await burst(ctx, server, databaseUrl, codes));
  } finally {
    await server.stop();
  }
  return figures;
}

/**
 * PostgreSQL: the CPU time so far of the backends connected to this suite's database (not the
 * server's others: the machine may be running other work on the same PostgreSQL), by pid;
 * null on SQLite, or where /proc does not show them (a server on another machine).
 */
async function backendsCpu(databaseUrl: string): Promise<Map<number, number> | null> {
  if (providerOf(databaseUrl) !== 'postgresql') return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let pids: number[];
  try {
    pids = (await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      cpu.set(pid, await cpuMsOf(pid));
    } catch {
      return null;
    }
  }
  return cpu;
}

/** The check table's row updates so far, and how many of them were heap-only (PostgreSQL's statistics). */
async function checkUpdates(databaseUrl: string): Promise<{ all: number; hot: number }> {
  const stat = (column: string) => queryNumber(databaseUrl, `SELECT COALESCE(SUM("${column}"), 0) AS n FROM pg_stat_user_tables WHERE relname = 'Check'`);
  return { all: await stat('n_tup_upd'), hot: await stat('n_tup_hot_upd') };
}

/**
 * The share of the spread run's check updates that were heap-only (HOT): such an update writes
 * no index entry, where any other writes one in each of the check table's indexes.
 */
async function heapOnly(databaseUrl: string, before: { all: number; hot: number }): Promise<Figure> {
  // The server's backends report their counts to the statistics within a second or so of going idle.
  await new Promise((r) => setTimeout(r, 1500));
  const after = await checkUpdates(databaseUrl);
  const all = after.all - before.all;
  const hot = after.hot - before.hot;
  return {
    suite: 'ping',
    name: 'check-row updates heap-only (HOT), spread run',
    value: all ? Math.round((1000 * hot) / all) / 10 : 0,
    unit: '%',
    note: `${hot.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} updates (pg_stat_user_tables); for information`,
  };
}

const notStored = (name: string, acknowledged: number, storedCount: number): Figure => ({
  suite: 'ping',
  name,
  value: Math.max(0, acknowledged - storedCount),
  unit: 'pings',
  target: '0',
  met: acknowledged <= storedCount,
  correctness: true,
});

/** A second instance on the same database; both loaded at once, half the connections each. */
async function twoInstances(ctx: BenchContext, a: ServerProcess, databaseUrl: string, paths: string[], oneInstance: number): Promise<Figure[]> {
  const b = await startServer({ databaseUrl, env: { MONITOR: 'off' } });
  try {
    // B's first ping opens its pool's first connection: not part of the figure.
    const warm = await fetch(`${b.url}${paths[0]}`);
    await warm.text();
    if (warm.status !== 200) throw new Error(`instance B answered a ping with ${warm.status}`);
    const before = await storedWhenQuiet(databaseUrl);
    const connections = ctx.smoke ? 8 : 64;
    const seconds = ctx.smoke ? 1 : 10;
    const loads: LoadResult[] = await Promise.all([a, b].map((s) => load({ url: s.url, paths, connections, seconds })));
    const storedBoth = (await storedWhenQuiet(databaseUrl)) - before;
    const perSecond = loads.reduce((s, l) => s + l.perSecond, 0);
    const acknowledged = loads.reduce((s, l) => s + l.requests - l.failures, 0);
    const failures = loads.reduce((s, l) => s + l.failures, 0);
    return [
      {
        suite: 'ping',
        name: `pings spread over ${paths.length.toLocaleString('en-US')} checks, two instances on one database`,
        value: perSecond,
        unit: 'pings/s',
        ratioTo: { name: 'one instance', value: oneInstance },
        note: `${loads.map((l, i) => `instance ${'AB'[i]} ${Math.round(l.perSecond).toLocaleString('en-US')}/s, p99 ${l.latencyMs.p99.toFixed(1)} ms`).join('; ')}; ${connections} connections each; ${acknowledged.toLocaleString('en-US')} acknowledged, ${storedBoth.toLocaleString('en-US')} stored, ${failures} failed`,
      },
      notStored('acknowledged pings not stored, two instances', acknowledged, storedBoth),
    ];
  } finally {
    await b.stop();
  }
}

/**
 * `total` pings written at once over many connections, every answer awaited; then the database
 * is asked how many were stored: the checks' ping counters, and the Ping rows newer than the
 * burst (none of them is old enough to be pruned).
 */
async function burst(ctx: BenchContext, server: ServerProcess, databaseUrl: string, codes: string[]): Promise<Figure> {
  const total = ctx.smoke ? 2_000 : 50_000;
  const beforeBurst = await storedWhenQuiet(databaseUrl);
  const lastId = await queryNumber(databaseUrl, 'SELECT COALESCE(MAX("id"), 0) AS n FROM "Ping"');
  const pathsFile = ctx.file('burst-paths.txt');
  writeFileSync(pathsFile, codes.map((c) => `/ping/${c}\n`).join(''));
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/burst.ts', '127.0.0.1', String(server.port), pathsFile, String(total), String(ctx.smoke ? 50 : 1000)],
    { cwd: root, maxBuffer: 1 << 24 },
  );
  const result = JSON.parse(stdout) as { sent: number; ok: number; failed: number; sendMs: number; answerMs: number };
  const storedBurst = (await queryNumber(databaseUrl, STORED_SQL)) - beforeBurst;
  const rows = await queryNumber(databaseUrl, `SELECT COUNT(*) AS n FROM "Ping" WHERE "id" > ${lastId}`);
  return {
    suite: 'ping',
    name: `burst of ${total.toLocaleString('en-US')} pings (sent in ${Math.round(result.sendMs)} ms)`,
    value: result.answerMs / 1000,
    unit: 's to answer all',
    target: 'all answered 200 and stored',
    met: result.ok === total && storedBurst === total && rows === total,
    correctness: true,
    note: `${result.ok.toLocaleString('en-US')} answered 200, ${result.failed} not, ${storedBurst.toLocaleString('en-US')} stored (${rows.toLocaleString('en-US')} Ping rows)`,
  };
}
