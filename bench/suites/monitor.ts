// Target 2: the monitor. A million checks stored, ten thousand of them going down at the same
// instant; the real server process records each flip, and its /metrics histogram of monitor lag
// (record time minus going-down time) gives the p99. Pass cost is shown to follow the checks
// due, not the checks stored: the mean duration of passes with nothing due, at 1M and at 10k.
import type { Figure } from '../lib/report.ts';
import { quantileFromBuckets, scrape } from '../lib/metrics.ts';
import { seedChecks, seedProject } from '../lib/seed.ts';
import { startServer } from '../lib/server.ts';
import type { BenchContext } from './context.ts';

const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const DAY = 86_400_000;

async function idlePassMs(url: string, seconds: number): Promise<number> {
  const before = await scrape(url);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = await scrape(url);
  const count = after('gateway_monitor_pass_duration_seconds_count') - before('gateway_monitor_pass_duration_seconds_count');
  const sum = after('gateway_monitor_pass_duration_seconds_sum') - before('gateway_monitor_pass_duration_seconds_sum');
  return count ? (sum / count) * 1000 : NaN;
}

export async function monitorSuite(ctx: BenchContext): Promise<Figure[]> {
  const stored = ctx.smoke ? 20_000 : 1_000_000;
  const due = ctx.smoke ? 500 : 10_000;
  const figures: Figure[] = [];

  // Baseline: pass cost with few checks stored.
  const smallUrl = ctx.databaseUrl('monitor-small');
  const smallProject = await seedProject(smallUrl);
  seedChecks(smallUrl, smallProject.id, 10_000, () => ({ status: 'up', lastPing: Date.now(), alertAfter: Date.now() + DAY }));
  const small = await startServer({ databaseUrl: smallUrl, env: { MONITOR_INTERVAL_MS: '100' } });
  let smallPassMs: number;
  try {
    smallPassMs = await idlePassMs(small.url, ctx.smoke ? 1 : 3);
  } finally {
    await small.stop();
  }

  const databaseUrl = ctx.databaseUrl('monitor');
  const project = await seedProject(databaseUrl);
  const seeding = performance.now();
  seedChecks(databaseUrl, project.id, stored - due, () => ({ status: 'up', lastPing: Date.now(), timeout: 86400, grace: 3600, alertAfter: Date.now() + DAY }));
  const seedSeconds = (performance.now() - seeding) / 1000;
  // All due checks go down at one instant, a few seconds after the server is up.
  const goesDown = Date.now() + 6_000;
  seedChecks(databaseUrl, project.id, due, () => ({ status: 'up', lastPing: goesDown - 120_000, timeout: 60, grace: 60, alertAfter: goesDown }));

  const server = await startServer({ databaseUrl, env: { MONITOR_INTERVAL_MS: '100' } });
  try {
    const idleMs = await idlePassMs(server.url, 1);
    const wait = goesDown - Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, wait)));
    let m = await scrape(server.url);
    for (let i = 0; i < 300 && m('gateway_flips_recorded_total', { reason: 'timeout' }) < due; i++) {
      await new Promise((r) => setTimeout(r, 100));
      m = await scrape(server.url);
    }
    const recorded = m('gateway_flips_recorded_total', { reason: 'timeout' });
    const p99 = quantileFromBuckets(m, 'gateway_monitor_lag_seconds', 0.99, LAG_BUCKETS);
    const p50 = quantileFromBuckets(m, 'gateway_monitor_lag_seconds', 0.5, LAG_BUCKETS);
    const mean = m('gateway_monitor_lag_seconds_sum') / Math.max(1, m('gateway_monitor_lag_seconds_count'));
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
    figures.push({
      suite: 'monitor',
      name: `flip recorded after going-down time, ${due.toLocaleString('en-US')} checks at one instant`,
      value: p99 * 1000,
      unit: 'ms p99 (≤ bucket bound)',
      target: 'p99 < 1 s',
      met: p99 < 1,
      note: `p50 ≤ ${p50 * 1000} ms, mean ${(mean * 1000).toFixed(0)} ms`,
    });
    figures.push({
      suite: 'monitor',
      name: 'due checks without a recorded flip',
      value: due - recorded,
      unit: 'checks',
      target: '0',
      met: recorded === due,
      correctness: true,
    });
  } finally {
    await server.stop();
  }
  return figures;
}
