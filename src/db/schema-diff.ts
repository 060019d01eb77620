// Keeping migrations in step with the schema, per provider.
// SQLite: apply the migrations to a scratch file and diff that live database against
// schema.prisma. PostgreSQL: the WASM engine cannot read a live PostgreSQL database (it fails
// on a catalog column of type "char"), so the committed prisma/postgres/schema.prisma doubles as
// the snapshot of what the PostgreSQL migrations build: a new migration is the diff from that
// snapshot to the newly derived schema, and a test compares the catalogs of two scratch
// databases, one built by the migrations, one by the schema (postgres-catalog.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { createAdapterFactory } from './adapter.ts';
import { loadMigrationList, MIGRATIONS } from './migrate.ts';
import { filtersFor, openSchemaEngine } from './schema-engine.ts';
import { postgresSchemaFrom, postgresSchemaPath } from './postgres/schema.ts';

/** Where PostgreSQL scratch databases are made (any database on the server; trust auth here). */
export const postgresAdminUrl = () => process.env.TEST_DATABASE_URL ?? process.env.MIGRATION_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const emptyMigration = (sql: string) => (/This is an empty migration/.test(sql) ? '' : sql.trim());

export async function diffMigrationsToSchema(): Promise<string> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'gateway-migration-'));
  try {
    const schema = MIGRATIONS.sqlite.schema;
    const { engine, close } = await openSchemaEngine(schema, createAdapterFactory(`file:${tmp}/scratch.db`));
    try {
      await engine.applyMigrations({ migrationsList: await loadMigrationList('sqlite'), filters: filtersFor('sqlite') });
      const files = [{ path: schema, content: readFileSync(schema, 'utf8') }];
      const result = await engine.diff({
        from: { tag: 'schemaDatasource', files, configDir: path.dirname(schema) },
        to: { tag: 'schemaDatamodel', files },
        script: true,
        shadowDatabaseUrl: null,
        exitCode: null,
        filters: filtersFor('sqlite'),
      } as Parameters<typeof engine.diff>[0]);
      return emptyMigration((result as { stdout?: string }).stdout ?? '');
    } finally {
      await close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** PostgreSQL SQL from one datamodel to another (`from: null` = an empty database); no connection. */
export async function diffPostgresDatamodels(from: string | null, to: string): Promise<string> {
  const { engine, close } = await openSchemaEngine(postgresSchemaPath, new PrismaPg({ connectionString: postgresAdminUrl() }) as never);
  try {
    const files = (content: string) => [{ path: postgresSchemaPath, content }];
    const result = await engine.diff({
      from: from === null ? { tag: 'empty' } : { tag: 'schemaDatamodel', files: files(from) },
      to: { tag: 'schemaDatamodel', files: files(to) },
      script: true,
      shadowDatabaseUrl: null,
      exitCode: null,
      filters: filtersFor('postgresql'),
    } as Parameters<typeof engine.diff>[0]);
    return emptyMigration((result as { stdout?: string }).stdout ?? '');
  } finally {
    await close();
  }
}

/** The PostgreSQL migration the current schema.prisma needs ('' when none) and the new snapshot. */
export async function pendingPostgresMigration(): Promise<{ sql: string; schema: string }> {
  const schema = postgresSchemaFrom(readFileSync(MIGRATIONS.sqlite.schema, 'utf8'));
  const snapshot = readFileSync(postgresSchemaPath, 'utf8');
  return { sql: snapshot === schema ? '' : await diffPostgresDatamodels(snapshot, schema), schema };
}
