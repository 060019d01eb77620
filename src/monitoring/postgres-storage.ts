// The monitoring stores on PostgreSQL, on the pool Prisma shares (src/db/client.ts): the hot
// paths' own SQL, every statement reported through `observe` like Prisma's.
import type pg from 'pg';
import type { StatementListener } from '../db/gated-adapter.ts';
import type { MonitoringStores } from './storage.ts';
import { postgresPingStore } from './pings/postgres-store.ts';
import { postgresMonitorStore } from './monitor/postgres-store.ts';
import { postgresNotificationStore } from './notifications/postgres-store.ts';

export function postgresMonitoringStores(pool: pg.Pool, observe: StatementListener): MonitoringStores {
  return {
    pings: postgresPingStore(pool, observe),
    monitor: postgresMonitorStore(pool, observe),
    notifications: postgresNotificationStore(pool, observe),
  };
}
