// A better-sqlite3 transaction on the server's own connection, between Prisma's statements
// (see gated-adapter.ts `exclusive`). For the hot paths where Prisma's per-row cost is too high:
// ping ingest and monitor passes. Statements run through `observe` are counted like Prisma's.
import type Database from 'better-sqlite3';
import type { StatementListener } from '../gated-adapter.ts';

export type Exclusive = <T>(work: (connection: unknown, observe: StatementListener) => T) => Promise<T>;

/**
 * Runs `work` in BEGIN IMMEDIATE ... COMMIT (the write lock is taken up front, so no other
 * process commits between the transaction's reads and its writes); rolls back if it throws.
 */
export function immediateTransaction<T>(exclusive: Exclusive, work: (db: Database.Database, observe: StatementListener) => T): Promise<T> {
  return exclusive((connection, observe) => {
    const db = connection as Database.Database;
    observe('BEGIN IMMEDIATE');
    const result = db.transaction(() => work(db, observe)).immediate();
    observe('COMMIT');
    return result;
  });
}

/** Dates are stored as Unix milliseconds, as the Prisma adapter is configured (adapter.ts). */
export const millis = (d: Date | null) => (d === null ? null : d.getTime());

/**
 * Reads rows of `statement` as objects about a third faster than better-sqlite3's own objects:
 * the statement returns arrays (raw mode) and a function compiled once from its column names
 * builds each object as a literal. Column names come from our schema, never from input.
 */
export function rowReader(statement: Database.Statement): (...params: unknown[]) => Record<string, unknown> | undefined {
  statement.raw(true);
  const columns = statement.columns().map((c) => c.name);
  const build = new Function('r', `return {${columns.map((c, i) => `${JSON.stringify(c)}: r[${i}]`).join(', ')}}`) as (
    row: unknown[],
  ) => Record<string, unknown>;
  return (...params) => {
    const row = statement.get(...params) as unknown[] | undefined;
    return row && build(row);
  };
}
