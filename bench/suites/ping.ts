// Target 1: ping ingest. The real server process on loopback, every ping committed before its
// 200; compared with the same server's no-op route (/healthz) in the same run.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { load } from '../lib/load.ts';
import type { Figure } from '../lib/report.ts';
import { seedChecks, seedProject } from '../lib/seed.ts';
import { root, startServer } from '../lib/server.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import type { BenchContext } from './context.ts';

const run = promisify(execFile);

export async function pingSuite(ctx: BenchContext): Promise<Figure[]> {
  const databaseUrl = ctx.databaseUrl('ping');
  const project = await seedProject(databaseUrl);
  const checks = ctx.smoke ? 200 : 10_000;
  const codes = seedChecks(databaseUrl, project.id, checks, () => ({ timeout: 86400, grace: 3600 }));
  const server = await startServer({ databaseUrl, env: { MONITOR: 'off' } });
  const stored = () => {
    const db = new Database(sqliteFilePath(databaseUrl), { readonly: true });
    try {
      return (db.prepare('SELECT COALESCE(SUM("nPings"), 0) AS n FROM "Check"').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const figures: Figure[] = [];
  try {
    const base = { url: server.url, connections: ctx.smoke ? 16 : 128, seconds: ctx.smoke ? 1 : 10 };
    const noop = await load({ ...base, paths: ['/healthz'] });
    const noopRef = { name: 'no-op route', value: noop.perSecond };
    figures.push({ suite: 'ping', name: 'no-op route /healthz (ceiling)', value: noop.perSecond, unit: 'req/s', note: `p99 ${noop.latencyMs.p99.toFixed(1)} ms` });

    const before = stored();
    const spread = await load({ ...base, paths: codes.map((c) => `/ping/${c}`) });
    await new Promise((r) => setTimeout(r, 200)); // requests wrk gave up on at its deadline may still commit
    const storedSpread = stored() - before;
    const acknowledged = spread.requests - spread.failures;
    figures.push({
      suite: 'ping',
      name: `pings spread over ${checks.toLocaleString('en-US')} checks`,
      value: spread.perSecond,
      unit: 'pings/s',
      ratioTo: noopRef,
      target: '≥ 10,000/s and ≥ 0.5× no-op',
      met: spread.perSecond >= 10_000 && spread.perSecond >= 0.5 * noop.perSecond,
      note: `p50 ${spread.latencyMs.p50.toFixed(1)} ms, p99 ${spread.latencyMs.p99.toFixed(1)} ms; ${acknowledged.toLocaleString('en-US')} acknowledged, ${storedSpread.toLocaleString('en-US')} stored, ${spread.failures} failed`,
    });
    figures.push({
      suite: 'ping',
      name: 'acknowledged pings not stored',
      value: Math.max(0, acknowledged - storedSpread),
      unit: 'pings',
      target: '0',
      met: acknowledged <= storedSpread,
      correctness: true,
    });

    const one = await load({ ...base, paths: [`/ping/${codes[0]}`] });
    figures.push({
      suite: 'ping',
      name: 'pings to one check (all in one row)',
      value: one.perSecond,
      unit: 'pings/s',
      ratioTo: noopRef,
      note: `p99 ${one.latencyMs.p99.toFixed(1)} ms, ${one.failures} failed`,
    });

    const total = ctx.smoke ? 2_000 : 50_000;
    const beforeBurst = stored();
    const pathsFile = ctx.file('burst-paths.txt');
    writeFileSync(pathsFile, codes.map((c) => `/ping/${c}\n`).join(''));
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'bench/lib/burst.ts', '127.0.0.1', String(server.port), pathsFile, String(total), String(ctx.smoke ? 50 : 1000)],
      { cwd: root, maxBuffer: 1 << 24 },
    );
    const burst = JSON.parse(stdout) as { sent: number; ok: number; failed: number; sendMs: number; answerMs: number };
    const storedBurst = stored() - beforeBurst;
    figures.push({
      suite: 'ping',
      name: `burst of ${total.toLocaleString('en-US')} pings (sent in ${Math.round(burst.sendMs)} ms)`,
      value: burst.answerMs / 1000,
      unit: 's to answer all',
      target: 'all answered 200 and stored',
      met: burst.ok === total && storedBurst === total,
      correctness: true,
      note: `${burst.ok.toLocaleString('en-US')} answered 200, ${burst.failed} not, ${storedBurst.toLocaleString('en-US')} stored`,
    });
  } finally {
    await server.stop();
  }
  return figures;
}
