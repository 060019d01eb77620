// Where the dashboard query's time goes: the GraphQL benchmark's server (gateway + hand-written
// REST baselines) under `node --cpu-prof`, loaded by wrk with one endpoint at a time, and each
// CPU profile's samples added up by what ran them (parse, validation, graphql-js execution,
// Pothos, yoga/envelop, Prisma, the SQLite driver, JSON serialization, HTTP, GC, idle).
//
//   npx tsx bench/profile-dashboard.ts [--seconds 10] [--connections 8] [--top 25] [--keep]
//     [--db-url postgresql://postgres@127.0.0.1:5432/postgres]
//
// With --db-url the data goes into a new PostgreSQL database on that server (dropped at the end)
// instead of an SQLite file.
//
// Prints CPU milliseconds per request by category for each endpoint, then each one's top
// functions by self time; `--keep` leaves the
// .cpuprofile files (open them in Chrome DevTools) and prints their folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, dropDatabase, withDatabase } from '../src/db/postgres/admin.ts';
import { load } from './lib/load.ts';
import { seedChecks, seedProject } from './lib/seed.ts';
import { startServer } from './lib/server.ts';
import { DASHBOARD, sendPings } from './suites/graphql.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '8' }, keep: { type: 'boolean', default: false }, top: { type: 'string', default: '25' }, 'db-url': { type: 'string' } } });
const top = Number(values.top);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

