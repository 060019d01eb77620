// The SQL that takes the committed migrations to the current schema.prisma ('' when they
// agree). The engine's shadow-database path needs the native engine, so we apply the
// migrations to a scratch SQLite file and diff that live database against the schema.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAdapterFactory } from './adapter.ts';
import { loadMigrationList, schemaPath } from './migrate.ts';
import { schemaFilters, openSchemaEngine } from './schema-engine.ts';

export async function diffMigrationsToSchema(): Promise<string> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'gateway-migration-'));
  try {
    const { engine, close } = await openSchemaEngine(schemaPath, createAdapterFactory(`file:${tmp}/scratch.db`));
    try {
    await engine.applyMigrations({ migrationsList: await loadMigrationList(), filters: schemaFilters });
    const schemaText = readFileSync(schemaPath, 'utf8');
    const files = [{ path: schemaPath, content: schemaText }];
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: path.dirname(schemaPath) },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      shadowDatabaseUrl: null,
      exitCode: null,
      filters: schemaFilters,
    } as Parameters<typeof engine.diff>[0]);
    const sql = (result as { stdout?: string }).stdout ?? '';
    return /This is an empty migration/.test(sql) ? '' : sql.trim();
    } finally {
      await close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
