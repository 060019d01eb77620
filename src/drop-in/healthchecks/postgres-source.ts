// A Healthchecks PostgreSQL database, read in one REPEATABLE READ READ ONLY transaction (one
// consistent picture while the instance may still run). Intervals are read in ISO 8601
// (intervalstyle), timestamps as Dates, UUIDs as text, bytea as Buffers.
import pg from 'pg';
import { SourceError, type HcInstance } from './model.ts';
import { readTables, type Row, type TableReader } from './tables.ts';
import { keepConnectionErrorsFromCrashing } from '../../db/postgres/connection-errors.ts';

const INTERVAL_OID = 1186;

export async function readPostgresInstance(url: string): Promise<HcInstance> {
  const client = new pg.Client({
    connectionString: url,
    // Intervals as their text (ISO 8601 below), which the importer parses as dumpdata's durations.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INTERVAL_OID ? (v: string) => v : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
  });
  keepConnectionErrorsFromCrashing(client);
  try {
    await client.connect();
    await client.query(`SET intervalstyle = 'iso_8601'`);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  } catch (err) {
    await client.end().catch(() => {});
    throw new SourceError(`cannot read the PostgreSQL database: ${(err as Error).message}`);
  }
  const reader: TableReader = {
    async rows(table) {
      const { rows: found } = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`public.${table}`]);
      if (!found[0]?.t) return null;
      // Table names come from the importer's own list, never from the database or the user.
      return (await client.query<Row>(`SELECT * FROM "${table}" ORDER BY 1`)).rows;
    },
    async close() {
      await client.query('ROLLBACK').catch(() => {});
      await client.end().catch(() => {});
    },
  };
  try {
    return await readTables(reader, 'text');
  } finally {
    await reader.close();
  }
}
