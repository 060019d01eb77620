// What a monitor pass needs from the database: one page of due checks at a time, read and
// written in one transaction (SQLite: on the driver's connection; PostgreSQL: rows claimed
// with FOR UPDATE SKIP LOCKED, so instances sharing the database share the work and each
// going-down flip is recorded once).
import type { Check } from '../../generated/prisma/client.ts';
import type { PendingFlip } from '../flips/pending-flip.ts';
import type { MaybePromise, OutboxTx } from '../notifications/outbox.ts';

/**
 * Called with the page inside its transaction, after its writes: records the page's events
 * there (events/outbox.ts). Synchronous on SQLite. May be called again if the page is retried.
 */
export type RecordPageEvents = (page: MonitorPage, tx: OutboxTx) => MaybePromise<void>;

export interface MonitorCursor {
  alertAfter: number;
  id: number;
}

export interface MonitorPage {
  /** Rows read (a full page means there may be more). */
  read: number;
  /** Where the next page starts. */
  last: MonitorCursor;
  /** Checks moved to down in this page, as stored after the change. */
  down: Check[];
  flips: PendingFlip[];
  rescheduled: number;
}

export interface MonitorStore {
  /** Handles the due checks after `after` (at most `pageSize`) in one committed transaction. */
  passPage(now: Date, after: MonitorCursor, pageSize: number, recordEvents: RecordPageEvents): Promise<MonitorPage>;
  /**
   * How many pages a pass may have in flight at once when more than one page is due. SQLite: 1
   * (one writer). PostgreSQL: several, each claiming rows the others have not (SKIP LOCKED).
   */
  readonly parallelPages: number;
}
