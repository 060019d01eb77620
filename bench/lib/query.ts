// One number read from a bench database after a run (rows stored, flips recorded), with the
// same SQL on SQLite and PostgreSQL.
import Database from 'better-sqlite3';
import pg from 'pg';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import { providerOf } from '../../src/db/provider.ts';

/** The first column of the first row of `sql` (a count or a sum), as a number. */
export async function queryNumber(databaseUrl: string, sql: string): Promise<number> {
  if (providerOf(databaseUrl) === 'sqlite') {
    const db = new Database(sqliteFilePath(databaseUrl), { readonly: true });
    try {
      return Number(Object.values(db.prepare(sql).get() as Record<string, unknown>)[0]);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // COUNT and SUM are bigint on PostgreSQL: pg hands them over as text.
    return Number(Object.values((await client.query(sql)).rows[0] as Record<string, unknown>)[0]);
  } finally {
    await client.end();
  }
}
