// prisma/postgres/schema.prisma is derived from prisma/schema.prisma: the same models for
// PostgreSQL, generated into their own client. `npm run migration:new` rewrites it; a test
// (test/db/postgres-migrations.test.ts) fails when the committed copy is out of step.
import path from 'node:path';
import { prismaRoot } from '../../paths.ts';

export const postgresPrismaDir = path.join(prismaRoot, 'postgres');
export const postgresSchemaPath = path.join(postgresPrismaDir, 'schema.prisma');
export const postgresMigrationsDir = path.join(postgresPrismaDir, 'migrations');

const HEADER = `// GENERATED from ../schema.prisma by \`npm run migration:new\` (src/db/postgres/schema.ts):
// do not edit. The same models for PostgreSQL, with their own client and migrations.
`;

export function postgresSchemaFrom(sqliteSchema: string): string {
  let text = sqliteSchema;
  // The Pothos types come from the SQLite client; the models (and so the types) are the same.
  text = text.replace(/\ngenerator pothos \{[^}]*\}\n/, '\n');
  text = text.replace(/output\s*=\s*"\.\.\/src\/generated\/prisma"/, 'output       = "../../src/generated/prisma-pg"');
  text = text.replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"');
  if (text.includes('"sqlite"') || !text.includes('prisma-pg')) throw new Error('prisma/schema.prisma changed shape: update src/db/postgres/schema.ts');
  return HEADER + text;
}
