// Tests on PostgreSQL: `TEST_DB=postgres` with `TEST_DATABASE_URL` (scripts/test.mjs runs the
// suite a second time so). Each world gets a fresh database copied from a template that holds
// the migrated schema (CREATE DATABASE … TEMPLATE takes milliseconds; migrating takes seconds).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadMigrationList, migrate } from '../../src/db/migrate.ts';
import { createDatabase, databaseExists, dropDatabase, withDatabase } from '../../src/db/postgres/admin.ts';

/**
 * The server under test when this run is the PostgreSQL one; undefined on SQLite runs. Asking
 * marks the test file as one the PostgreSQL pass runs again (test/helpers/database-pass.ts).
 */
export const postgresUnderTest = (): string | undefined => {
  (globalThis as Record<string, unknown>).__gatewayTestAskedForDatabase = true;
  return process.env.TEST_DB === 'postgres' ? requiredUrl() : undefined;
};

/** A server for tests that are about PostgreSQL itself (run in both passes when it is set). */
export const testPostgresUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

function requiredUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres)');
  return url;
}

let template: Promise<string> | undefined;

async function templateName(admin: string): Promise<string> {
  const list = await loadMigrationList('postgresql');
  const hash = createHash('sha256');
  for (const d of list.migrationDirectories) hash.update(d.path).update(d.migrationFile.content.value);
  const name = `gateway_template_${hash.digest('hex').slice(0, 12)}`;
  // Test files run in parallel workers: one builds the template, the others wait for it.
  const lock = new pg.Client({ connectionString: withDatabase(admin, 'postgres') });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(727073002)');
    if (!(await databaseExists(admin, name))) {
      const building = `${name}_building`;
      await dropDatabase(admin, building);
      await createDatabase(admin, building);
      await migrate(withDatabase(admin, building));
      await lock.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    }
    return name;
  } finally {
    await lock.query('SELECT pg_advisory_unlock(727073002)').catch(() => {});
    await lock.end();
  }
}

/** A new, migrated, empty database; `drop()` removes it. */
export async function freshPostgresDatabase(admin = requiredUrl()): Promise<{ url: string; drop(): Promise<void> }> {
  template ??= templateName(admin);
  const name = `gateway_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await createDatabase(admin, name, await template);
  return { url: withDatabase(admin, name), drop: () => dropDatabase(admin, name) };
}

export const postgresMigrationsRoot = path.join(import.meta.dirname, '..', '..', 'prisma', 'postgres');
export const readPostgresSchema = () => readFileSync(path.join(postgresMigrationsRoot, 'schema.prisma'), 'utf8');

/**
 * A pool of a test's own. pg-pool's end() resolves before its connections have closed, so the
 * world's DROP DATABASE … WITH (FORCE) right after can terminate one mid-close: the pool then
 * emits 'error', which without a listener is an uncaught exception (as the server's pool has
 * one, src/db/client.ts).
 */
export function testPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {});
  return pool;
}
