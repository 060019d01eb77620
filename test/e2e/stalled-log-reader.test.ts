// A gateway whose standard output is a pipe nobody reads (a parent that went away, a stalled
// log collector): it keeps serving, its log buffer stays bounded, and SIGTERM still ends it
// promptly with exit status 0. Before, pino's exit flush waited on the full pipe forever.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleServer, startGatewayProcess, type GatewayProcess, type ServerBundle } from '../helpers/gateway-process.ts';

let bundle: ServerBundle;
let gateway: GatewayProcess;
const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-stalled-log-'));

beforeAll(async () => {
  bundle = await bundleServer();
  gateway = await startGatewayProcess(bundle, { DATABASE_URL: `file:${path.join(dir, 'db.sqlite')}`, ACCESS_LOG: 'True', RATE_LIMITS: 'False' });
}, 90_000);
afterAll(async () => {
  await gateway?.kill9();
  bundle?.remove();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps serving with its log reader stalled, and SIGTERM ends it within seconds', async () => {
  // Nobody reads the pipe from now on: once its 64 KiB are full, every write would wait.
  gateway.child.stdout!.pause();
  // About 400 KB of access-log lines, several times what the pipe holds.
  for (let batch = 0; batch < 20; batch++) {
    const answers = await Promise.all(Array.from({ length: 100 }, () => fetch(`${gateway.url}/api/v3/checks/`).then((r) => r.status)));
    expect(new Set(answers)).toEqual(new Set([401]));
  }
  // Still serving after the pipe filled.
  expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);

  const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
  const startedAt = performance.now();
  gateway.child.kill('SIGTERM');
  // Generous for a loaded CI machine; the defect was an exit that never came.
  const outcome = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000))]);
  expect(outcome).toBe(0);
  expect(performance.now() - startedAt).toBeLessThan(20_000);
}, 60_000);
