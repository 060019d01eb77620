// A gateway server in its own process, as users run it (`npm start` runs scripts/start.mjs),
// with the configuration in the environment. Resolves once it logs that it is listening.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn to the "listening" log line. */
  startupMs: number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  databaseUrl: string;
  /** Script to run, relative to the repository; what `npm start` runs by default. */
  entry?: string;
  env?: Record<string, string>;
  /** Extra flags for node itself (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
}

/** BENCH_CPU_PROF=<folder>: every server a suite starts writes a V8 CPU profile there on exit. */
const profiling = () => (process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []);

export function startServer(options: ServerOptions): Promise<ServerProcess> {
  const started = performance.now();
  const entry = options.entry ?? 'scripts/start.mjs';
  const child = spawn(process.execPath, [...(options.nodeArgs ?? profiling()), ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: options.databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
      // Receivers listen on 127.0.0.1; one key sends far more than a script's budget; an access
      // line per request would measure pino and the pipe to this process, not the gateway.
      INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True',
      RATE_LIMITS: 'off',
      ACCESS_LOG: 'off',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening\n${stderr}`)));
    lines.on('line', (line) => {
      let entry: { msg?: string; port?: number };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.msg !== 'gateway listening' || !entry.port) return;
      const port = entry.port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        child,
        startupMs: performance.now() - started,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Resident memory of a process in bytes, from /proc (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0);
  return kb * 1024;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux; ticks of 10 ms). */
export async function cpuMsOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time used so far by each process of this machine named `name` (e.g. the PostgreSQL
 * server's backends, which come and go), in ms by pid; null where /proc shows none (another
 * machine's server, or no /proc). Compare two readings with `cpuMsBetween`.
 */
export async function cpuMsOfProcessesNamed(name: string): Promise<Map<number, number> | null> {
  const { readdir, readFile } = await import('node:fs/promises');
  let entries: string[];
  try {
    entries = (await readdir('/proc')).filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const cpu = new Map<number, number>();
  for (const pid of entries) {
    try {
      if ((await readFile(`/proc/${pid}/comm`, 'utf8')).trim() !== name) continue;
      cpu.set(Number(pid), await cpuMsOf(Number(pid)));
    } catch {
      // Gone since the listing.
    }
  }
  return cpu.size > 0 ? cpu : null;
}

/**
 * CPU used between two readings: each process's growth, and all of a process new since the
 * first. A process that exited in between is left out (its time went with it).
 */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
