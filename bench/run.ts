// `npm run bench`: each suite against a real server process on loopback, figures printed with
// their ratios and targets and written to docs/performance.md.
// `npm run bench -- --smoke`: small sizes, nothing written (CI runs this); `--only=ping,graphql`.
// `--db postgres [--db-url postgresql://…] [--redis-url redis://…]`: the suites that apply on
// PostgreSQL (one fresh database per suite, dropped after), written to the PostgreSQL block.
// `--soak <minutes>`: only the soak (bench/suites/soak.ts), on SQLite, that long; written to
// the soak block of docs/performance.md when it ran 10 minutes or more (shorter runs print only).
import { hasWrk } from './lib/load.ts';
import { BenchArgsError, parseBenchArgs } from './lib/args.ts';
import { machine, table, writePerformanceDoc, type Figure } from './lib/report.ts';
import { createContext, type BenchContext, type BenchDb } from './suites/context.ts';
import { pingSuite } from './suites/ping.ts';
import { graphqlSuite } from './suites/graphql.ts';
import { monitorSuite } from './suites/monitor.ts';
import { coldStartSuite } from './suites/cold-start.ts';
import { subscriptionsSuite } from './suites/subscriptions.ts';
import { notificationsSuite } from './suites/notifications.ts';
import { fanoutSuite } from './suites/fanout.ts';
import { soakSuite } from './suites/soak.ts';
import { webRenderSuite } from './web-render.ts';
import os from 'node:os';
import pg from 'pg';

type Suite = (ctx: BenchContext) => Promise<Figure[]>;
// Cold start, one instance's subscribers and notifications are SQLite's figures; PostgreSQL
// runs what the many-instance setup changes (issue #13): ingest, the monitor, fan-out, GraphQL.
const SUITES: Record<BenchDb, Record<string, Suite>> = {
  sqlite: { ping: pingSuite, monitor: monitorSuite, 'cold-start': coldStartSuite, subscriptions: subscriptionsSuite, graphql: graphqlSuite, notifications: notificationsSuite, web: webRenderSuite },
  postgres: { ping: pingSuite, monitor: monitorSuite, fanout: fanoutSuite, graphql: graphqlSuite },
};

let args: ReturnType<typeof parseBenchArgs>;
try {
  args = parseBenchArgs(process.argv.slice(2));
  const unknown = args.only?.filter((name) => !(name in SUITES[args.db]));
  if (unknown?.length) throw new BenchArgsError(`no suite ${unknown.join(', ')} on ${args.db}: ${Object.keys(SUITES[args.db]).join(', ')}`);
} catch (err) {
  if (!(err instanceof BenchArgsError)) throw err;
  console.error(`bench: ${err.message}`);
  process.exit(2);
}
const { smoke, only, db, soak } = args;

// A suite waiting on something that can no longer happen leaves Node nothing to do, and Node
// would end the run silently with status 0: such a run must fail.
let finished = false;
process.on('exit', () => {
  if (finished) return;
  console.error('\nbenchmarks ended before finishing: a suite waited on something that never came');
  process.exitCode = 1;
});

/** PostgreSQL runs: the server's version, for the record. */
async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return `PostgreSQL ${(await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version.split(' ')[0]}`;
  } finally {
    await client.end();
  }
}

// The machine may be shared (other work on the same cores): the load at the start says how much.
const load = `load average ${os.loadavg()[0]!.toFixed(1)} at the start`;
const setup = db === 'postgres' ? `${await postgresVersion(args.dbUrl)} on 127.0.0.1, Redis on 127.0.0.1 for fan-out; ${load}` : load;
const ctx = createContext(args);
const figures: Figure[] = [];
console.log(`${machine()}; load generator: ${hasWrk ? 'wrk' : 'node (wrk not installed)'}${setup ? `; ${setup}` : ''}${smoke ? '; SMOKE RUN, sizes reduced' : ''}`);
try {
  const suites: Array<[string, Suite]> = soak !== undefined ? [['soak', (c) => soakSuite(c, soak)]] : Object.entries(SUITES[db]);
  for (const [name, suite] of suites) {
    if (only && !only.includes(name)) continue;
    const started = performance.now();
    const result = await suite(ctx);
    figures.push(...result);
    console.log(`\n${name}${db === 'postgres' ? ' (PostgreSQL)' : ''} (${((performance.now() - started) / 1000).toFixed(1)} s)\n${table(result)}`);
  }
} finally {
  await ctx.cleanup();
}
if (soak !== undefined) {
  // A short soak says whether it works, not whether memory holds: only long runs are recorded.
  if (soak >= 10) writePerformanceDoc(figures, `${soak} min soak, pings from the bench process`, 'soak', setup);
} else if (!smoke && !only) writePerformanceDoc(figures, hasWrk ? 'wrk 4.1 (1 thread)' : 'node', db, setup);
if (smoke) {
  // Speed is not judged on a smoke run's tiny sizes; losing data is.
  const broken = figures.filter((f) => f.correctness && !f.met);
  console.log(`\nsmoke: ${figures.length} figures, ${broken.length} correctness failures`);
  if (broken.length) process.exitCode = 1;
}
finished = true;
