// A running gateway for tests: its own SQLite file, a ManualClock, the monitor off (tests run
// passes by hand), and named actors: alice (read-write + read-only keys) and bob (another project).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp, type App, type BuildOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { createProject, type CreatedProject } from '../../src/monitoring/projects/service.ts';
import { createChannel } from '../../src/monitoring/integrations/service.ts';
import { createScriptToken } from '../../src/campus/auth.ts';
import { freshPostgresDatabase, postgresUnderTest } from './postgres.ts';

export interface World {
  app: App;
  databaseUrl: string;
  url: string;
  clock: ManualClock;
  alice: CreatedProject;
  bob: CreatedProject;
  api(method: string, path: string, options?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<ApiResponse>;
  ping(path: string, init?: RequestInit): Promise<{ status: number; text: string; headers: Headers }>;
  channel(project: CreatedProject, input: { kind?: string; value?: string; name?: string }): Promise<{ code: string; name: string }>;
  /** A campus session token for a new person at `level` (Slate's Authorization: Token). */
  campusToken(level: string): Promise<{ token: string; person_id: number }>;
  /** A campus REST call: form fields by default, JSON with `json: true`. */
  campus(method: string, path: string, options?: { token?: string | null; fields?: Record<string, unknown>; json?: boolean }): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** Status, headers, text, and the body parsed as JSON when it is JSON. */
async function readResponse(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const T0 = new Date('2026-01-05T10:00:00Z');

export async function createWorld(env: Record<string, string> = {}, options: Pick<BuildOptions, 'eventFanout'> = {}): Promise<World> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-test-'));
  const clock = new ManualClock(T0);
  // The PostgreSQL pass (TEST_DB=postgres) gives every world a database of its own.
  const postgres = !env.DATABASE_URL && postgresUnderTest() ? await freshPostgresDatabase() : null;
  const config = loadConfig({
    DATABASE_URL: postgres?.url ?? `file:${path.join(dir, 'test.db')}`,
    MONITOR: 'off',
    NOTIFIER: 'off',
    // Test receivers listen on 127.0.0.1.
    INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True',
    LOG_LEVEL: 'silent',
    PORT: '0',
    // Uploaded media stay in the world's own folder (PostgreSQL worlds have no SQLite file to sit beside).
    MEDIA_DIR: path.join(dir, 'media'),
    ...env,
  });
  const app = await buildApp(config, { ...options, clock, logger: pino({ level: env.LOG_LEVEL ?? 'silent' }) });
  const port = await app.start(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  // URLs in API responses are built from SITE_ROOT; point it at this server unless a test set one.
  if (!env.SITE_ROOT) app.deps.settings.siteRoot = url;
  const alice = await createProject(app.db, { name: 'Alice' });
  const bob = await createProject(app.db, { name: 'Bob' });

  return {
    app,
    databaseUrl: config.databaseUrl,
    url,
    clock,
    alice,
    bob,
    async api(method, p, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? alice.api_key : options.key;
      if (key !== null) headers['X-Api-Key'] = key;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['Content-Type'] = 'application/json';
      }
      const res = await fetch(url + p, { method, headers, body, redirect: 'manual' });
      return readResponse(res);
    },
    async ping(p, init) {
      const res = await fetch(url + p, init);
      return { status: res.status, text: await res.text(), headers: res.headers };
    },
    async channel(project, input) {
      const c = await createChannel(app.db, project.id, {
        kind: input.kind ?? 'email',
        value: input.value ?? 'ops@example.org',
        name: input.name ?? '',
      });
      return { code: c.code, name: c.name };
    },
    campusToken: (level) => createScriptToken(app.db, level),
    async campus(method, p, options = {}) {
      const headers: Record<string, string> = {};
      if (options.token) headers.Authorization = `Token ${options.token}`;
      let body: string | undefined;
      if (options.fields) {
        if (options.json) {
          headers['Content-Type'] = 'application/json';
          body = JSON.stringify(options.fields);
        } else {
          headers['Content-Type'] = 'application/x-www-form-urlencoded';
          body = new URLSearchParams(Object.entries(options.fields).map(([k, v]) => [k, String(v)])).toString();
        }
      }
      const res = await fetch(url + p, { method, headers, body });
      return readResponse(res);
    },
    async stop() {
      await app.stop();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
