// `npm run migration:new -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// with the SQL that takes the committed migrations to the current schema.prisma.
// Uses the WASM schema engine with a throwaway SQLite database as the shadow database.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAdapterFactory } from '../src/db/adapter.ts';
import { loadMigrationList, migrationsDir, schemaPath } from '../src/db/migrate.ts';
import { noFilters, openSchemaEngine } from '../src/db/schema-engine.ts';

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_');
if (!name) {
  console.error('usage: npm run migration:new -- <name>');
  process.exit(2);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'gateway-migration-'));
try {
  const engine = await openSchemaEngine(schemaPath, createAdapterFactory(`file:${tmp}/shadow.db`));
  const list = await loadMigrationList();
  const from = list.migrationDirectories.length
    ? ({ tag: 'migrations', ...list } as const)
    : ({ tag: 'empty' } as const);
  const result = await engine.diff({
    from,
    to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: readFileSync(schemaPath, 'utf8') }] },
    script: true,
    shadowDatabaseUrl: null,
    exitCode: null,
    filters: noFilters,
  } as Parameters<typeof engine.diff>[0]);
  const sql = (result as { stdout?: string }).stdout ?? '';
  if (!sql.trim() || /This is an empty migration/.test(sql)) {
    console.log('schema.prisma matches the migrations: nothing to write');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(migrationsDir, `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'migration.sql'), sql);
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
