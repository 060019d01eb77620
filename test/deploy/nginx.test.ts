// deploy/nginx.conf for real: Debian's nginx in front of two gateway processes on one
// PostgreSQL database and one Redis, as compose.yaml runs them. Through nginx, a subscription
// over WebSocket and one over SSE each receive a ping that nginx sent to the other instance, and
// the instances (TRUSTED_PROXIES=127.0.0.1) log the client address nginx was given in
// X-Forwarded-For, and nginx's request id. The file is used as it is, except the lines it marks
// "test: replaced" (addresses, port, log path). Skipped unless nginx is installed (.ci/run
// installs it) and TEST_DATABASE_URL and TEST_REDIS_URL are set.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/postgres.ts';
import { freePort, testRedisUrl, uniqueNamespace, waitFor } from '../helpers/redis.ts';
import { bundleServer, counterSum, startGatewayProcess, type GatewayProcess, type ServerBundle } from '../helpers/gateway-process.ts';
import { openDb } from '../../src/db/client.ts';
import { createProject } from '../../src/monitoring/projects/service.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const NGINX_PATH = [process.env.PATH, '/usr/sbin', '/usr/local/sbin'].filter(Boolean).join(':');
const hasNginx = spawnSync('nginx', ['-v'], { env: { ...process.env, PATH: NGINX_PATH } }).status === 0;

const admin = testPostgresUrl();
const redisUrl = testRedisUrl();
const missing = [!hasNginx && 'nginx is not installed (apt-get install nginx)', !admin && 'TEST_DATABASE_URL not set', !redisUrl && 'TEST_REDIS_URL not set'].filter(Boolean);
const SKIPPED = missing.length ? ` (skipped: ${missing.join('; ')})` : '';
const WAIT_MS = 30_000;

/** deploy/nginx.conf with only its "test: replaced" lines changed; fails if any is not found. */
function renderNginxConf(source: string, to: { upstreams: [number, number]; listen: number; accessLog: string }): string {
  const replacements: Array<[RegExp, string]> = [
    [/server gateway-1:8000 /, `server 127.0.0.1:${to.upstreams[0]} `],
    [/server gateway-2:8000 /, `server 127.0.0.1:${to.upstreams[1]} `],
    [/listen 80;/, `listen 127.0.0.1:${to.listen};`],
    [/access_log \/var\/log\/nginx\/access\.log /, `access_log ${to.accessLog} `],
  ];
  const lines = source.split('\n');
  for (const [pattern, replacement] of replacements) {
    const at = lines.findIndex((l) => pattern.test(l) && l.includes('# test: replaced'));
    if (at < 0) throw new Error(`deploy/nginx.conf has no line marked "test: replaced" matching ${pattern}`);
    lines[at] = lines[at]!.replace(pattern, replacement);
  }
  const marked = source.split('\n').filter((l) => l.includes('# test: replaced')).length;
  if (marked !== replacements.length) throw new Error(`deploy/nginx.conf marks ${marked} lines "test: replaced"; the test replaces ${replacements.length}`);
  return lines.join('\n');
}

interface PingSeen {
  ua: string;
  remoteAddr: string;
  scheme: string;
}

const PINGS = (code: string) => `subscription { pings(checkId: "${code}") { ua remoteAddr scheme } }`;

