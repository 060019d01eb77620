// Applies the committed migrations at server start (and from `npm run migrate`): SQLite's
// from prisma/migrations/, PostgreSQL's from prisma/postgres/migrations/ (the same model,
// kept in step by `npm run migration:new`). Idempotent: applied migrations are recorded in
// _prisma_migrations. The SQL is applied by migration-applier.ts, not Prisma's schema engine,
// which only development commands load (schema-diff.ts).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { prismaRoot } from '../paths.ts';
import { sqliteFilePath } from './adapter.ts';
import { providerOf, type Provider } from './provider.ts';
import { applyPostgresMigrations, applySqliteMigrations, type Migration } from './migration-applier.ts';
import { postgresMigrationsDir, postgresSchemaPath } from './postgres/schema.ts';
import { keepConnectionErrorsFromCrashing } from './postgres/connection-errors.ts';

export const prismaDir = prismaRoot;
export const migrationsDir = path.join(prismaDir, 'migrations');
export const schemaPath = path.join(prismaDir, 'schema.prisma');

export const MIGRATIONS = {
  sqlite: { dir: migrationsDir, schema: schemaPath },
  postgresql: { dir: postgresMigrationsDir, schema: postgresSchemaPath },
} as const;

export async function loadMigrationList(provider: Provider = 'sqlite') {
  const dir = MIGRATIONS[provider].dir;
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    entries.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: await readFile(path.join(dir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(path.join(dir, 'migration_lock.toml'), 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

const APPLIED = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/**
 * True when every committed migration is recorded as applied. Read with a plain read-only
 * connection so a CLI run beside a live server never waits on the schema engine's locks.
 */
function sqliteUpToDate(databaseUrl: string, names: string[]): boolean {
  const file = sqliteFilePath(databaseUrl);
  if (file === ':memory:' || !existsSync(file)) return false;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return false;
    const applied = new Set((db.prepare(APPLIED).all() as Array<{ migration_name: string }>).map((r) => r.migration_name));
    return names.every((n) => applied.has(n));
  } finally {
    db.close();
  }
}

/** The committed migrations of a provider, in order. */
async function committedMigrations(provider: Provider): Promise<Migration[]> {
  const list = await loadMigrationList(provider);
  return list.migrationDirectories.map((d) => ({ name: d.path, sql: d.migrationFile.content.value }));
}

/** Brings the database at `databaseUrl` up to date; returns the names of migrations applied. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  if (providerOf(databaseUrl) === 'postgresql') return migratePostgres(databaseUrl);
  const migrations = await committedMigrations('sqlite');
  if (sqliteUpToDate(databaseUrl, migrations.map((m) => m.name))) return [];
  return applySqliteMigrations(sqliteFilePath(databaseUrl), migrations);
}

/** Any constant shared by every instance: the session-level advisory lock that serialises migrations. */
const MIGRATION_LOCK = 727_073_001;

/**
 * Instances starting together on an empty database would each apply the migrations: the
 * first to take the advisory lock migrates, the others wait for it and then find nothing to do.
 */
async function migratePostgres(databaseUrl: string): Promise<string[]> {
  const migrations = await committedMigrations('postgresql');
  const names = migrations.map((m) => m.name);
  const client = keepConnectionErrorsFromCrashing(new pg.Client({ connectionString: databaseUrl }));
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const table = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
      if (table.rows[0].present) {
        const applied = new Set((await client.query(APPLIED)).rows.map((r) => r.migration_name as string));
        if (names.every((n) => applied.has(n))) return [];
      }
      return await applyPostgresMigrations(client, migrations);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}
