// The checkpoint worker copies committed WAL pages into the database file in the background.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterAll, expect, it } from 'vitest';
import { startCheckpointer } from '../../../src/db/sqlite/checkpointer.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('moves committed pages from the WAL into the database file without the writer checkpointing', async () => {
  const file = path.join(dir, 'c.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0'); // the writer never checkpoints
  db.exec('CREATE TABLE t (v TEXT)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) insert.run('x'.repeat(200));
  })();
  const before = statSync(file).size;
  expect(statSync(`${file}-wal`).size).toBeGreaterThan(1_000_000);

  const checkpointer = startCheckpointer(file, pino({ level: 'silent' }), 20);
  try {
    // The file grows while the checkpoint copies: wait for all of it (or give up after 2 s).
    for (let i = 0; i < 200 && statSync(file).size <= before + 1_000_000; i++) await new Promise((r) => setTimeout(r, 10));
    expect(statSync(file).size).toBeGreaterThan(before + 1_000_000);
  } finally {
    await checkpointer.stop();
    db.close();
  }
});
