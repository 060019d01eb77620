// What the ping ingest needs from the database, inside one transaction: read the checks a batch
// pings, compare-and-set their new state, append pings and flips, prune ping logs.
import type { Check, Ping } from '../../generated/prisma/client.ts';
import type { OutboxTx } from '../notifications/outbox.ts';

export type NewPing = Omit<Ping, 'id'>;
export interface NewFlip {
  checkId: number;
  createdAt: Date;
  oldStatus: string;
  newStatus: string;
  reason: string;
}

export interface PingTx extends OutboxTx {
  checkByCode(code: string): Check | undefined;
  checkById(id: number): Check | undefined;
  /** How many pings of each check of the project are kept (the API lists them). */
  pingLogLimit(projectId: string): number;
  /** Writes `after` if the row still has `before`'s ping count; false when it changed. */
  updateCheck(before: Check, after: Check): boolean;
  /** Returns the new ping's id. */
  insertPing(ping: NewPing): number;
  /** Returns the new flip's id. */
  insertFlip(flip: NewFlip): number;
  /** Deletes the check's pings numbered up to `n`. */
  prunePings(checkId: number, n: number): void;
}

export interface PingStore {
  /** Runs `work` in one transaction: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (tx: PingTx) => T): Promise<T>;
}
