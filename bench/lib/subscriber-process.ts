// The subscriber process (bench/lib/ws-subscribers.ts) seen from the bench: spawn it, read its
// JSON lines, send it commands.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { root } from './server.ts';

export interface LatencyStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
  min: number;
}

export interface Round extends LatencyStats {
  round: number;
  missed: number;
  extra: number;
  errors: number;
  /** Receipts whose message differed from the first subscriber's for the same event (raw client). */
  mismatched: number;
  /** This event's message as the first subscriber received it (its content is checked by the suite). */
  sample?: string;
  closed: number;
  lastError?: string;
  total: LatencyStats & { expected: number; missed: number };
  /** Every latency of this round, when the command asked for them (`raw`). */
  latencies?: number[];
}

export type SubscriberClient = 'raw' | 'ws' | 'graphql-ws';

/** BENCH_SUBSCRIBER_CLIENT: `raw` (the default), `ws` or `graphql-ws` (ws-subscribers.ts). */
export function subscriberClient(): SubscriberClient {
  const chosen = process.env.BENCH_SUBSCRIBER_CLIENT;
  return chosen === 'ws' || chosen === 'graphql-ws' ? chosen : 'raw';
}

export interface Ready {
  ready: number;
  failed: number;
  lastError?: string;
  openMs: number;
  rss: number;
}

/**
 * The subscriber process, with its soft file-descriptor limit raised to the hard one. Its
 * clients are raw ones unless BENCH_SUBSCRIBER_CLIENT is `ws` or `graphql-ws` (ws-subscribers.ts).
 */
export function startSubscribers(given: { port: number; apiKey: string; count: number; batch: number }) {
  const options = { ...given, client: subscriberClient() };
  const child = spawn(
    'bash',
    ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', process.execPath, '--import', 'tsx', 'bench/lib/ws-subscribers.ts', JSON.stringify(options)],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines: string[] = [];
  let wake: (() => void) | null = null;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    wake?.();
  });
  child.once('exit', () => wake?.());
  return {
    child,
    /** The next JSON line it prints. */
    async next<T>(timeoutMs: number): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      while (!lines.length) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`subscriber process exited (${child.exitCode ?? child.signalCode})\n${stderr}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`subscriber process: no answer in ${timeoutMs} ms\n${stderr}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, Math.min(left, 1000));
        });
        wake = null;
      }
      return JSON.parse(lines.shift()!) as T;
    },
    send(command: unknown) {
      child.stdin!.write(`${JSON.stringify(command)}\n`);
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          done();
        });
        child.stdin!.write(`${JSON.stringify({ exit: true })}\n`);
      }),
  };
}
