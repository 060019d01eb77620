// The migration applier (src/db/migration-applier.ts): the committed SQL without Prisma's schema
// engine, `_prisma_migrations` as Prisma writes it (each side reads the other's work), table
// redefinitions that keep the rows referencing them, failures that leave nothing behind, and
// a server whose imports never reach the schema engine.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrationList, migrate } from '../../src/db/migrate.ts';
import { applyPostgresMigrations, applySqliteMigrations, MigrationFailed, type Migration } from '../../src/db/migration-applier.ts';
import { createAdapterFactory } from '../../src/db/adapter.ts';
import { filtersFor, openSchemaEngine } from '../../src/db/schema-engine.ts';
import { MIGRATIONS } from '../../src/db/migrate.ts';
import { createDatabase, dropDatabase, withDatabase } from '../../src/db/postgres/admin.ts';
import { testPostgresUrl } from '../helpers/postgres.ts';
import { importGraph } from '../architecture/import-graph.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-applier-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshFile = () => path.join(dir, `db-${++n}.sqlite`);

const committed = async (): Promise<Migration[]> =>
  (await loadMigrationList('sqlite')).migrationDirectories.map((d) => ({ name: d.path, sql: d.migrationFile.content.value }));
const rowsOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs FROM _prisma_migrations ORDER BY migration_name').all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
};

describe('on SQLite', () => {
  it('records each migration as Prisma does: its SHA-256, finished, one step', async () => {
    const file = freshFile();
    const all = await committed();
    expect(applySqliteMigrations(file, all)).toEqual(all.map((m) => m.name));
    const rows = rowsOf(file);
    expect(rows.map((r) => r.migration_name)).toEqual(all.map((m) => m.name));
    for (const [i, row] of rows.entries()) {
      expect(row).toMatchObject({ checksum: createHash('sha256').update(all[i]!.sql).digest('hex'), rolled_back_at: null, applied_steps_count: 1, logs: null });
      expect(typeof row.finished_at).toBe('number');
    }
    expect(applySqliteMigrations(file, all)).toEqual([]);
  });

  it('reads what Prisma’s schema engine applied, and Prisma reads what it applied', async () => {
    const all = await committed();
    // Prisma first (all but the last), then the applier: only the last is left to it.
    const byPrisma = `file:${freshFile()}`;
    const list = await loadMigrationList('sqlite');
    const { engine, close } = await openSchemaEngine(MIGRATIONS.sqlite.schema, createAdapterFactory(byPrisma));
    try {
      await engine.applyMigrations({ migrationsList: { ...list, migrationDirectories: list.migrationDirectories.slice(0, -1) }, filters: filtersFor('sqlite') });
    } finally {
      await close();
    }
    expect(applySqliteMigrations(byPrisma.slice(5), all)).toEqual([all.at(-1)!.name]);

    // The applier first (all but the last), then Prisma applies the last one only.
    const byUs = freshFile();
    applySqliteMigrations(byUs, all.slice(0, -1));
    const second = await openSchemaEngine(MIGRATIONS.sqlite.schema, createAdapterFactory(`file:${byUs}`));
    try {
      const { appliedMigrationNames } = await second.engine.applyMigrations({ migrationsList: list, filters: filtersFor('sqlite') });
      expect(appliedMigrationNames).toEqual([all.at(-1)!.name]);
    } finally {
      await second.close();
    }
  });

  it('redefines a table without cascading to the rows that reference it', async () => {
    const all = await committed();
    // The migration that rebuilds Channel (drop, create, copy) while CheckChannel and Notification point at it.
    const at = all.findIndex((m) => m.name.endsWith('_channel_email_verified'));
    expect(at).toBeGreaterThan(0);
    const file = freshFile();
    applySqliteMigrations(file, all.slice(0, at));
    const db = new Database(file);
    try {
      db.exec(`INSERT INTO Project (id, name, apiKeyHash, apiKeyReadonlyHash, pingKey, badgeKey, createdAt) VALUES ('p1', 'Ops', 'h1', 'h2', 'pk', 'bk', 0)`);
    } catch {
      // The project's columns vary across migrations: fill what this version has.
      const columns = (db.prepare("SELECT name, \"notnull\" AS nn, dflt_value AS d FROM pragma_table_info('Project')").all() as Array<{ name: string; nn: number; d: unknown }>).filter((c) => c.nn && c.d === null);
      db.prepare(`INSERT INTO Project (${columns.map((c) => `"${c.name}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => (c.name === 'id' ? 'p1' : c.name.endsWith('At') ? 0 : `${c.name}-1`)));
    }
    db.exec(`INSERT INTO "Check" (id, code, projectId, name, createdAt, uniqueKey, badgeKey) VALUES (1, 'c1', 'p1', 'backup', 0, 'u1', 'b1')`);
    db.exec(`INSERT INTO Channel (id, code, projectId, kind, value) VALUES (1, 'ch1', 'p1', 'email', 'ops@example.org')`);
    db.exec('INSERT INTO CheckChannel (checkId, channelId) VALUES (1, 1)');
    db.close();

    expect(applySqliteMigrations(file, all)).toEqual(all.slice(at).map((m) => m.name));
    const after = new Database(file, { readonly: true });
    try {
      expect(after.prepare('SELECT checkId, channelId FROM CheckChannel').all()).toEqual([{ checkId: 1, channelId: 1 }]);
      expect(after.prepare('SELECT code, emailVerified FROM Channel').all()).toEqual([{ code: 'ch1', emailVerified: 1 }]);
    } finally {
      after.close();
    }
  });

  it('keeps nothing of a batch with a failing migration, and names it', async () => {
    const all = await committed();
    const file = freshFile();
    applySqliteMigrations(file, all);
    const broken: Migration[] = [...all, { name: '29990101000000_good', sql: 'CREATE TABLE "Extra" (id INTEGER PRIMARY KEY);' }, { name: '29990101000001_bad', sql: 'ALTER TABLE "Nope" ADD COLUMN x TEXT;' }];
    let error: unknown;
    try {
      applySqliteMigrations(file, broken);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(MigrationFailed);
    expect((error as Error).message).toMatch(/^migration 29990101000001_bad failed, and was rolled back: no such table: Nope/);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'Extra'").get()).toBeUndefined();
    } finally {
      db.close();
    }
    expect(rowsOf(file)).toHaveLength(all.length);
  });
});

describe('the server', () => {
  it('never imports the schema engine: only development commands do', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const graph = importGraph(root, ['src', 'rest-compat']);
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.get(file) ?? []) visit(next);
    };
    visit('src/server.ts');
    visit('src/cli/run.ts');
    expect(reached.has('src/db/migrate.ts')).toBe(true);
    expect([...reached].filter((f) => /schema-engine|schema-diff/.test(f))).toEqual([]);
  });
});

