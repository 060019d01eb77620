// Applies the committed migrations in prisma/migrations/ at server start (and from
// `npm run migrate`). Idempotent: applied migrations are recorded in _prisma_migrations.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../paths.ts';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createAdapterFactory, sqliteFilePath } from './adapter.ts';
import { schemaFilters, openSchemaEngine } from './schema-engine.ts';

export const prismaDir = path.join(projectRoot, 'prisma');
export const migrationsDir = path.join(prismaDir, 'migrations');
export const schemaPath = path.join(prismaDir, 'schema.prisma');

export async function loadMigrationList() {
  const entries = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    entries.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(path.join(migrationsDir, 'migration_lock.toml'), 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/**
 * True when every committed migration is recorded as applied. Read with a plain read-only
 * connection so a CLI run beside a live server never waits on the schema engine's locks.
 */
function upToDate(databaseUrl: string, names: string[]): boolean {
  const file = sqliteFilePath(databaseUrl);
  if (file === ':memory:' || !existsSync(file)) return false;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return false;
    const rows = db
      .prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL')
      .all() as Array<{ migration_name: string }>;
    const applied = new Set(rows.map((r) => r.migration_name));
    return names.every((n) => applied.has(n));
  } finally {
    db.close();
  }
}

/** Brings the database at `databaseUrl` up to date; returns the names of migrations applied. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  const list = await loadMigrationList();
  if (upToDate(databaseUrl, list.migrationDirectories.map((d) => d.path))) return [];
  const { engine, close } = await openSchemaEngine(schemaPath, createAdapterFactory(databaseUrl));
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: list,
      filters: schemaFilters,
    });
    return appliedMigrationNames;
  } finally {
    await close();
  }
}
