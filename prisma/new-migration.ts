// `npm run migration:new -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// with the SQL that takes the committed migrations to the current schema.prisma.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsDir } from '../src/db/migrate.ts';
import { diffMigrationsToSchema } from '../src/db/schema-diff.ts';

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_');
if (!name) {
  console.error('usage: npm run migration:new -- <name>');
  process.exit(2);
}
const sql = await diffMigrationsToSchema();
if (!sql) {
  console.log('schema.prisma matches the migrations: nothing to write');
} else {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), sql + '\n');
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
}
