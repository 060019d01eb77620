// Target 5: cold start. A fresh server process on an existing database, timed from spawn to
// its first served request (/healthz answering 200), the way a restart or a deploy sees it.
import { spawn } from 'node:child_process';
import type { Figure } from '../lib/report.ts';
import { seedChecks, seedProject } from '../lib/seed.ts';
import { root } from '../lib/server.ts';
import type { BenchContext } from './context.ts';
import { freePort } from '../lib/free-port.ts';

async function firstResponseMs(databaseUrl: string, port: number): Promise<number> {
  const started = performance.now();
  // What `npm start` runs (without npm's own start-up): the bundled server.
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    // A child that already exited fires no more 'exit': waiting for it would leave nothing
    // pending, and Node would end the whole run silently.
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    }
  }
}

export async function coldStartSuite(ctx: BenchContext): Promise<Figure[]> {
  const databaseUrl = await ctx.database('cold-start');
  const project = await seedProject(databaseUrl);
  await seedChecks(databaseUrl, project.id, ctx.smoke ? 1_000 : 100_000, () => ({ status: 'up', lastPing: Date.now(), alertAfter: Date.now() + 86_400_000 }));
  const runs: number[] = [];
  for (let i = 0; i < (ctx.smoke ? 2 : 5); i++) runs.push(await firstResponseMs(databaseUrl, await freePort()));
  const sorted = [...runs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return [
    {
      suite: 'cold start',
      name: `spawn to first served request, ${ctx.smoke ? '1,000' : '100,000'} checks stored`,
      value: median,
      unit: 'ms (median)',
      target: '< 2,000 ms',
      met: median < 2000,
      note: `runs: ${runs.map((r) => Math.round(r)).join(', ')} ms`,
    },
  ];
}
