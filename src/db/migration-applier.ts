// Applies the committed SQL migrations without Prisma's schema engine (a pre-release WASM
// engine the server should not carry or load at run time; creating migrations stays a
// development command, prisma/new-migration.ts). It keeps `_prisma_migrations` exactly as
// Prisma writes it (a row per migration, the file's SHA-256 as checksum), so `prisma migrate`
// and this applier read each other's work.
//
// Each run takes the one-instance lock (SQLite: BEGIN IMMEDIATE; PostgreSQL: the caller's
// advisory lock), re-reads what is applied under it, and applies the rest. A migration that
// fails leaves nothing behind: it runs in a transaction with its row, unlike Prisma, which
// records a failed migration and then refuses to go on until someone resolves it by hand.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';

export interface Migration {
  /** The folder's name, e.g. 20261122112300_init (their order is the names' order). */
  name: string;
  sql: string;
}

/** Prisma's checksum: the SHA-256 of the migration file, in hex. */
export const checksumOf = (sql: string) => createHash('sha256').update(sql).digest('hex');

/** A migration that could not be applied: nothing of it (or after it) was kept. */
export class MigrationFailed extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`migration ${migration} failed, and was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationFailed';
  }
}

// Prisma's own definitions of the table (prisma-engines, sql-migration-connector).
const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;
const POSTGRES_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;
const APPLIED = 'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/** How long a second instance waits for the first one's migrations (SQLite's busy timeout). */
const SQLITE_LOCK_WAIT_MS = 60_000;

/**
 * Applies the pending migrations to the SQLite file, all in one transaction: with foreign keys
 * off (a table redefinition drops and recreates tables that others reference, which must not
 * cascade), checked before the commit.
 */
export function applySqliteMigrations(file: string, migrations: readonly Migration[], now: () => number = Date.now): string[] {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: SQLITE_LOCK_WAIT_MS });
  let current = '';
  try {
    // Outside the transaction: SQLite ignores this pragma inside one (as it does the scripts' own).
    db.pragma('foreign_keys = OFF');
    db.exec('BEGIN IMMEDIATE');
    db.exec(SQLITE_TABLE);
    const applied = new Set((db.prepare(APPLIED).all() as Array<{ migration_name: string }>).map((r) => r.migration_name));
    const pending = migrations.filter((m) => !applied.has(m.name));
    const record = db.prepare(
      'INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)',
    );
    for (const m of pending) {
      current = m.name;
      const started = now();
      db.exec(m.sql);
      // Dates as Prisma's SQLite driver stores them: milliseconds since the epoch.
      record.run(randomUUID(), checksumOf(m.sql), now(), m.name, started);
    }
    current = '';
    const broken = db.pragma('foreign_key_check') as unknown[];
    if (broken.length) throw new Error(`${broken.length} rows would break foreign keys: ${JSON.stringify(broken.slice(0, 3))}`);
    db.exec('COMMIT');
    return pending.map((m) => m.name);
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw new MigrationFailed(current || migrations.at(-1)?.name || '(none)', err);
  } finally {
    db.close();
  }
}

/**
 * Applies the pending migrations on a connected client that holds the migration lock: each in a
 * transaction of its own with its row (PostgreSQL's DDL is transactional), in order.
 */
export async function applyPostgresMigrations(client: pg.Client, migrations: readonly Migration[]): Promise<string[]> {
  await client.query(POSTGRES_TABLE);
  const applied = new Set((await client.query<{ migration_name: string }>(APPLIED)).rows.map((r) => r.migration_name));
  const done: string[] = [];
  for (const m of migrations.filter((m) => !applied.has(m.name))) {
    try {
      await client.query('BEGIN');
      const started = new Date();
      await client.query(m.sql);
      await client.query(
        'INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)',
        [randomUUID(), checksumOf(m.sql), m.name, started],
      );
      await client.query('COMMIT');
      done.push(m.name);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw new MigrationFailed(m.name, err);
    }
  }
  return done;
}
