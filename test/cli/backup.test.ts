// `gateway backup` and `gateway restore` on the embedded database: a consistent copy taken while
// the server takes pings (every ping acknowledged before the backup began is in it), a copy
// that stands alone (no WAL beside it), a restore that brings it back and migrates it, and
// clear refusals that change nothing.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { gatewayIn } from './in-process.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-backup-'));
const live = path.join(dir, 'live.db');
const env = { DATABASE_URL: `file:${live}` };
let w: World;
beforeAll(async () => {
  // SQLite whatever database the suite runs on: backups are the embedded database's.
  w = await createWorld(env);
});
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const pingsIn = (file: string, code: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM Ping p JOIN "Check" c ON c.id = p.checkId WHERE c.code = ?').get(code) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('gateway backup and restore', () => {
  const out = path.join(dir, 'copy.db');

  it('copies the database while pings arrive: every ping acknowledged before it began is in the copy', async () => {
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'nightly' } });
    expect(created.status).toBe(201);
    const code = created.json.ping_url.split('/').pop() as string;

    let acked = 0;
    let running = true;
    const pinger = (async () => {
      while (running) if ((await w.ping(`/ping/${code}`)).status === 200) acked++;
    })();
    while (acked < 20) await new Promise((r) => setTimeout(r, 5));
    const ackedBefore = acked;
    const res = await gatewayIn(env, ['backup', '--out', out, '--json']);
    running = false;
    await pinger;

    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const summary = JSON.parse(res.stdout);
    expect(summary).toMatchObject({ file: out, migrations: expect.any(Number), lastMigration: expect.stringMatching(/^\d{14}_/) });
    expect(summary.bytes).toBeGreaterThan(0);
    const copied = pingsIn(out, code);
    expect(copied).toBeGreaterThanOrEqual(ackedBefore);
    expect(copied).toBeLessThanOrEqual(acked);
    // It stands alone: no WAL or partial file beside it, and SQLite finds it sound.
    expect(readdirSync(dir).filter((f) => f.startsWith('copy.db') || f.includes('partial'))).toEqual(['copy.db']);
    const db = new Database(out, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    } finally {
      db.close();
    }
    // The server went on: the live database has the later pings too.
    expect(pingsIn(live, code)).toBe(acked);
  });

  it('restores the copy into a new database, which then serves the same rows', async () => {
    const target = path.join(dir, 'restored.db');
    const res = await gatewayIn({ DATABASE_URL: `file:${target}` }, ['restore', '--from', out, '--json']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ file: target, applied: [] });
    const listed = await gatewayIn({ DATABASE_URL: `file:${target}` }, ['project', 'list', '--json']);
    expect(JSON.parse(listed.stdout).map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Alice', 'Bob']));
  });

  it('refuses what would lose or damage something, with one clear line, and changes nothing', async () => {
    const again = await gatewayIn(env, ['backup', '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`gateway: backup refused: ${out} already exists: choose a new file (a backup never overwrites one)\n`);

    const nowhere = await gatewayIn(env, ['backup', '--out', path.join(dir, 'missing', 'x.db')]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain(`${path.join(dir, 'missing')}: no such folder`);

    const over = await gatewayIn(env, ['restore', '--from', out]);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('restoring replaces all of it; stop the server, then run again with --yes');

    const notADatabase = path.join(dir, 'notes.txt');
    (await import('node:fs')).writeFileSync(notADatabase, 'not a database');
    const bad = await gatewayIn({ DATABASE_URL: `file:${path.join(dir, 'fresh.db')}` }, ['restore', '--from', notADatabase]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^gateway: restore refused: .*notes\.txt is not a readable SQLite database/);
    expect(readdirSync(dir)).not.toContain('fresh.db');

    const pg = await gatewayIn({ DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' }, ['backup', '--out', path.join(dir, 'pg.db')]);
    expect(pg.code).toBe(1);
    expect(pg.stderr).toContain('on PostgreSQL use pg_dump and pg_restore');
  });
});
