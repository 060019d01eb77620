// Target 2: the monitor. A million checks stored, ten thousand of them going down at the same
// instant; the real server process records each flip, and its /metrics histogram of monitor lag
// (record time minus going-down time) gives the p99. Pass cost is shown to follow the checks
// due, not the checks stored: the mean duration of passes with nothing due, at 1M and at 10k.
// On PostgreSQL the same again with three instances sharing the database (each claims due
// checks the others have not): the lag over all three, and every flip recorded exactly once,
// counted in the database. Each wave's note gives the CPU it cost the servers and, when it runs
// on this machine, PostgreSQL: what the lag is made of on a machine whose cores they share.
import type { Figure } from '../lib/report.ts';
import { quantileFromBuckets, scrape, type Scrape } from '../lib/metrics.ts';
import { queryNumber } from '../lib/query.ts';
import { seedChecks, seedProject } from '../lib/seed.ts';
import { cpuMsBetween, cpuMsOf, cpuMsOfProcessesNamed, startServer, type ServerProcess } from '../lib/server.ts';
import type { BenchContext } from './context.ts';
import { MONITOR_LAG_BUCKETS } from '../../src/metrics/metrics.ts';

const DAY = 86_400_000;
/** How long before a wave its CPU meter starts (the idle passes in between are a few ms). */
const METER_LEAD_MS = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function idlePassMs(url: string, seconds: number): Promise<number> {
  const before = await scrape(url);
  await sleep(seconds * 1000);
  const after = await scrape(url);
  const count = after('gateway_monitor_pass_duration_seconds_count') - before('gateway_monitor_pass_duration_seconds_count');
  const sum = after('gateway_monitor_pass_duration_seconds_sum') - before('gateway_monitor_pass_duration_seconds_sum');
  return count ? (sum / count) * 1000 : NaN;
}

/** The servers' metrics added up, as if one server had recorded everything. */
async function scrapeAll(servers: ServerProcess[]): Promise<Scrape> {
  const scrapes = await Promise.all(servers.map((s) => scrape(s.url)));
  return (name, labels) => scrapes.reduce((sum, s) => sum + s(name, labels), 0);
}

/** Waits until the servers have recorded `due` timeout flips (or 30 s); returns their metrics. */
async function flipsRecorded(servers: ServerProcess[], due: number): Promise<Scrape> {
  let m = await scrapeAll(servers);
  for (let i = 0; i < 300 && m('gateway_flips_recorded_total', { reason: 'timeout' }) < due; i++) {
    await sleep(100);
    m = await scrapeAll(servers);
  }
  return m;
}

function lagFigures(m: Scrape, due: number, label: string): Figure[] {
  const recorded = m('gateway_flips_recorded_total', { reason: 'timeout' });
  const p99 = quantileFromBuckets(m, 'gateway_monitor_lag_seconds', 0.99, MONITOR_LAG_BUCKETS);
  const p50 = quantileFromBuckets(m, 'gateway_monitor_lag_seconds', 0.5, MONITOR_LAG_BUCKETS);
  const mean = m('gateway_monitor_lag_seconds_sum') / Math.max(1, m('gateway_monitor_lag_seconds_count'));
  return [
    {
      suite: 'monitor',
      name: `flip recorded after going-down time, ${due.toLocaleString('en-US')} checks at one instant${label}`,
      value: p99 * 1000,
      unit: 'ms p99 (≤ bucket bound)',
      target: 'p99 < 1 s',
      met: p99 < 1,
      note: `p50 ≤ ${p50 * 1000} ms, mean ${(mean * 1000).toFixed(0)} ms`,
    },
    {
      suite: 'monitor',
      name: `due checks without a recorded flip${label}`,
      value: due - recorded,
      unit: 'checks',
      target: '0',
      met: recorded === due,
      correctness: true,
    },
  ];
}

/**
 * CPU the servers, and PostgreSQL when it runs on this machine, spend from now until the
 * returned function is called: what a wave of timeouts costs, per flip.
 */
