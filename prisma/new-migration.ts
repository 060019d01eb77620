// `npm run migration:new -- <name>`: writes the migration that takes the committed migrations
// to the current schema.prisma, for SQLite (prisma/migrations/<stamp>_<name>/) and PostgreSQL
// (prisma/postgres/migrations/<stamp>_<name>/, and the derived prisma/postgres/schema.prisma).
// Then `node scripts/prisma-generate.mjs` regenerates both clients.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from '../src/db/migrate.ts';
import { diffMigrationsToSchema, pendingPostgresMigration } from '../src/db/schema-diff.ts';
import { postgresSchemaPath } from '../src/db/postgres/schema.ts';

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_');
if (!name) {
  console.error('usage: npm run migration:new -- <name>');
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const write = (dir: string, sql: string) => {
  const target = path.join(dir, `${stamp}_${name}`);
  mkdirSync(target, { recursive: true });
  writeFileSync(path.join(target, 'migration.sql'), sql + '\n');
  console.log(`wrote ${path.relative(process.cwd(), target)}/migration.sql`);
};

const sqlite = await diffMigrationsToSchema();
const postgres = await pendingPostgresMigration();
if (!sqlite && !postgres.sql) console.log('schema.prisma matches the migrations: nothing to write');
if (sqlite) write(MIGRATIONS.sqlite.dir, sqlite);
if (postgres.sql) {
  write(MIGRATIONS.postgresql.dir, postgres.sql);
  writeFileSync(postgresSchemaPath, postgres.schema);
}
