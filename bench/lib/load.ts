// HTTP load from a second process: wrk (Debian package) when installed, otherwise a small
// Node load generator (bench/lib/node-load.ts), which saturates near 12k requests/s here and
// so understates fast routes. Every figure says which generator produced it.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { root } from './server.ts';

const run = promisify(execFile);

export interface LoadOptions {
  url: string;
  /** Request paths, picked at random per request. */
  paths: string[];
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  generator: 'wrk' | 'node';
  requests: number;
  /** Responses with a status outside 200-399, plus socket errors and timeouts. */
  failures: number;
  perSecond: number;
  latencyMs: { p50: number; p99: number };
}

// BENCH_GENERATOR=node forces the fallback (to check it still works).
export const hasWrk = process.env.BENCH_GENERATOR !== 'node' && spawnSync('wrk', ['--version']).error === undefined;

export async function load(o: LoadOptions): Promise<LoadResult> {
  return hasWrk ? wrk(o) : nodeLoad(o);
}

const lua = (o: LoadOptions, pathsFile: string) => `
local paths = {}
for line in io.lines("${pathsFile}") do paths[#paths + 1] = line end
local method = "${o.method ?? 'GET'}"
local body = ${o.body === undefined ? 'nil' : JSON.stringify(o.body)}
local headers = {}
${Object.entries(o.headers ?? {})
  .map(([k, v]) => `headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
  .join('\n')}
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
request = function()
  return wrk.format(method, paths[math.random(#paths)], headers, body)
end
`;

async function wrk(o: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wrk-'));
  try {
    const pathsFile = path.join(dir, 'paths.txt');
    writeFileSync(pathsFile, o.paths.join('\n') + '\n');
    writeFileSync(path.join(dir, 'script.lua'), lua(o, pathsFile));
    // One wrk thread: the machine has two cores and the server needs one of them.
    // A 10 s timeout: a slow answer is a latency, not a failure (wrk's default gives up at 2 s).
    const { stdout } = await run('wrk', ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--timeout', '10s', '--latency', '-s', path.join(dir, 'script.lua'), o.url], { maxBuffer: 1 << 20 });
    const requests = Number(stdout.match(/(\d+) requests in/)?.[1] ?? 0);
    const non2xx = Number(stdout.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
    const sock = stdout.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
    const socketErrors = sock ? sock.slice(1).reduce((s, v) => s + Number(v), 0) : 0;
    const ms = (label: string) => {
      const m = stdout.match(new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)`, 'm'));
      if (!m) return NaN;
      return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
    };
    return {
      generator: 'wrk',
      requests,
      failures: non2xx + socketErrors,
      perSecond: Number(stdout.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
      latencyMs: { p50: ms('50'), p99: ms('99') },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function nodeLoad(o: LoadOptions): Promise<LoadResult> {
  // The options go through a file: 10,000 ping paths exceed what a command line may hold (E2BIG).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'node-load-'));
  try {
    const optionsFile = path.join(dir, 'options.json');
    writeFileSync(optionsFile, JSON.stringify(o));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/lib/node-load.ts'), optionsFile], { cwd: root, maxBuffer: 1 << 20 });
    return { generator: 'node', ...(JSON.parse(stdout) as Omit<LoadResult, 'generator'>) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
