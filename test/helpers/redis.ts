// Tests against a real Redis: `TEST_REDIS_URL` names a shared server (other test files may use it
// at the same time, so each test gets its own channel namespace and nothing is flushed), and
// the outage tests start a private `redis-server` they can kill and start again.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';

export const testRedisUrl = (): string | undefined => process.env.TEST_REDIS_URL || undefined;

export const SKIPPED = ' (skipped: TEST_REDIS_URL not set)';

/** A channel namespace no other test (or running gateway) uses. */
export const uniqueNamespace = () => `gateway:test:${randomUUID()}`;

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `cond` every 10 ms; fails with `what` after `ms`. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A private redis-server on `port` (nothing saved); `stop()` kills it. */
export interface PrivateRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function privateRedis(port: number): PrivateRedis {
  let child: ChildProcess | null = null;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      child = proc;
      const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => reject(new Error(`redis-server exited (${code})`))));
      exited.catch(() => {});
      await Promise.race([waitFor(`redis-server on ${port}`, () => accepts(port)), exited]);
    },
    async stop() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
