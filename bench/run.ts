// `npm run bench`: ping throughput of the real server (SQLite, every ping committed before
// it is acknowledged) against a no-op node:http server measured in the same run.
// Prints figures and ratios; docs/performance.md records them.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createProject } from '../src/monitoring/projects/service.ts';
import { createCheck } from '../src/monitoring/checks/service.ts';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const CHECKS = 100;

async function load(base: string, paths: string[], method = 'GET') {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/load.ts', base, paths.join(','), String(CONCURRENCY), String(SECONDS), method]);
  const r = JSON.parse(stdout) as { requests: number; errors: number; seconds: number };
  return { ...r, perSecond: r.requests / r.seconds };
}

const noop = http.createServer((_req, res) => res.end('OK'));
await new Promise<void>((r) => noop.listen(0, '127.0.0.1', r));
const ceiling = await load(`http://127.0.0.1:${(noop.address() as AddressInfo).port}`, ['/']);
noop.close();

const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
const app = await buildApp(loadConfig({ DATABASE_URL: `file:${dir}/bench.db`, LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }) });
const port = await app.start(0, '127.0.0.1');
const project = await createProject(app.db, { name: 'bench' });
const access = { projectId: project.id, readOnly: false };
const codes: string[] = [];
for (let i = 0; i < CHECKS; i++) codes.push((await createCheck(app.deps, access, { name: `c${i}`, timeout: 60 })).check.code);

const spread = await load(`http://127.0.0.1:${port}`, codes.map((c) => `/ping/${c}`));
const stored = await app.db.ping.count();
const oneCheck = await load(`http://127.0.0.1:${port}`, [`/ping/${codes[0]}`]);
await app.stop();
rmSync(dir, { recursive: true, force: true });

const row = (name: string, r: { perSecond: number; errors: number }) =>
  `| ${name} | ${Math.round(r.perSecond)} | ${((r.perSecond / ceiling.perSecond) * 100).toFixed(1)}% | ${r.errors} |`;
console.log(`ping throughput: ${CONCURRENCY} connections, ${SECONDS} s each, node ${process.version}, ${os.cpus().length} cores\n`);
console.log('| load | requests/s | share of no-op ceiling | errors |');
console.log('|---|---|---|---|');
console.log(row('no-op node:http (ceiling)', ceiling));
console.log(row(`pings spread over ${CHECKS} checks`, spread));
console.log(row('pings to one check (contention)', oneCheck));
console.log(`\nacknowledged ${spread.requests} pings in the spread run; stored ${stored} ping rows (lost: ${spread.requests - stored})`);
