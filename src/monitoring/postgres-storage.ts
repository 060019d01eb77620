// The monitoring stores on PostgreSQL, on the pool Prisma shares (src/db/client.ts): the hot
// paths' own SQL, every statement reported through `observe` like Prisma's.
import type pg from 'pg';
import type { StatementListener } from '../db/gated-adapter.ts';
import type { MonitoringStores } from './ports.ts';
import type { DatabasePort } from '../db/port.ts';
import { postgresPingStore } from './pings/postgres-store.ts';
import { postgresMonitorStore } from './monitor/postgres-store.ts';
import { postgresNotificationStore } from './notifications/postgres-store.ts';
import type { TransactionLocks } from './transaction-locks.ts';
import { latestPingsQuery } from './pings/latest-pings-store.ts';

const postgresLocks: TransactionLocks = {
  // NO KEY UPDATE: pings and flips referencing the check may still be inserted meanwhile.
  check: async (tx, id) => {
    await tx.$executeRaw`SELECT 1 FROM "Check" WHERE "id" = ${id} FOR NO KEY UPDATE`;
  },
  // A transaction-scoped advisory lock on the name: there is no row to lock before the check exists.
  slug: async (tx, projectId, slug) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${projectId}/${slug}`}, 0))`;
  },
};

export function postgresMonitoringStores(pool: pg.Pool, observe: StatementListener, database: DatabasePort): MonitoringStores {
  return {
    pings: postgresPingStore(pool, observe),
    monitor: postgresMonitorStore(pool, observe),
    notifications: postgresNotificationStore(pool, observe),
    locks: postgresLocks,
    latestPings: latestPingsQuery('postgresql'),
    database,
  };
}
