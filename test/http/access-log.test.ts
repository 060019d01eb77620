// The access log (one pino line per request, route pattern only, with the request id) and METRICS_KEY on /metrics.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { createProject } from '../../src/monitoring/projects/service.ts';
import { createWorld, T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';

async function appWithLog(env: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-log-'));
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({ DATABASE_URL: `file:${path.join(dir, 'test.db')}`, MONITOR: 'off', NOTIFIER: 'off', PORT: '0', ...env });
  const app = await buildApp(config, { clock: new ManualClock(T0), logger: pino({ level: 'info' }, sink) });
  const url = `http://127.0.0.1:${await app.start(0, '127.0.0.1')}`;
  const stop = async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { app, url, lines, stop };
}

const requests = (lines: Array<Record<string, unknown>>) => lines.filter((l) => l.msg === 'request');

describe('access log', () => {
  let a: Awaited<ReturnType<typeof appWithLog>>;
  let app: App;
  beforeAll(async () => {
    a = await appWithLog({});
    app = a.app;
  });
  afterAll(() => a.stop());

  it('logs method, route pattern, status, duration, address and request id at info, never the raw URL', async () => {
    const project = await createProject(app.db, { name: 'P' });
    const created = await fetch(`${a.url}/api/v3/checks/`, { method: 'POST', headers: { 'X-Api-Key': project.api_key, 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
    const check = (await created.json()) as { uuid: string; ping_url: string };
    await fetch(`${a.url}/api/v3/checks/${check.uuid}?api_key=${project.api_key}`, { headers: { 'X-Api-Key': project.api_key } });
    await fetch(check.ping_url.replace(/^https?:\/\/[^/]+/, a.url));
    await fetch(`${a.url}/nowhere/${project.api_key}`);
    // Lines are written when each response closes.
    for (let i = 0; i < 100 && requests(a.lines).length < 4; i++) await new Promise((r) => setImmediate(r));
    const logged = requests(a.lines);
    expect(logged.map((l) => [l.method, l.route, l.status])).toEqual([
      ['POST', '/api/v3/checks/', 201],
      ['GET', '/api/v3/checks/:id', 200],
      ['GET', '/ping/*', 200],
      ['GET', 'unmatched', 404],
    ]);
    for (const l of logged) {
      expect(l.level).toBe(30);
      expect(typeof l.durationMs).toBe('number');
      expect(l.remoteAddress).toMatch(/127\.0\.0\.1/);
      // No X-Request-Id sent: a generated one (test/http/request-id.test.ts covers the header).
      expect(l.requestId).toMatch(/^[A-Za-z0-9_-]{12}$/);
    }
    const text = JSON.stringify(a.lines);
    expect(text).not.toContain(check.uuid);
    expect(text).not.toContain(project.api_key);
  });

  it('is silent with ACCESS_LOG=off', async () => {
    const off = await appWithLog({ ACCESS_LOG: 'off' });
    try {
      await fetch(`${off.url}/healthz`);
      await new Promise((r) => setImmediate(r));
      expect(requests(off.lines)).toEqual([]);
    } finally {
      await off.stop();
    }
  });
});

describe('METRICS_KEY', () => {
  const w = useWorld({ METRICS_KEY: 'scrape-secret' });

  it('wants Authorization: Bearer <key> when set', async () => {
    const none = await fetch(`${w.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await none.text()).not.toContain('gateway_');
    expect((await fetch(`${w.url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${w.url}/metrics`, { headers: { Authorization: 'scrape-secret' } })).status).toBe(401);
    const ok = await fetch(`${w.url}/metrics`, { headers: { Authorization: 'Bearer scrape-secret' } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('gateway_http_request_duration_seconds');
  });

  it('stays open when unset', async () => {
    const open = await createWorld();
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});
