// The monitoring hot paths' own SQL on PostgreSQL: transactions on the pool Prisma shares
// (src/db/client.ts), every statement reported like Prisma's (metrics, N+1 tests), and dates
// that survive any process or session time zone.
import pg from 'pg';
import type { StatementListener } from '../gated-adapter.ts';

/** The OID of `timestamp without time zone` (no statement here returns arrays of them). */
const TIMESTAMP = 1114;

/**
 * Our columns are `timestamp without time zone` holding UTC. pg would parse them as the
 * process's local time; this reads them as UTC, per query, leaving the process-wide parsers
 * (which Prisma's adapter shares) alone.
 */
export function utcTimestamp(text: string): Date {
  // "2026-01-05 10:00:00.12" (DateStyle ISO, PostgreSQL's default and the adapter's).
  return new Date(`${text.replace(' ', 'T')}Z`);
}

const utcTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return oid === TIMESTAMP ? utcTimestamp : pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * A Date as a `timestamp without time zone` parameter: its UTC wall time. (pg would send the
 * local time with an offset, which PostgreSQL ignores for this type: a shift by the zone.)
 */
export const ts = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export interface Sql {
  /** Runs one statement; `name` prepares it once per connection (hot statements). */
  query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[], name?: string): Promise<pg.QueryResult<R>>;
}

function sqlOn(client: pg.PoolClient | pg.Pool, observe: StatementListener): Sql {
  return {
    query(text, values = [], name) {
      observe(text);
      return client.query({ text, values, name, types: utcTypes });
    },
  };
}

/** Statements outside a transaction, each on whichever pooled connection is free. */
export function poolSql(pool: pg.Pool, observe: StatementListener): Sql {
  return sqlOn(pool, observe);
}

/**
 * Runs `work` in BEGIN ... COMMIT on one pooled connection (READ COMMITTED: rows are locked
 * explicitly where it matters); rolls back if it throws.
 */
export async function transaction<T>(pool: pg.Pool, observe: StatementListener, work: (sql: Sql) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const sql = sqlOn(client, observe);
  let broken: unknown;
  try {
    await sql.query('BEGIN');
    const result = await work(sql);
    await sql.query('COMMIT');
    return result;
  } catch (err) {
    // A connection whose ROLLBACK fails is in an unknown state: it leaves the pool.
    await sql.query('ROLLBACK').catch((e: unknown) => (broken = e));
    throw err;
  } finally {
    client.release(broken instanceof Error ? broken : undefined);
  }
}