async function cpuMeter(servers: ServerProcess[], postgres: boolean) {
  const read = async () => ({
    servers: (await Promise.all(servers.map((s) => cpuMsOf(s.child.pid!)))).reduce((a, b) => a + b, 0),
    database: postgres ? await cpuMsOfProcessesNamed('postgres') : null,
  });
  const before = await read();
  return async (flips: number): Promise<string> => {
    const after = await read();
    const perFlip = (ms: number) => `${Math.round((ms * 1000) / Math.max(1, flips))} µs a flip`;
    const serversMs = after.servers - before.servers;
    let note = `; CPU during the wave: server${servers.length > 1 ? 's' : ''} ${Math.round(serversMs)} ms (${perFlip(serversMs)})`;
    if (before.database !== null && after.database !== null) {
      const databaseMs = cpuMsBetween(before.database, after.database);
      note += `, PostgreSQL ${Math.round(databaseMs)} ms (${perFlip(databaseMs)})`;
    }
    return note;
  };
}

/** Timeout flips in the database for checks named `prefix…`: all of them, and checks flipped more than once. */
async function storedFlips(databaseUrl: string, prefix: string) {
  const where = `f."reason" = 'timeout' AND c."name" LIKE '${prefix}%'`;
  const rows = await queryNumber(databaseUrl, `SELECT COUNT(*) AS n FROM "Flip" f JOIN "Check" c ON c."id" = f."checkId" WHERE ${where}`);
  const checks = await queryNumber(databaseUrl, `SELECT COUNT(DISTINCT f."checkId") AS n FROM "Flip" f JOIN "Check" c ON c."id" = f."checkId" WHERE ${where}`);
  return { rows, twice: rows - checks };
}

/** Stores `count` checks going down at `goesDown`; returns how many ms before it they were stored. */
async function seedDue(databaseUrl: string, projectId: string, count: number, goesDown: number, name?: string): Promise<number> {
  await seedChecks(databaseUrl, projectId, count, () => ({ status: 'up', lastPing: goesDown - 120_000, timeout: 60, grace: 60, alertAfter: goesDown }), name);
  return goesDown - Date.now();
}

export async function monitorSuite(ctx: BenchContext): Promise<Figure[]> {
  const postgres = ctx.db === 'postgres';
  const stored = ctx.smoke ? 20_000 : 1_000_000;
  const due = ctx.smoke ? 500 : 10_000;
  const figures: Figure[] = [];
  // PostgreSQL: a new server's first passes open pool connections and prepare statements, tens
  // of ms each on a busy machine; both idle figures leave out their first second and average
  // over the same span. (SQLite's figures are measured as they always were.)
  const warmUp = () => (postgres ? sleep(1000) : Promise.resolve());
  const idleSeconds = ctx.smoke ? 1 : 3;

  // Baseline: pass cost with few checks stored.
  const smallUrl = await ctx.database('monitor-small');
  const smallProject = await seedProject(smallUrl);
  await seedChecks(smallUrl, smallProject.id, 10_000, () => ({ status: 'up', lastPing: Date.now(), alertAfter: Date.now() + DAY }));
  const small = await startServer({ databaseUrl: smallUrl, env: { MONITOR_INTERVAL_MS: '100' } });
  let smallPassMs: number;
  try {
    await warmUp();
    smallPassMs = await idlePassMs(small.url, idleSeconds);
  } finally {
    await small.stop();
  }

  const databaseUrl = await ctx.database('monitor');
  const project = await seedProject(databaseUrl);
  const seeding = performance.now();
  await seedChecks(databaseUrl, project.id, stored - due, () => ({ status: 'up', lastPing: Date.now(), timeout: 86400, grace: 3600, alertAfter: Date.now() + DAY }));
  const seedSeconds = (performance.now() - seeding) / 1000;
  // All due checks go down at one instant, a few seconds after the server is up. On SQLite they
  // are stored before it starts (as this suite has always done); on PostgreSQL once it is up and
  // its idle passes measured, so that a slow start cannot make them overdue before it runs.
  let goesDown = Date.now() + 6_000;
  if (!postgres) await seedDue(databaseUrl, project.id, due, goesDown);

  const server = await startServer({ databaseUrl, env: { MONITOR_INTERVAL_MS: '100' } });
  try {
    await warmUp();
    const idleMs = await idlePassMs(server.url, postgres ? idleSeconds : 1);
    let seededEarly = '';
    if (postgres) {
      goesDown = Date.now() + (ctx.smoke ? 1_500 : 3_000);
      seededEarly = `; due checks stored ${await seedDue(databaseUrl, project.id, due, goesDown)} ms before their going-down time`;
    }
    // The meter reads every process in /proc: started a moment ahead, it is done before the wave.
    await sleep(Math.max(0, goesDown - METER_LEAD_MS - Date.now()));
    const meter = await cpuMeter([server], postgres);
    await sleep(Math.max(0, goesDown - Date.now()));
    const m = await flipsRecorded([server], due);
    const cpu = await meter(due);
    figures.push({
      suite: 'monitor',
      name: `idle pass, ${stored.toLocaleString('en-US')} checks stored`,
      value: idleMs,
      unit: 'ms',
      ratioTo: { name: 'idle pass with 10,000 stored', value: smallPassMs },
      target: 'O(checks due): ≈ 1× the 10k-check pass',
      met: idleMs < Math.max(2 * smallPassMs, smallPassMs + 1),
      note: `seeded in ${seedSeconds.toFixed(1)} s; cold server start ${Math.round(server.startupMs)} ms`,
    });
    const [lag, missing] = lagFigures(m, due, postgres ? ', one instance' : '');
    figures.push({ ...lag!, note: lag!.note + seededEarly + cpu }, missing!);
  } finally {
    await server.stop();
  }
  if (postgres) figures.push(...(await threeInstances(ctx, databaseUrl, project.id, due)));
  return figures;
}

