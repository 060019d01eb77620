// Applies the committed migrations in prisma/migrations/ at server start (and from
// `npm run migrate`). Idempotent: applied migrations are recorded in _prisma_migrations.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdapterFactory } from './adapter.ts';
import { noFilters, openSchemaEngine } from './schema-engine.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const prismaDir = path.join(root, 'prisma');
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

/** Brings the database at `databaseUrl` up to date; returns the names of migrations applied. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  const { engine, close } = await openSchemaEngine(schemaPath, createAdapterFactory(databaseUrl));
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: await loadMigrationList(),
      filters: noFilters,
    });
    return appliedMigrationNames;
  } finally {
    await close();
  }
}
