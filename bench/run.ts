// `npm run bench`: each suite against a real server process on loopback, figures printed with
// their ratios and targets and written to docs/performance.md.
// `npm run bench -- --smoke`: small sizes, nothing written (CI runs this); `--only=ping,graphql`.
import { hasWrk } from './lib/load.ts';
import { machine, table, writePerformanceDoc, type Figure } from './lib/report.ts';
import { createContext } from './suites/context.ts';
import { pingSuite } from './suites/ping.ts';
import { graphqlSuite } from './suites/graphql.ts';
import { monitorSuite } from './suites/monitor.ts';
import { coldStartSuite } from './suites/cold-start.ts';
import { subscriptionsSuite } from './suites/subscriptions.ts';
import { notificationsSuite } from './suites/notifications.ts';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const suites: Record<string, typeof pingSuite> = { ping: pingSuite, monitor: monitorSuite, 'cold-start': coldStartSuite, subscriptions: subscriptionsSuite, graphql: graphqlSuite, notifications: notificationsSuite };

// A suite waiting on something that can no longer happen leaves Node nothing to do, and Node
// would end the run silently with status 0: such a run must fail.
let finished = false;
process.on('exit', () => {
  if (finished) return;
  console.error('\nbenchmarks ended before finishing: a suite waited on something that never came');
  process.exitCode = 1;
});

const ctx = createContext(smoke);
const figures: Figure[] = [];
console.log(`${machine()}; load generator: ${hasWrk ? 'wrk' : 'node (wrk not installed)'}${smoke ? '; SMOKE RUN, sizes reduced' : ''}`);
try {
  for (const [name, suite] of Object.entries(suites)) {
    if (only && !only.includes(name)) continue;
    const started = performance.now();
    const result = await suite(ctx);
    figures.push(...result);
    console.log(`\n${name} (${((performance.now() - started) / 1000).toFixed(1)} s)\n${table(result)}`);
  }
} finally {
  ctx.cleanup();
}
if (!smoke && !only) writePerformanceDoc(figures, hasWrk ? 'wrk 4.1 (1 thread)' : 'node');
if (smoke) {
  // Speed is not judged on a smoke run's tiny sizes; losing data is.
  const broken = figures.filter((f) => f.correctness && !f.met);
  console.log(`\nsmoke: ${figures.length} figures, ${broken.length} correctness failures`);
  if (broken.length) process.exitCode = 1;
}
finished = true;
