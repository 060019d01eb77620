// The monitoring stores for the database DATABASE_URL names, chosen once at start by the
// composition (src/composition.ts). Domain code sees only the ports (ports.ts).
import type { CreatedDb } from '../db/client.ts';
import type { MonitoringStores } from './ports.ts';
import { sqlitePingStore } from './pings/sqlite-store.ts';
import { sqliteMonitorStore } from './monitor/sqlite-store.ts';
import { sqliteNotificationStore } from './notifications/sqlite-store.ts';
import { postgresMonitoringStores } from './postgres-storage.ts';
import { oneWriterLocks } from './transaction-locks.ts';
import { latestPingsQuery } from './pings/latest-pings-store.ts';

export function monitoringStores(created: CreatedDb): MonitoringStores {
  if (created.provider === 'postgresql') return postgresMonitoringStores(created.pool!, created.observe, created.port);
  return {
    pings: sqlitePingStore(created.exclusive),
    monitor: sqliteMonitorStore(created.exclusive),
    notifications: sqliteNotificationStore(created.exclusive),
    locks: oneWriterLocks,
    latestPings: latestPingsQuery('sqlite'),
    database: created.port,
  };
}
