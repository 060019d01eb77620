// A gateway in a process of its own, running the server entry (src/server.ts) bundled as
// `npm start` runs it, on the environment given, as an operator runs each instance. Each test
// file bundles a private copy (about 0.5 s): several files starting servers at once would
// otherwise race to rebuild the shared dist/server.mjs, and a bundle starts faster than tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface ServerBundle {
  /** The bundle's path, for startGatewayProcess. */
  entry: string;
  remove(): void;
}

/** scripts/build.mjs: the checkout's quick bundle and the production build. */
export async function buildScript(): Promise<{ buildServer(outDir: string): Promise<void>; buildProduction(outDir: string): Promise<unknown> }> {
  return import(pathToFileURL(path.join(root, 'scripts', 'build.mjs')).href);
}

/** A private folder under dist/ (packages and the project root resolve from there), built by `build`. */
async function privateBuild(prefix: string, build: (outDir: string) => Promise<unknown>): Promise<ServerBundle> {
  const dir = path.join(root, 'dist', `${prefix}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await build(dir);
  return { entry: path.join(dir, 'server.mjs'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bundles src/server.ts as `npm start` does in a checkout (its packages stay in node_modules). */
export async function bundleServer(): Promise<ServerBundle> {
  const { buildServer } = await buildScript();
  return privateBuild('test', buildServer);
}

/** The production build (`npm run build`, what operators run), every package but the native ones inside. */
export async function productionBundle(): Promise<ServerBundle> {
  const { buildProduction } = await buildScript();
  return privateBuild('test-production', buildProduction);
}

export interface GatewayProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far (pino's JSON lines, errors). */
  output(): string;
  /** The parsed JSON log lines written so far. */
  logLines(): Array<Record<string, unknown>>;
  /** SIGKILL: no shutdown, open transactions and connections simply vanish. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for the clean exit. */
  stop(): Promise<void>;
}

export function startGatewayProcess(bundle: ServerBundle, env: Record<string, string>, startupMs = 60_000): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [bundle.entry], {
    cwd: root,
    // What start.mjs sets for `npm start`.
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const lines: Array<Record<string, unknown>> = [];
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start within ${startupMs} ms\n${output}`));
    }, startupMs);
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code ?? sig}) before listening\n${output}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output += `${line}\n`;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      lines.push(entry);
      if (entry.msg !== 'gateway listening' || typeof entry.port !== 'number') return;
      clearTimeout(timer);
      const port = entry.port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        child,
        output: () => output,
        logLines: () => lines,
        kill9: () => signal('SIGKILL'),
        stop: () => signal('SIGTERM'),
      });
    });
  });
}

/** The sum of a Prometheus counter's series whose labels match `labels` (e.g. `reason="timeout"`). */
export async function counterSum(base: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`, 'gm'))) {
    if (!labels || (m[1] ?? '').includes(labels)) sum += Number(m[2]);
  }
  return sum;
}
