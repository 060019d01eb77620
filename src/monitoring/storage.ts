// The monitoring hot paths' stores for the database DATABASE_URL names, chosen once at start.
// Domain code sees only the ports (pings/store.ts, monitor/store.ts, notifications/store.ts,
// transaction-locks.ts, pings/latest-pings-store.ts).
import type { CreatedDb } from '../db/client.ts';
import type { PingStore } from './pings/store.ts';
import type { MonitorStore } from './monitor/store.ts';
import type { NotificationStore } from './notifications/store.ts';
import { sqlitePingStore } from './pings/sqlite-store.ts';
import { sqliteMonitorStore } from './monitor/sqlite-store.ts';
import { sqliteNotificationStore } from './notifications/sqlite-store.ts';
import { postgresMonitoringStores } from './postgres-storage.ts';
import { oneWriterLocks, type TransactionLocks } from './transaction-locks.ts';
import { latestPingsQuery, type LatestPingsQuery } from './pings/latest-pings-store.ts';

export interface MonitoringStores {
  pings: PingStore;
  monitor: MonitorStore;
  notifications: NotificationStore;
  locks: TransactionLocks;
  /** The windowed ping listing (pings/service.ts latestPings) in this database's SQL. */
  latestPings: LatestPingsQuery;
}

export function monitoringStores(created: CreatedDb): MonitoringStores {
  if (created.provider === 'postgresql') return postgresMonitoringStores(created.pool!, created.observe);
  return {
    pings: sqlitePingStore(created.exclusive),
    monitor: sqliteMonitorStore(created.exclusive),
    notifications: sqliteNotificationStore(created.exclusive),
    locks: oneWriterLocks,
    latestPings: latestPingsQuery('sqlite'),
  };
}
