// SQLite's disk fills (issue #30): every write is answered 503 with Retry-After (a ping that was
// not stored is never answered 200), reads keep working, the file stays sound, and writes resume
// by themselves when space returns; every ping answered 200 is stored. The full disk is SQLite's
// own: `max_page_count` set to the file's size on the server's connection makes the next page a
// write needs fail with SQLITE_FULL, as a full disk does, and raising it is the space returning.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { gql } from '../helpers/gql.ts';

describe('SQLite’s disk full', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-disk-full-'));
  let w: World;
  beforeAll(async () => {
    // Always SQLite (this is about its file), so the PostgreSQL pass need not run it again.
    w = await createWorld({ DATABASE_URL: `file:${path.join(dir, 'gateway.db')}` });
  });
  afterAll(async () => {
    await w?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const onConnection = <T>(work: (db: Database.Database) => T) => w.app.exclusive((connection) => work(connection as Database.Database));

  it('answers writes 503 while full, keeps serving reads, stays sound, and writes again when space returns', async () => {
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'nightly' } });
    const code = created.json.ping_url.split('/').pop() as string;
    let acknowledged = 0;
    const ping = async () => {
      const res = await w.ping(`/ping/${code}`, { method: 'POST', body: 'log line\n'.repeat(1000) });
      if (res.status === 200) acknowledged++;
      return res;
    };
    for (let i = 0; i < 5; i++) expect((await ping()).status).toBe(200);

    const pages = await onConnection((db) => db.pragma('page_count', { simple: true }) as number);
    await onConnection((db) => db.pragma(`max_page_count = ${pages}`));
    const during = [];
    for (let i = 0; i < 20; i++) during.push(await ping());
    expect(during.map((r) => r.status)).toEqual(Array(20).fill(503));
    expect(during[0]!.headers.get('retry-after')).toBe('5');
    // Writes that need new pages (a long description), through the API and GraphQL.
    const long = 'x'.repeat(20_000);
    const write = await w.api('POST', '/api/v3/checks/', { body: { name: 'another', desc: long } });
    expect([write.status, write.json]).toEqual([503, { error: 'database unavailable, try again shortly' }]);
    const mutation = await gql(w, 'mutation($desc: String) { createCheck(input: { name: "another", desc: $desc }) { check { name } } }', { desc: long });
    expect(mutation.errors?.[0]).toMatchObject({ extensions: { code: 'UNAVAILABLE' } });

    // Reads go on: the check and exactly the pings that were answered 200.
    const checks = await w.api('GET', '/api/v3/checks/');
    expect(checks.status).toBe(200);
    expect(checks.json.checks.map((c: { name: string; n_pings: number }) => [c.name, c.n_pings])).toEqual([['nightly', 5]]);
    expect((await gql(w, '{ project { name } }')).data).toEqual({ project: { name: 'Alice' } });
    expect(await onConnection((db) => db.pragma('integrity_check', { simple: true }))).toBe('ok');

    // Space again: writes resume by themselves.
    await onConnection((db) => db.pragma('max_page_count = 1073741823'));
    expect((await ping()).status).toBe(200);
    expect((await w.api('POST', '/api/v3/checks/', { body: { name: 'another' } })).status).toBe(201);
    expect(await w.app.db.ping.count()).toBe(acknowledged);
    expect(acknowledged).toBe(6);
    expect(await onConnection((db) => db.pragma('integrity_check', { simple: true }))).toBe('ok');
  });
});
