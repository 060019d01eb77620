// The monitoring domain's storage ports: what its hot paths ask of the database, each answered
// by a SQLite and a PostgreSQL store (chosen once at start in storage.ts, which only the
// composition imports). Domain code imports these interfaces, never an implementation.
import type { DatabasePort } from '../db/port.ts';
import type { PingStore } from './pings/store.ts';
import type { MonitorStore } from './monitor/store.ts';
import type { NotificationStore } from './notifications/store.ts';
import type { TransactionLocks } from './transaction-locks.ts';
import type { LatestPingsQuery } from './pings/latest-pings.ts';

export interface MonitoringStores {
  pings: PingStore;
  monitor: MonitorStore;
  notifications: NotificationStore;
  locks: TransactionLocks;
  /** The windowed ping listing (pings/service.ts latestPings) in this database's SQL. */
  latestPings: LatestPingsQuery;
  /** Retryable errors, savepoints and the health check of the database the stores run on. */
  database: DatabasePort;
}