const admin = testPostgresUrl();
describe.skipIf(!admin)('on PostgreSQL', () => {
  it('applies each migration in its own transaction: a failing one leaves the ones before it, and nothing of itself', async () => {
    const name = `gateway_applier_${Date.now()}`;
    await createDatabase(admin!, name);
    const url = withDatabase(admin!, name);
    try {
      expect((await migrate(url)).length).toBeGreaterThan(0);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const applied = (await client.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0].n as number;
        const extra: Migration[] = [
          { name: '29990101000000_good', sql: 'CREATE TABLE "Extra" (id INTEGER PRIMARY KEY);' },
          { name: '29990101000001_bad', sql: 'CREATE TABLE "Half" (id INTEGER); ALTER TABLE "Nope" ADD COLUMN x TEXT;' },
        ];
        await expect(applyPostgresMigrations(client, extra)).rejects.toThrow(/^migration 29990101000001_bad failed, and was rolled back: relation "Nope" does not exist/);
        expect((await client.query(`SELECT to_regclass('"Extra"') IS NOT NULL AS extra, to_regclass('"Half"') IS NOT NULL AS half`)).rows[0]).toEqual({ extra: true, half: false });
        const rows = (await client.query('SELECT migration_name, checksum, applied_steps_count FROM _prisma_migrations ORDER BY migration_name')).rows;
        expect(rows).toHaveLength(applied + 1);
        expect(rows.at(-1)).toEqual({ migration_name: '29990101000000_good', checksum: createHash('sha256').update(extra[0]!.sql).digest('hex'), applied_steps_count: 1 });
      } finally {
        await client.end();
      }
    } finally {
      await dropDatabase(admin!, name);
    }
  });
});
