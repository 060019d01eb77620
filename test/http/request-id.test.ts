// X-Request-Id: a sane token from a trusted proxy is kept, anything else (a client's own
// included) is replaced by a short random id; the id is on every response and access-log line.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { newRequestId } from '../../src/http/request-id.ts';
import { T0 } from '../helpers/world.ts';
import { freshPostgresDatabase, postgresUnderTest } from '../helpers/postgres.ts';

const GENERATED = /^[A-Za-z0-9_-]{12}$/;

/** A gateway on loopback with `env`, its access-log lines collected. */
async function gateway(env: Record<string, string>) {
  const lines: Array<Record<string, unknown>> = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-reqid-'));
  const postgres = postgresUnderTest() ? await freshPostgresDatabase() : null;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({ DATABASE_URL: postgres?.url ?? `file:${path.join(dir, 'test.db')}`, MONITOR: 'off', NOTIFIER: 'off', PORT: '0', ...env });
  const app = await buildApp(config, { clock: new ManualClock(T0), logger: pino({ level: 'info' }, sink) });
  const url = `http://127.0.0.1:${await app.start(0, '127.0.0.1')}`;
  const stop = async () => {
    await app.stop();
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  /** The access-log line of the response that carried `id` (lines are written when a response closes). */
  async function loggedWith(id: string) {
    const find = () => lines.find((l) => l.msg === 'request' && l.requestId === id);
    for (let i = 0; i < 100 && !find(); i++) await new Promise((r) => setImmediate(r));
    return find();
  }
  return { url, stop, loggedWith };
}

describe('X-Request-Id from a trusted proxy', () => {
  let url = '';
  let loggedWith: Awaited<ReturnType<typeof gateway>>['loggedWith'];
  let stop: () => Promise<void>;
  beforeAll(async () => {
    // The test's requests come from loopback: here, the trusted proxy.
    ({ url, stop, loggedWith } = await gateway({ TRUSTED_PROXIES: '127.0.0.1,::1' }));
  });
  afterAll(() => stop());

  it('echoes a sane id from the request and logs it', async () => {
    const id = 'edge-7f3a.b2:9_X';
    const res = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': id } });
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(await loggedWith(id)).toMatchObject({ route: '/healthz', status: 200, requestId: id });
  });

  it('logs the client X-Forwarded-For names behind the trusted proxy', async () => {
    const id = 'edge-forwarded';
    await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': id, 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' } });
    expect(await loggedWith(id)).toMatchObject({ remoteAddress: '203.0.113.9' });
  });

  it('accepts 200 characters', async () => {
    const id = 'a'.repeat(200);
    expect((await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': id } })).headers.get('x-request-id')).toBe(id);
  });

  it('generates a short random id when none is sent', async () => {
    const a = (await fetch(`${url}/healthz`)).headers.get('x-request-id')!;
    const b = (await fetch(`${url}/healthz`)).headers.get('x-request-id')!;
    expect(a).toMatch(GENERATED);
    expect(b).toMatch(GENERATED);
    expect(a).not.toBe(b);
    expect(await loggedWith(a)).toMatchObject({ route: '/healthz', requestId: a });
  });

  it('generates ids that do not repeat across many refills of its random pool', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) ids.add(newRequestId());
    expect(ids.size).toBe(20_000);
    for (const id of ids) expect(id).toMatch(GENERATED);
  });

  it.each([
    ['too long', 'a'.repeat(201)],
    ['a space', 'two words'],
    ['a quote', 'x"y'],
    ['a slash', 'a/b'],
    ['non-ASCII', 'caf\u00e9'],
    ['empty', ''],
  ])('replaces an id with %s', async (_what, given) => {
    const res = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': given } });
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(GENERATED);
    expect(id).not.toBe(given);
    const logged = await loggedWith(id);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).not.toContain(given || '\u0000');
  });

  it('replaces repeated X-Request-Id headers (joined, no longer one token)', async () => {
    const res = await fetch(`${url}/healthz`, { headers: [['X-Request-Id', 'one'], ['X-Request-Id', 'two']] });
    expect(res.headers.get('x-request-id')).toMatch(GENERATED);
  });

  it('is on every kind of response: errors, redirects, REST, GraphQL, readiness', async () => {
    const responses = await Promise.all([
      fetch(`${url}/nowhere`),
      fetch(`${url}/api/v3/checks/`),
      fetch(`${url}/api/v3/checks`, { redirect: 'manual' }),
      fetch(`${url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query":"{ __typename }"}' }),
      fetch(`${url}/readyz`),
      fetch(`${url}/metrics`),
    ]);
    expect(responses.map((r) => r.status)).toEqual([404, 401, 301, 200, 200, 200]);
    for (const r of responses) {
      const id = r.headers.get('x-request-id')!;
      expect(id).toMatch(GENERATED);
      expect((await loggedWith(id))?.status).toBe(r.status);
    }
  });
});

describe('X-Request-Id from anyone else', () => {
  let g: Awaited<ReturnType<typeof gateway>>;
  beforeAll(async () => {
    g = await gateway({ TRUSTED_PROXIES: '10.0.0.0/8' });
  });
  afterAll(() => g.stop());

  it('replaces a sane id sent by a client that is not a trusted proxy, and logs the peer, not X-Forwarded-For', async () => {
    const res = await fetch(`${g.url}/healthz`, { headers: { 'X-Request-Id': 'client-chosen', 'X-Forwarded-For': '203.0.113.9' } });
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(GENERATED);
    expect(await g.loggedWith(id)).toMatchObject({ route: '/healthz', remoteAddress: '127.0.0.1' });
  });
});
