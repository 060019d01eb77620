// PostgreSQL migrations in step with the model: the derived schema is current, and a database
// built by the migrations has the same catalog as one built straight from the schema.
// Needs a PostgreSQL server (TEST_DATABASE_URL); skipped, and says so, without one.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../src/db/migrate.ts';
import { diffPostgresDatamodels } from '../../src/db/schema-diff.ts';
import { postgresSchemaFrom, postgresSchemaPath } from '../../src/db/postgres/schema.ts';
import { createDatabase, dropDatabase, withDatabase } from '../../src/db/postgres/admin.ts';
import { testPostgresUrl } from '../helpers/postgres.ts';

const admin = testPostgresUrl();

it('prisma/postgres/schema.prisma is derived from the current schema.prisma (run npm run migration:new)', () => {
  const derived = postgresSchemaFrom(readFileSync(MIGRATIONS.sqlite.schema, 'utf8'));
  expect(readFileSync(postgresSchemaPath, 'utf8')).toBe(derived);
});

/** Tables, columns, indexes and constraints of the public schema, as comparable text. */
async function catalog(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const columns = await c.query(`SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`);
    // The campus search's trigram indexes are written by hand (expression indexes, which a Prisma
    // schema cannot declare): test/campus/search.test.ts checks them.
    const indexes = await c.query(`SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' AND indexname NOT LIKE '%\\_search\\_trgm'`);
    const constraints = await c.query(`SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations'`);
    return [...columns.rows, ...indexes.rows, ...constraints.rows].map((r) => r.line as string).sort();
  } finally {
    await c.end();
  }
}

describe.skipIf(!admin)(`PostgreSQL migrations${admin ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`, () => {
  it('build the same tables, indexes and constraints as the schema itself', async () => {
    const a = `gateway_migr_${randomBytes(4).toString('hex')}`;
    const b = `gateway_schema_${randomBytes(4).toString('hex')}`;
    await createDatabase(admin!, a);
    await createDatabase(admin!, b);
    try {
      const applied = await migrate(withDatabase(admin!, a));
      expect(applied.length).toBeGreaterThan(0);
      // A second start finds nothing to do.
      expect(await migrate(withDatabase(admin!, a))).toEqual([]);
      const direct = new pg.Client({ connectionString: withDatabase(admin!, b) });
      await direct.connect();
      await direct.query(await diffPostgresDatamodels(null, readFileSync(postgresSchemaPath, 'utf8')));
      await direct.end();
      const [migrated, fromSchema] = [await catalog(withDatabase(admin!, a)), await catalog(withDatabase(admin!, b))];
      expect(migrated.length).toBeGreaterThan(50);
      expect(migrated).toEqual(fromSchema);
    } finally {
      await dropDatabase(admin!, a);
      await dropDatabase(admin!, b);
    }
  });

  it('instances starting together on an empty database migrate it once (advisory lock)', async () => {
    const name = `gateway_race_${randomBytes(4).toString('hex')}`;
    await createDatabase(admin!, name);
    try {
      const url = withDatabase(admin!, name);
      const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
      const all = results.flat();
      expect(new Set(all).size).toBe(all.length);
      expect(results.filter((r) => r.length > 0)).toHaveLength(1);
    } finally {
      await dropDatabase(admin!, name);
    }
  });
});
