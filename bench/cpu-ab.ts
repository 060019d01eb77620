// Scratch: server CPU ms per request, GraphQL dashboard vs REST window, alternating batches.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedChecks, seedProject } from './lib/seed.ts';
import { startServer } from './lib/server.ts';
import { DASHBOARD, sendPings } from './suites/graphql.ts';

const env = process.argv.includes('--dev') ? {} : { NODE_ENV: 'production' };
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 10);
const perBatch = 20;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'cpu-ab-'));
const databaseUrl = `file:${path.join(scratch, 'd.db')}`;
const project = await seedProject(databaseUrl);
const codes = await seedChecks(databaseUrl, project.id, 100, () => ({ timeout: 86400, grace: 3600 }));
const server = await startServer({ databaseUrl, entry: 'bench/lib/baseline-server.ts', env: { MONITOR: 'off', NOTIFIER: 'off', ...env } });
const cpu = () => {
  const f = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime+stime, clock ticks of 10 ms
};
try {
  await sendPings(server, codes);
  const key = { 'X-Api-Key': project.api_key };
  const gql = () => fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...key, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: DASHBOARD, variables: { checks: 100, pings: 10 } }) });
  const rest = () => fetch(`${server.url}/bench/baseline-window`, { headers: key });
  const totals = { gql: { cpu: 0, wall: 0, n: 0 }, rest: { cpu: 0, wall: 0, n: 0 } };
  for (let r = 0; r < rounds + 2; r++) {
    for (const [name, f] of [['gql', gql], ['rest', rest]] as const) {
      const c0 = cpu();
      const t0 = performance.now();
      for (let i = 0; i < perBatch; i++) {
        const res = await f();
        const body = await res.text();
        if (res.status !== 200 || body.includes('"errors"')) throw new Error(body.slice(0, 300));
      }
      if (r < 2) continue; // warm-up
      totals[name].cpu += cpu() - c0;
      totals[name].wall += performance.now() - t0;
      totals[name].n += perBatch;
    }
  }
  const g = totals.gql, s = totals.rest;
  console.log(`server CPU ms/request: graphql ${(g.cpu / g.n).toFixed(2)}, rest ${(s.cpu / s.n).toFixed(2)}, ratio rest/graphql ${(s.cpu / g.cpu).toFixed(2)}`);
  console.log(`wall ms/request: graphql ${(g.wall / g.n).toFixed(2)}, rest ${(s.wall / s.n).toFixed(2)}, ratio ${(s.wall / g.wall).toFixed(2)}`);
} finally {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
