// Which failures the ping ingest may run again: SQLite's busy errors, however they arrive.
import { expect, it } from 'vitest';
import { isBusyError } from '../../../src/db/sqlite/busy.ts';

it('recognises a busy error from better-sqlite3 and one wrapped by Prisma', () => {
  expect(isBusyError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' }))).toBe(true);
  const viaPrisma = Object.assign(new Error('Raw query failed'), { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: 'SQLITE_BUSY', kind: 'SocketTimeout' } } } });
  expect(isBusyError(viaPrisma)).toBe(true);
});

it('does not retry other failures', () => {
  expect(isBusyError(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(false);
  expect(isBusyError(new Error('disk I/O error'))).toBe(false);
  expect(isBusyError(undefined)).toBe(false);
});
