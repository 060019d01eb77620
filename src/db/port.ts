// What domain code may ask of the database beyond Prisma's portable queries, answered by the
// dialect that runs (sqlite/port.ts, postgres/port.ts): which errors mean "run it again", nested
// rollback points inside a transaction, and whether the database answers at all. The domain
// never reads a driver's error code or writes SQL of its own for these.
import type { PrismaClient as Db } from '../generated/prisma/client.ts';

export interface DatabasePort {
  /** SQLite's SQLITE_BUSY: another connection holds the write lock; the failed transaction wrote nothing. */
  isBusy(err: unknown): boolean;
  /** PostgreSQL's deadlock (40P01): the server rolled this transaction back; it wrote nothing. */
  isDeadlock(err: unknown): boolean;
  /** Busy or deadlock: running the whole transaction again is safe. */
  isRetryable(err: unknown): boolean;
  /** Rollback points inside an open transaction (`tx` is the transaction's client). */
  savepoints: Savepoints;
  /** Resolves when the database answers a trivial statement; rejects with the driver's error otherwise. */
  healthCheck(): Promise<void>;
}

export interface Savepoints {
  open(tx: Db, name: string): Promise<void>;
  /** Keeps what was written since `open` (the transaction may still roll it all back). */
  release(tx: Db, name: string): Promise<void>;
  /** Undoes what was written since `open`, and ends the savepoint. */
  rollback(tx: Db, name: string): Promise<void>;
}

/** Savepoint names are ours (a prefix and a counter), never input: anything else is refused. */
const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checked(name: string): string {
  if (!NAME.test(name)) throw new Error(`invalid savepoint name: ${JSON.stringify(name)}`);
  return name;
}

/** SAVEPOINT, RELEASE and ROLLBACK TO are spelled alike in SQLite and PostgreSQL. */
export const standardSavepoints: Savepoints = {
  open: async (tx, name) => {
    await tx.$executeRawUnsafe(`SAVEPOINT ${checked(name)}`);
  },
  release: async (tx, name) => {
    await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${checked(name)}`);
  },
  rollback: async (tx, name) => {
    await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${checked(name)}`);
    await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${checked(name)}`);
  },
};
