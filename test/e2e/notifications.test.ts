// Delivery from the real server process: a flip reaches a local webhook receiver without any
// tick by hand, and a notification pending (or in flight) when the process is killed with
// SIGKILL is delivered after a restart, with the same Idempotency-Key.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useHttpReceiver } from '../helpers/fixtures.ts';

const run = promisify(execFile);
let dir: string;
let server: ChildProcess | undefined;
let base: string;
let env: NodeJS.ProcessEnv;
const receiver = useHttpReceiver();
let apiKey: string;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function startServer() {
  server = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('server did not start');
}

async function kill9() {
  const exited = new Promise((r) => server!.once('exit', r));
  server!.kill('SIGKILL');
  await exited;
  server = undefined;
}

async function failingCheck(name: string): Promise<string> {
  const headers = { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' };
  const created = await fetch(`${base}/api/v3/checks/`, { method: 'POST', headers, body: JSON.stringify({ name, channels: '*' }) });
  const check = await created.json();
  await fetch(`${base}/ping/${check.uuid}`);
  expect(await (await fetch(`${base}/ping/${check.uuid}/fail`)).text()).toBe('OK');
  return check.uuid;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-notify-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${dir}/data/e2e.db`,
    SITE_ROOT: base,
    LOG_LEVEL: 'error',
    // A short attempt limit (so a lease of a killed process runs out in about 3 s) and slow retries.
    NOTIFY_TIMEOUT_MS: '300',
    NOTIFY_RETRY_BASE_MS: '1500',
    INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True',
  };
  const { stdout } = await run(process.execPath, ['bin/gateway.mjs', 'project', 'create', '--name', 'E2E', '--json'], { env });
  const project = JSON.parse(stdout);
  apiKey = project.api_key;
  await run(process.execPath, ['bin/gateway.mjs', 'channel', 'create', '--project', project.id, '--kind', 'webhook', '--value', `${receiver.url}/hook`], { env });
  await startServer();
}, 90_000);

afterAll(async () => {
  if (server) await kill9();
  rmSync(dir, { recursive: true, force: true });
});

it('delivers a flip’s webhook as soon as the flip commits', async () => {
  receiver.requests.length = 0;
  const uuid = await failingCheck('live');
  const [req] = await receiver.waitFor(1, 5_000);
  const doc = JSON.parse(req!.body);
  expect(doc).toMatchObject({ event: 'flip', status: 'down' });
  expect(doc.check.uuid).toBe(uuid);
}, 30_000);

it('delivers after SIGKILL and restart a notification that was waiting for a retry', async () => {
  receiver.requests.length = 0;
  receiver.respond(500);
  await failingCheck('retry-after-crash');
  const [first] = await receiver.waitFor(1, 5_000);
  await kill9();
  receiver.respond(200);
  await startServer();
  const requests = await receiver.waitFor(2, 10_000);
  expect(requests).toHaveLength(2);
  expect(requests[1]!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
}, 60_000);

it('delivers after SIGKILL and restart a notification that was in flight, with the same id', async () => {
  receiver.requests.length = 0;
  receiver.hold();
  await failingCheck('in-flight-crash');
  const [first] = await receiver.waitFor(1, 5_000);
  await kill9();
  receiver.release();
  await startServer();
  // The killed process's lease runs out (3 × 300 ms + 2 s), then this one takes it over.
  const requests = await receiver.waitFor(2, 15_000);
  expect(requests[1]!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
  // Counted once the receiver's answer is in and the outcome committed: a moment after the request arrived.
  const metrics = () => fetch(`${base}/metrics`).then((r) => r.text());
  await expect.poll(metrics, { timeout: 10_000 }).toMatch(/gateway_notifications_total\{kind="webhook",outcome="sent"\} 1/);
  await expect.poll(metrics, { timeout: 10_000 }).toMatch(/gateway_notifications_pending 0/);
}, 60_000);
