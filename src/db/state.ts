// What is at DATABASE_URL before anything opens it: nothing, a database without the gateway's
// tables, one that needs migrations, or one ready to use. Read-only, with plain connections, so
// a CLI run beside a live server never takes its locks (the CLI refuses to create a database
// by accident: src/cli/database.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadMigrationList } from './migrate.ts';
import { sqliteFilePath } from './adapter.ts';
import { providerOf } from './provider.ts';
import { redactUrl } from '../shared/redact-url.ts';
import { keepConnectionErrorsFromCrashing } from './postgres/connection-errors.ts';

export type DatabaseState =
  /** `migrateCreates`: `migrate` makes it (an SQLite file); else it is created on its server first (createdb). */
  | { kind: 'missing'; migrateCreates: boolean }
  /** It exists but no migration was applied to it: not a gateway database (yet). */
  | { kind: 'unmigrated' }
  | { kind: 'pending'; names: string[] }
  | { kind: 'ready' };

/** The database cannot be reached or read; the message names it (password hidden) and says why. */
export class DatabaseUnreachable extends Error {}

const APPLIED = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

function stateOf(applied: Set<string> | null, known: string[]): DatabaseState {
  if (applied === null || applied.size === 0) return { kind: 'unmigrated' };
  const pending = known.filter((n) => !applied.has(n));
  return pending.length ? { kind: 'pending', names: pending } : { kind: 'ready' };
}

export async function databaseState(databaseUrl: string): Promise<DatabaseState> {
  const provider = providerOf(databaseUrl);
  const known = (await loadMigrationList(provider)).migrationDirectories.map((d) => d.path);
  if (provider === 'sqlite') {
    const file = sqliteFilePath(databaseUrl);
    if (file === ':memory:' || !existsSync(file)) return { kind: 'missing', migrateCreates: true };
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
      const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
      return stateOf(table ? new Set((db.prepare(APPLIED).all() as Array<{ migration_name: string }>).map((r) => r.migration_name)) : null, known);
    } catch (err) {
      throw new DatabaseUnreachable(`cannot read the database at ${databaseLocation(databaseUrl)}: ${(err as Error).message}`);
    } finally {
      db?.close();
    }
  }
  const client = keepConnectionErrorsFromCrashing(new pg.Client({ connectionString: databaseUrl }));
  try {
    await client.connect();
  } catch (err) {
    // 3D000 (invalid_catalog_name): the server is there, the database is not.
    if ((err as { code?: string }).code === '3D000') return { kind: 'missing', migrateCreates: false };
    throw new DatabaseUnreachable(`cannot connect to the database ${databaseLocation(databaseUrl)}: ${(err as Error).message}`);
  }
  try {
    const table = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
    const applied = table.rows[0].present ? new Set((await client.query(APPLIED)).rows.map((r) => r.migration_name as string)) : null;
    return stateOf(applied, known);
  } finally {
    await client.end();
  }
}

/** The database as an operator recognizes it: an SQLite file's full path (and the URL when relative), a server URL without its password. */
export function databaseLocation(databaseUrl: string): string {
  if (providerOf(databaseUrl) !== 'sqlite') return redactUrl(databaseUrl);
  const file = sqliteFilePath(databaseUrl);
  const full = path.resolve(file);
  return full === file ? file : `${full} (DATABASE_URL=${databaseUrl})`;
}
