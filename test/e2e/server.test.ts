// The real server process, started the way `npm start` starts it: ping over HTTP, read the
// result back through /api/v2/ and /graphql.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const run = promisify(execFile);
let dir: string;
let server: ChildProcess;
let base: string;
let env: NodeJS.ProcessEnv;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `file:${dir}/data/e2e.db`, SITE_ROOT: base, LOG_LEVEL: 'warn' };
  // What `npm start` runs: the bundled server, built first when src/ changed.
  server = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/api/v3/status/`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}, 60_000);

afterAll(async () => {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
});

it('creates a project with the CLI, pings a check and reads it back over REST and GraphQL', async () => {
  const { stdout } = await run(process.execPath, ['bin/gateway.mjs', 'project', 'create', '--name', 'E2E', '--json'], { env });
  const project = JSON.parse(stdout);
  const headers = { 'X-Api-Key': project.api_key, 'Content-Type': 'application/json' };
  const created = await fetch(`${base}/api/v2/checks/`, { method: 'POST', headers, body: JSON.stringify({ name: 'e2e', timeout: 60, grace: 60 }) });
  expect(created.status).toBe(201);
  const check = await created.json();
  expect(check.ping_url).toBe(`${base}/ping/${check.uuid}`);

  const ping = await fetch(check.ping_url, { method: 'POST', body: 'hello' });
  expect(await ping.text()).toBe('OK');

  const rest = await (await fetch(`${base}/api/v2/checks/${check.uuid}`, { headers })).json();
  expect(rest).toMatchObject({ status: 'up', n_pings: 1 });
  const pings = await (await fetch(`${base}/api/v2/checks/${check.uuid}/pings/`, { headers })).json();
  expect(pings.pings[0]).toMatchObject({ type: 'success', method: 'POST', n: 1 });

  const gql = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: `{ check(id: "${check.uuid}") { name status nPings } }` }),
  });
  expect(await gql.json()).toEqual({ data: { check: { name: 'e2e', status: 'UP', nPings: 1 } } });
}, 60_000);
