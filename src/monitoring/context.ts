// What every monitoring domain function needs: the database, the clock and the settings
// that shape URLs and limits. Built once by buildApp, passed to both transports.
import type { Db } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import type { MonitoringEvents } from './events.ts';
import type { PingIngest } from './pings/ingest.ts';
import type { Notifier } from './notifications/notifier.ts';
import type { MonitorStore } from './monitor/store.ts';
import type { MonitoringStores } from './storage.ts';
import type { RecordSearch } from '../campus/search.ts';

export interface MonitoringDeps {
  db: Db;
  /** The ports on this database (SQLite or PostgreSQL): the domain never asks which one runs. */
  storage: MonitoringStores;
  /** Campus search on this database (the GraphQL context hands it to the campus domain). */
  recordSearch: RecordSearch;
  clock: Clock;
  siteRoot: string;
  /** Label of the all-checks badge (Healthchecks' MASTER_BADGE_LABEL, default SITE_NAME). */
  siteName: string;
  pingBodyLimit: number | null;
  events: MonitoringEvents;
  /** The monitor's page of due checks, on this database. */
  monitorStore: MonitorStore;
  /** The group-commit writer every received ping goes through. */
  pings: PingIngest;
  /** The domain of ping email addresses; null when the SMTP listener is off. */
  pingEmailDomain: string | null;
  /** Delivers the notification outbox (and sends channel tests). */
  notifier: Notifier;
}

/** The caller of the management API: one project, reached through one of its keys. */
export interface ProjectAccess {
  projectId: string;
  readOnly: boolean;
}
