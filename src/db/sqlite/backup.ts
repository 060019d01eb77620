// Backups of the embedded database: SQLite's online backup API copies a consistent snapshot page
// by page while the server goes on serving (readers and the group-commit writer take turns with
// it; a write during a step makes SQLite restart from the changed pages). The copy is written
// beside its destination and renamed into place only once it is complete and checked, so a
// crash or a full disk never leaves a half file under the name the operator asked for.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { providerOf } from '../provider.ts';
import { sqliteFilePath } from '../adapter.ts';

export interface BackupSummary {
  file: string;
  bytes: number;
  /** The migrations the copy has (the last one names its schema's version). */
  migrations: number;
  lastMigration: string | null;
}

/** A file that is no database of this server, or is damaged: refused before anything is changed. */
export class BackupRefused extends Error {}

/** The SQLite file DATABASE_URL names; PostgreSQL is refused, pointing at its own tools. */
export function embeddedDatabaseFile(databaseUrl: string, verb: string): string {
  if (providerOf(databaseUrl) !== 'sqlite') throw new BackupRefused(`${verb} is for the embedded SQLite database; on PostgreSQL use pg_dump and pg_restore (docs/operations.md, "Backups")`);
  return sqliteFilePath(databaseUrl);
}

function summarize(file: string): BackupSummary {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupRefused(`${file} is damaged: ${String(check)}`);
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) throw new BackupRefused(`${file} is not a database of this server (no _prisma_migrations table)`);
    const applied = db.prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name').all() as Array<{ migration_name: string }>;
    return { file, bytes: statSync(file).size, migrations: applied.length, lastMigration: applied.at(-1)?.migration_name ?? null };
  } catch (err) {
    if (err instanceof BackupRefused) throw err;
    throw new BackupRefused(`${file} is not a readable SQLite database: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

/** Copies `source` (a live database) to `out`, which must not exist; returns what the copy holds. */
export async function backupSqlite(source: string, out: string): Promise<BackupSummary> {
  if (!existsSync(source)) throw new BackupRefused(`there is no database at ${source}`);
  if (existsSync(out)) throw new BackupRefused(`${out} already exists: choose a new file (a backup never overwrites one)`);
  const folder = path.dirname(path.resolve(out));
  if (!existsSync(folder)) throw new BackupRefused(`${folder}: no such folder`);
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.partial-${process.pid}`);
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(partial);
    // The copy is a rollback-journal file of its own, readable without the source's WAL.
    const copy = new Database(partial);
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const summary = summarize(partial);
    renameSync(partial, out);
    return { ...summary, file: out };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

/**
 * Puts a backup's content into `target` (through the same API, under SQLite's locks), after
 * checking it is a sound database of this server. The server must be stopped first: it keeps
 * state in memory (due checks, caches) that a database replaced under it would contradict.
 */
export async function restoreSqlite(backup: string, target: string): Promise<BackupSummary> {
  summarize(backup);
  const source = new Database(backup, { readonly: true, fileMustExist: true });
  try {
    await source.backup(target);
  } finally {
    source.close();
  }
  return { ...summarize(target), file: target };
}
