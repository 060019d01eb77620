// The database port (src/db/port.ts) on the database under test (SQLite, and PostgreSQL in the
// second pass): savepoints undo exactly what they cover, the health check answers, and the
// retryable errors are recognized from the real driver's errors, not from strings we made up.
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { providerOf } from '../../src/db/provider.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import type { Db } from '../../src/db/client.ts';

const w = useWorld();
const port = () => w.app.deps.storage.database;
const project = (id: string) => ({ id, name: id, badgeKeyHash: `badge-${id}` });

it('answers the health check', async () => {
  await expect(port().healthCheck()).resolves.toBeUndefined();
});

it('rolls back to a savepoint: what it covered is undone, what came before stands', async () => {
  await w.app.db.$transaction(async (tx) => {
    await tx.project.create({ data: project('kept') });
    await port().savepoints.open(tx as Db, 'item_1');
    await tx.project.create({ data: project('undone') });
    await port().savepoints.rollback(tx as Db, 'item_1');
    await port().savepoints.open(tx as Db, 'item_2');
    await tx.project.create({ data: project('released') });
    await port().savepoints.release(tx as Db, 'item_2');
  });
  const ids = (await w.app.db.project.findMany({ where: { id: { in: ['kept', 'undone', 'released'] } } })).map((p) => p.id).sort();
  expect(ids).toEqual(['kept', 'released']);
});

it('refuses a savepoint name that is not ours', async () => {
  await expect(port().savepoints.open(w.app.db, 'x; DROP TABLE "Check"')).rejects.toThrow(/invalid savepoint name/);
});

it('recognizes the real retryable error of this database, and nothing else', async () => {
  expect(port().isRetryable(new Error('boom'))).toBe(false);
  if (providerOf(w.databaseUrl) === 'sqlite') {
    // Another connection holds the write lock: SQLITE_BUSY from the driver itself.
    const holder = new Database(sqliteFilePath(w.databaseUrl));
    const other = new Database(sqliteFilePath(w.databaseUrl), { timeout: 0 });
    holder.exec('BEGIN IMMEDIATE');
    let busy: unknown;
    try {
      other.exec('BEGIN IMMEDIATE');
    } catch (err) {
      busy = err;
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      other.close();
    }
    expect(port().isBusy(busy)).toBe(true);
    expect(port().isRetryable(busy)).toBe(true);
    expect(port().isDeadlock(busy)).toBe(false);
    return;
  }
  // PostgreSQL: two transactions lock two rows in opposite orders; the server picks a victim.
  await w.app.db.project.createMany({ data: [project('a'), project('b')] });
  const pool = new pg.Pool({ connectionString: w.databaseUrl, max: 2 });
  const [one, two] = [await pool.connect(), await pool.connect()];
  try {
    await one.query('BEGIN');
    await two.query('BEGIN');
    await one.query(`UPDATE "Project" SET "name" = 'x' WHERE "id" = 'a'`);
    await two.query(`UPDATE "Project" SET "name" = 'y' WHERE "id" = 'b'`);
    const results = await Promise.allSettled([
      one.query(`UPDATE "Project" SET "name" = 'x' WHERE "id" = 'b'`),
      two.query(`UPDATE "Project" SET "name" = 'y' WHERE "id" = 'a'`),
    ]);
    const failure = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failure).toBeDefined();
    expect(port().isDeadlock(failure.reason)).toBe(true);
    expect(port().isRetryable(failure.reason)).toBe(true);
    expect(port().isBusy(failure.reason)).toBe(false);
  } finally {
    await one.query('ROLLBACK').catch(() => {});
    await two.query('ROLLBACK').catch(() => {});
    one.release();
    two.release();
    await pool.end();
  }
});