// First match wins: the frame's script URL (or, for native frames, the caller's) decides.
const CATEGORIES: [string, RegExp][] = [
  ['graphql parse', /node_modules\/graphql\/language\//],
  ['graphql validate', /node_modules\/graphql\/(validation|utilities\/TypeInfo)/],
  ['graphql execute', /node_modules\/graphql\/(execution|jsutils|type)\//],
  ['graphql (other)', /node_modules\/graphql\//],
  ['pothos', /node_modules\/@pothos\//],
  ['dataloader', /node_modules\/dataloader\//],
  ['armor', /node_modules\/@escape\.tech\//],
  // Yoga runs graphql-tools' fork of graphql-js's executor.
  ['graphql execute', /node_modules\/@graphql-tools\/(executor|utils)\//],
  ['yoga result serialization', /node_modules\/graphql-yoga\/.*result-processor/],
  ['yoga / envelop / whatwg', /node_modules\/(graphql-yoga|@graphql-yoga|@envelop|@whatwg-node|@graphql-tools|urlpattern|@repeaterjs)/],
  ['sqlite driver', /node_modules\/(better-sqlite3|@prisma\/driver-adapter-utils)|src\/db\/sqlite\/driver-adapter/],
  ['postgres driver', /node_modules\/(pg|pg-protocol|pg-types|postgres-array|postgres-date|postgres-bytea|postgres-interval|@prisma\/adapter-pg)\//],
  ['prisma client', /node_modules\/(@prisma|\.prisma)|src\/generated\/prisma/],
  ['prom-client', /node_modules\/prom-client/],
  ['our code: src/graphql', /\/src\/graphql\//],
  ['our code: src/db', /\/src\/db\//],
  ['our code: src/monitoring', /\/src\/monitoring\//],
  ['our code: src/http, app', /\/src\/(http|app|metrics)/],
  ['bench baseline handler', /\/bench\/lib\//],
  ['our code (other)', /\/src\//],
  ['tsx loader', /node_modules\/tsx/],
  ['node http / net', /^node:(internal\/)?(http|_http|net|stream|internal\/streams|internal\/stream_base|events|buffer|internal\/url|url|zlib)/],
  ['node (other)', /^node:/],
];

/**
 * Samples between `from` and `to` (µs of the monotonic clock, which V8 stamps samples with), in
 * ms by category and by function (self time: a native or builtin frame counts for its caller).
 */
function categorize(profile: CpuProfile, from: number, to: number): { totals: Map<string, number>; functions: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const category = (id: number): string => {
    const hit = memo.get(id);
    if (hit) return hit;
    const { functionName, url } = byId.get(id)!.callFrame;
    let found: string;
    if (functionName === '(garbage collector)') found = 'GC';
    else if (functionName === '(idle)') found = 'idle';
    else if (functionName === '(program)') found = 'V8 (program)';
    else if (functionName === 'stringify' && !url) found = 'JSON.stringify';
    else if (functionName === 'parse' && !url) found = 'JSON.parse';
    else if (!url) found = parent.has(id) ? category(parent.get(id)!) : 'V8 (root)';
    else found = CATEGORIES.find(([, re]) => re.test(url))?.[0] ?? `other: ${url.replace(/.*node_modules\//, '').split('/').slice(0, 2).join('/')}`;
    memo.set(id, found);
    return found;
  };
  const totals = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    add(totals, category(id), ms);
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    add(functions, `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench|rest-compat)\//, '$1/')}:${lineNumber + 1}`, ms);
  });
  return { totals, functions };
}

async function profileOne(name: string, o: { path: string; method?: string; body?: string; headers: Record<string, string> }, databaseUrl: string, codes: string[] | null) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `profile-${name}-`));
  const server = await startServer({
    databaseUrl,
    entry: 'bench/lib/baseline-server.ts',
    // As `npm start` runs it (scripts/start.mjs): graphql-js without its development checks.
    env: { MONITOR: 'off', NOTIFIER: 'off', NODE_ENV: 'production' },
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  });
  let requests = 0;
  let perSecond = 0;
  let from = 0;
  let to = 0;
  try {
    if (codes) await sendPings(server, codes);
    const base = { url: server.url, paths: [o.path], method: o.method, body: o.body, headers: o.headers, connections };
    await load({ ...base, seconds: 3 }); // warm-up: JIT, Prisma's query cache
    from = microseconds();
    const result = await load({ ...base, seconds });
    to = microseconds();
    requests = result.requests;
    perSecond = result.perSecond;
  } finally {
    await server.stop();
  }
  // The main thread's profile is the largest (tsx's loader thread writes a small one).
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
  const main = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!main) throw new Error(`no CPU profile written in ${dir}`);
  const profile = JSON.parse(readFileSync(main, 'utf8')) as CpuProfile;
  const { totals, functions } = categorize(profile, from, to);
  const sampled = profile.samples.length;
  if (![...totals.values()].some((v) => v > 0)) throw new Error(`none of the ${sampled} samples falls in the measured window: clocks differ?`);
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  return { name, totals, functions, requests, perSecond, file: main };
}

const microseconds = () => Number(process.hrtime.bigint() / 1000n);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'profile-dashboard-'));
const postgres = values['db-url'] ? { server: values['db-url'], name: `gateway_bench_profile_${process.pid}` } : null;
try {
  if (postgres) await createDatabase(postgres.server, postgres.name);
  const databaseUrl = postgres ? withDatabase(postgres.server, postgres.name) : `file:${path.join(scratch, 'dashboard.db')}`;
  const project = await seedProject(databaseUrl);
  const codes = await seedChecks(databaseUrl, project.id, 100, () => ({ timeout: 86400, grace: 3600 }));
  const key = { 'X-Api-Key': project.api_key };
  const runs = [
    await profileOne('graphql', { path: '/graphql', method: 'POST', body: JSON.stringify({ query: DASHBOARD, variables: { checks: 100, pings: 10 } }), headers: { ...key, 'Content-Type': 'application/json' } }, databaseUrl, codes),
    await profileOne('rest-window', { path: '/bench/baseline-window', headers: key }, databaseUrl, null),
  ];
  const names = [...new Set(runs.flatMap((r) => [...r.totals.keys()]))];
  const perRequest = (r: (typeof runs)[number], c: string) => (r.totals.get(c) ?? 0) / r.requests;
  names.sort((a, b) => perRequest(runs[0]!, b) - perRequest(runs[0]!, a));
  console.log(`\nCPU ms per request (${seconds} s of wrk, ${connections} connections, after a 3 s warm-up)`);
  console.log(`| category | ${runs.map((r) => r.name).join(' | ')} |\n|---|${runs.map(() => '---:').join('|')}|`);
  for (const c of names) console.log(`| ${c} | ${runs.map((r) => perRequest(r, c).toFixed(3)).join(' | ')} |`);
  const busy = (r: (typeof runs)[number]) => [...r.totals].filter(([c]) => c !== 'idle').reduce((s, [, v]) => s + v, 0) / r.requests;
  console.log(`| **busy (all but idle)** | ${runs.map((r) => busy(r).toFixed(3)).join(' | ')} |`);
  console.log(`| requests/s | ${runs.map((r) => r.perSecond.toFixed(1)).join(' | ')} |`);
  for (const r of runs) {
    console.log(`\n${r.name}: top ${top} functions by self time, CPU ms per request`);
    for (const [f, ms] of [...r.functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(ms / r.requests).toFixed(3).padStart(8)}  ${f}`);
  }
  if (values.keep) for (const r of runs) console.log(`${r.name}: ${r.file}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  if (postgres) await dropDatabase(postgres.server, postgres.name);
}
