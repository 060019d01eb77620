// The database gate: a statement outside a transaction waits for the open transaction instead
// of running inside it (and being rolled back with it); every statement is reported.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type CreatedDb } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createAdapterFactory, sqliteFilePath } from '../../src/db/adapter.ts';
import { gateAdapterFactory } from '../../src/db/gated-adapter.ts';
import { PrismaClient } from '../../src/generated/prisma/client.ts';

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

describe('exclusive(): the driver connection the hot paths write on', () => {
  // A TEMP table lives on one connection only: seeing it from Prisma proves the connection is Prisma's.
  const visibleToPrisma = async (db: CreatedDb['db'], table: string) =>
    db.$queryRawUnsafe(`SELECT COUNT(*) AS n FROM temp.${table}`).then(
      () => true,
      () => false,
    );

  it("takes the fast path: the adapter's own connection (its declared client field)", async () => {
    const connection = await opened.exclusive((c) => c);
    expect(connection).toBeInstanceOf(Database);
    await opened.exclusive((c) => (c as Database.Database).exec('CREATE TEMP TABLE fast_path (x)'));
    expect(await visibleToPrisma(opened.db, 'fast_path')).toBe(true);
  });

  it("falls back to a connection of its own on the same file when the adapter hides its connection", async () => {
    const url = `file:${dir}/fallback.db`;
    await migrate(url);
    const file = sqliteFilePath(url);
    const inner = createAdapterFactory(url);
    // The adapter as a release without the `client` field would be.
    const hiding = {
      provider: inner.provider,
      adapterName: inner.adapterName,
      connect: async () => {
        const adapter = await inner.connect();
        return new Proxy(adapter, {
          get: (target, key) => {
            if (key === 'client') return undefined;
            const value = Reflect.get(target, key, target) as unknown;
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    } as typeof inner;
    const factory = gateAdapterFactory(hiding, { openConnection: () => new Database(file, { timeout: 5000 }) });
    const db = new PrismaClient({ adapter: factory });
    try {
      await db.project.count(); // connects
      const connection = (await factory.exclusive((c) => c)) as Database.Database;
      expect(connection).toBeInstanceOf(Database);
      await factory.exclusive((c) => (c as Database.Database).exec('CREATE TEMP TABLE own_connection (x)'));
      expect(await visibleToPrisma(db, 'own_connection')).toBe(false);
      // Writes on it are the database's: Prisma reads them at once.
      await factory.exclusive((c) =>
        (c as Database.Database).prepare('INSERT INTO "Project" ("id", "name", "badgeKeyHash", "createdAt") VALUES (?, ?, ?, ?)').run('fb', 'fb', 'b-fb', Date.now()),
      );
      expect(await db.project.findUnique({ where: { id: 'fb' }, select: { name: true } })).toEqual({ name: 'fb' });
      // Without a fallback, a hidden connection is a clear error.
      const strict = gateAdapterFactory(hiding);
      const db2 = new PrismaClient({ adapter: strict });
      await db2.project.count();
      await expect(strict.exclusive((c) => c)).rejects.toThrow(/exposes no connection/);
      await db2.$disconnect();
    } finally {
      await db.$disconnect();
    }
  });
});
