// Locks a write transaction takes so that concurrent writers see each other's work. SQLite runs
// one writer at a time, so there they are no-ops; PostgreSQL runs transactions side by side.
import type { Prisma } from '../generated/prisma/client.ts';

export interface TransactionLocks {
  /** Holds the check's row until the transaction ends: its state is read, then rewritten. */
  check(tx: Prisma.TransactionClient, id: number): Promise<void>;
  /** Queues the transactions that may create the same (project, slug) check. */
  slug(tx: Prisma.TransactionClient, projectId: string, slug: string): Promise<void>;
}

export const oneWriterLocks: TransactionLocks = {
  check: async () => {},
  slug: async () => {},
};
