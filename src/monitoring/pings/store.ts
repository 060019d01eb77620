// What the ping ingest needs from the database, inside one transaction per batch: (1) read the
// checks the batch names, (2) [pure, in ingest.ts: apply the pings in memory], (3) write the
// result: compare-and-set the checks, append pings and flips, prune ping logs, queue the flips'
// notifications. Each step is one call whatever the batch size, so PostgreSQL does it in a few
// round trips; on SQLite each call is synchronous (see MaybePromise in notifications/outbox.ts).
import type { Check, Ping } from '../../generated/prisma/client.ts';
import type { MaybePromise, OutboxTx } from '../notifications/outbox.ts';

export type NewPing = Omit<Ping, 'id'>;
export interface NewFlip {
  checkId: number;
  createdAt: Date;
  oldStatus: string;
  newStatus: string;
  reason: string;
}

/** The checks a batch pings, by UUID (`/ping/<uuid>`) or by id (slug URLs, email). */
export interface PingTargets {
  codes: string[];
  ids: number[];
}

export interface LoadedChecks {
  /** The named checks that exist, as stored. PostgreSQL: locked until the commit. */
  checks: Check[];
  /** How many pings of each check of the project are kept (the API lists them). */
  pingLogLimit(projectId: string): number;
}

export interface PingWrites {
  /** Each check's new state, written only if the row still has `before`'s ping count. */
  checks: Array<{ before: Check; after: Check }>;
  pings: NewPing[];
  flips: NewFlip[];
  /** Deletes each check's pings numbered up to `n`. */
  prunes: Array<{ checkId: number; n: number }>;
}

export interface WrittenIds {
  /** In the order of PingWrites' pings and flips. */
  pingIds: number[];
  flipIds: number[];
}

export interface PingTx extends OutboxTx {
  load(targets: PingTargets): MaybePromise<LoadedChecks>;
  /** null (and nothing reliable written: throw to roll back) when a check changed since it was read. */
  write(writes: PingWrites): MaybePromise<WrittenIds | null>;
}

export interface PingStore {
  /**
   * Runs `work` in one transaction: committed if it returns (or its promise resolves), rolled
   * back if it throws. On SQLite `work` must finish synchronously (every PingTx call returns a
   * value there); on PostgreSQL it returns a promise.
   */
  transaction<T>(work: (tx: PingTx) => MaybePromise<T>): Promise<T>;
  /**
   * How many batch transactions the ingest may have in flight at once. SQLite: 1 (one writer).
   * PostgreSQL: several, each on its own connection; batches sharing a check queue on its row
   * lock and commit one after the other.
   */
  readonly parallelBatches: number;
}