/** Three instances on the 1M-check database, another `due` checks going down at one instant. */
async function threeInstances(ctx: BenchContext, databaseUrl: string, projectId: string, due: number): Promise<Figure[]> {
  const before = await storedFlips(databaseUrl, 'check ');
  // One after another: the first start may bundle the server, which the others then load.
  const servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < 3; i++) servers.push(await startServer({ databaseUrl, env: { MONITOR_INTERVAL_MS: '100' } }));
    const goesDown = Date.now() + (ctx.smoke ? 1_500 : 3_000);
    const early = await seedDue(databaseUrl, projectId, due, goesDown, 'three ');
    await sleep(Math.max(0, goesDown - METER_LEAD_MS - Date.now()));
    const meter = await cpuMeter(servers, true);
    await sleep(Math.max(0, goesDown - Date.now()));
    const m = await flipsRecorded(servers, due);
    const cpu = await meter(due);
    // Anything recorded twice would be written in the next moments.
    await sleep(ctx.smoke ? 200 : 1000);
    const perInstance = await Promise.all(servers.map(async (s) => (await scrape(s.url))('gateway_flips_recorded_total', { reason: 'timeout' })));
    const flips = await storedFlips(databaseUrl, 'three ');
    const unchanged = await storedFlips(databaseUrl, 'check ');
    const [lag, missing] = lagFigures(m, due, ', three instances');
    return [
      { ...lag!, note: `${lag!.note}; flips recorded by each instance: ${perInstance.join(', ')}; due checks stored ${early} ms before their going-down time${cpu}` },
      { ...missing!, value: due - flips.rows + flips.twice, met: flips.rows - flips.twice === due && missing!.met, note: `${flips.rows.toLocaleString('en-US')} timeout flips stored for ${due.toLocaleString('en-US')} due checks` },
      {
        suite: 'monitor',
        name: 'checks flipped down more than once, three instances',
        value: flips.twice + (unchanged.rows - before.rows),
        unit: 'checks',
        target: '0',
        met: flips.twice === 0 && unchanged.rows === before.rows,
        correctness: true,
        note: 'counted in the Flip table',
      },
    ];
  } finally {
    for (const s of servers) await s.stop();
  }
}