describe.skipIf(missing.length > 0)(`nginx (deploy/nginx.conf) in front of two instances${SKIPPED}`, () => {
  let bundle: ServerBundle;
  let database: { url: string; drop(): Promise<void> };
  let apiKey: string;
  const instances: GatewayProcess[] = [];
  let dir: string;
  let nginx: ChildProcess | undefined;
  let nginxOutput = '';
  let proxy: string;
  let wsClient: Client | undefined;
  const sse = new AbortController();

  beforeAll(async () => {
    [bundle, database] = await Promise.all([bundleServer(), freshPostgresDatabase(admin!)]);
    const opened = openDb(database.url);
    try {
      apiKey = (await createProject(opened.db, { name: 'Behind nginx' })).api_key;
    } finally {
      await opened.db.$disconnect();
      await opened.pool?.end();
    }
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      REDIS_CHANNEL_PREFIX: uniqueNamespace(),
      TRUSTED_PROXIES: '127.0.0.1',
      PG_POOL_SIZE: '4',
      NOTIFIER: 'off',
    };
    instances.push(...(await Promise.all([startGatewayProcess(bundle, env), startGatewayProcess(bundle, env)])));
    for (const inst of instances) await waitFor(`${inst.url}/readyz`, async () => (await fetch(`${inst.url}/readyz`)).status === 200, WAIT_MS);

    dir = mkdtempSync(path.join(tmpdir(), 'gateway-nginx-'));
    // Run as root, nginx's workers drop to "nobody" and must reach their temp folders in here.
    chmodSync(dir, 0o755);
    const listen = await freePort();
    const site = renderNginxConf(readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8'), {
      upstreams: [instances[0]!.port, instances[1]!.port],
      listen,
      accessLog: path.join(dir, 'access.log'),
    });
    writeFileSync(path.join(dir, 'gateway.conf'), site);
    // What Debian's /etc/nginx/nginx.conf provides around conf.d/*.conf, with paths in `dir`.
    const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        'worker_processes 1;',
        `error_log ${path.join(dir, 'error.log')} warn;`,
        'events { worker_connections 256; }',
        'http {',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
        `include ${path.join(dir, 'gateway.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    nginx = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', `daemon off; pid ${path.join(dir, 'nginx.pid')};`], {
      env: { ...process.env, PATH: NGINX_PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nginx.stdout!.on('data', (d) => (nginxOutput += d));
    nginx.stderr!.on('data', (d) => (nginxOutput += d));
    proxy = `http://127.0.0.1:${listen}`;
    await waitFor('nginx listening', async () => {
      if (nginx!.exitCode !== null) throw new Error(`nginx exited (${nginx!.exitCode}):\n${nginxOutput}`);
      return fetch(`${proxy}/healthz`).then((r) => r.ok, () => false);
    }, WAIT_MS);
  }, 180_000);

  afterAll(async () => {
    sse.abort();
    await wsClient?.dispose();
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(instances.map((i) => i.stop()));
    await database?.drop();
    bundle?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** Which instance holds each live subscription: their gauges, read from each instance directly. */
  const activeSubscriptions = () => Promise.all(instances.map((i) => counterSum(i.url, 'gateway_subscriptions_active')));

  it('delivers a ping sent through nginx to one instance to WebSocket and SSE subscribers on the other, with the forwarded client address', async () => {
    const created = await fetch(`${proxy}/api/v3/checks/`, {
      method: 'POST',
      headers: { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'behind-nginx' }),
    });
    expect(created.status).toBe(201);
    const code = ((await created.json()) as { uuid: string }).uuid;

    // WebSocket through nginx (the Upgrade and Connection headers of deploy/nginx.conf).
    const overWs: PingSeen[] = [];
    wsClient = createClient({ url: `${proxy.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': apiKey }, retryAttempts: 0 });
    let wsFailure: unknown;
    wsClient.subscribe<{ pings: PingSeen }>({ query: PINGS(code) }, { next: (r) => (r.data ? overWs.push(r.data.pings) : (wsFailure = r.errors)), error: (e) => (wsFailure = e), complete: () => {} });
    await waitFor('the WebSocket subscription', async () => {
      if (wsFailure) throw new Error(`the WebSocket subscription through nginx failed: ${wsFailure instanceof Error ? wsFailure.message : JSON.stringify(wsFailure)}`);
      return (await activeSubscriptions()).reduce((a, b) => a + b) === 1;
    }, WAIT_MS);
    const wsOn = (await activeSubscriptions()).indexOf(1);

    // SSE through nginx (proxy_buffering off: each event arrives as it is sent).
    const res = await fetch(`${proxy}/graphql`, {
      method: 'POST',
      signal: sse.signal,
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'X-Api-Key': apiKey },
      body: JSON.stringify({ query: PINGS(code) }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    await waitFor('the SSE subscription', async () => (await activeSubscriptions()).reduce((a, b) => a + b) === 2, WAIT_MS);
    const counts = await activeSubscriptions();
    const sseOn = counts[wsOn] === 2 ? wsOn : 1 - wsOn;
    const overSse: PingSeen[] = [];
    let sseText = '';
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body!) {
          sseText += decoder.decode(chunk as Uint8Array, { stream: true });
          let end: number;
          while ((end = sseText.indexOf('\n\n')) >= 0) {
            const event = sseText.slice(0, end);
            sseText = sseText.slice(end + 2);
            const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n');
            if (data) overSse.push((JSON.parse(data) as { data: { pings: PingSeen } }).data.pings);
          }
        }
      } catch {
        // Aborted at the end of the test.
      }
    })();

    // Pings through nginx (round robin) until each instance has served one; the instance that
    // served a ping is the one whose access log has nginx's request id for it.
    const servedBy = new Map<string, number>();
    for (let n = 0; n < 10 && new Set(servedBy.values()).size < 2; n++) {
      const ua = `cron-${n}`;
      const ping = await fetch(`${proxy}/ping/${code}`, { headers: { 'User-Agent': ua, 'X-Forwarded-For': '203.0.113.7' } });
      expect(await ping.text()).toBe('OK');
      const requestId = ping.headers.get('x-request-id')!;
      // nginx's $request_id (32 hex digits), kept by the gateway because nginx is a trusted proxy.
      expect(requestId).toMatch(/^[0-9a-f]{32}$/);
      await waitFor(`the access-log line of ${ua}`, () => instances.some((i) => i.logLines().some((l) => l.requestId === requestId)), WAIT_MS);
      servedBy.set(ua, instances.findIndex((i) => i.logLines().some((l) => l.requestId === requestId)));
    }
    expect(new Set(servedBy.values()), 'round robin over both instances').toEqual(new Set([0, 1]));

    await waitFor('every ping over WebSocket and SSE', () => overWs.length >= servedBy.size && overSse.length >= servedBy.size, WAIT_MS);
    expect(wsFailure).toBeUndefined();
    const expected = [...servedBy.keys()].map((ua) => ({ ua, remoteAddr: '203.0.113.7', scheme: 'http' }));
    // Sorted: a ping's event reaches the subscribers on its own instance and on the other by
    // different paths, so two pings served by different instances may arrive in either order.
    const byUa = (a: PingSeen, b: PingSeen) => a.ua.localeCompare(b.ua);
    expect([...overWs].sort(byUa)).toEqual(expected);
    expect([...overSse].sort(byUa)).toEqual(expected);
    // Each subscriber got at least one ping that the other instance took (through Redis).
    expect([...servedBy.values()]).toContain(1 - wsOn);
    expect([...servedBy.values()]).toContain(1 - sseOn);

    // The ping log (read through nginx too) holds the forwarded client, not nginx's address.
    const log = await fetch(`${proxy}/api/v3/checks/${code}/pings/`, { headers: { 'X-Api-Key': apiKey } });
    const pings = ((await log.json()) as { pings: Array<{ remote_addr: string; ua: string }> }).pings;
    expect(pings.map((p) => p.remote_addr)).toEqual(pings.map(() => '203.0.113.7'));
    expect(pings.map((p) => p.ua).sort()).toEqual([...servedBy.keys()].sort());
    // nginx's own log line carries the same request id as the gateway's.
    const nginxLog = readFileSync(path.join(dir, 'access.log'), 'utf8');
    const gatewayIds = instances.flatMap((i) => i.logLines().filter((l) => String(l.route).startsWith('/ping')).map((l) => String(l.requestId)));
    for (const id of gatewayIds) expect(nginxLog).toContain(`rid=${id}`);
  }, 120_000);
});
