// The database gate: a statement outside a transaction waits for the open transaction instead
// of running inside it (and being rolled back with it); every statement is reported.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb, type CreatedDb } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

let dir: string;
let opened: CreatedDb;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gate-'));
  const url = `file:${dir}/gate.db`;
  await migrate(url);
  opened = openDb(url);
});
afterAll(async () => {
  await opened.db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

const project = (id: string) => ({ id, name: id, badgeKeyHash: `badge-${id}` });

it('keeps a plain write out of a transaction that rolls back', async () => {
  const { db } = opened;
  let releaseTx!: () => void;
  const held = new Promise<void>((r) => (releaseTx = r));
  let txStarted!: () => void;
  const started = new Promise<void>((r) => (txStarted = r));
  const tx = db
    .$transaction(async (t) => {
      await t.project.create({ data: project('inside') });
      txStarted();
      await held;
      throw new Error('roll back');
    })
    .catch((e: Error) => e.message);
  await started;
  let plainDone = false;
  const plain = db.project.create({ data: project('outside') }).then(() => (plainDone = true));
  await new Promise((r) => setTimeout(r, 20));
  expect(plainDone).toBe(false); // waiting for the transaction, not running inside it
  releaseTx();
  expect(await tx).toBe('roll back');
  await plain;
  const ids = (await db.project.findMany({ select: { id: true } })).map((p) => p.id);
  expect(ids).toContain('outside');
  expect(ids).not.toContain('inside');
});

it('reports every statement, BEGIN and COMMIT included', async () => {
  const seen: string[] = [];
  const stop = opened.onStatement((sql) => seen.push(sql));
  await opened.db.project.count();
  await opened.db.$transaction(async (t) => {
    await t.project.count();
  });
  stop();
  await opened.db.project.count();
  expect(seen.map((s) => s.split(' ')[0])).toEqual(['SELECT', 'BEGIN', 'SELECT', 'COMMIT']);
});
