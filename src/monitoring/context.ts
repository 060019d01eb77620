// What every monitoring domain function needs: the database and its storage ports, the clock,
// the event bus and the settings that shape URLs and limits. Built once by the composition
// (src/composition.ts); the services built on it (ping ingest, notifier) are in services.ts.
// Only types are imported here: the domain depends on ports, never on implementations.
import type { Db } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import type { MonitoringEvents } from '../events/bus.ts';
import type { MonitoringStores } from './ports.ts';

export interface MonitoringSettings {
  /** The base of every URL the API returns (SITE_ROOT). */
  siteRoot: string;
  /** Label of the all-checks badge (Healthchecks' MASTER_BADGE_LABEL, default SITE_NAME). */
  siteName: string;
  /** Bytes of a ping body kept; null: unlimited. */
  pingBodyLimit: number | null;
  /** The domain of ping email addresses; null when the SMTP listener is off. */
  pingEmailDomain: string | null;
}

export interface MonitoringDeps {
  db: Db;
  /** The ports on this database (SQLite or PostgreSQL): the domain never asks which one runs. */
  storage: MonitoringStores;
  clock: Clock;
  events: MonitoringEvents;
  /** One object shared by everything built on these deps (a test may point siteRoot at its server). */
  settings: MonitoringSettings;
}

/** The caller of the management API: one project, reached through one of its keys. */
export interface ProjectAccess {
  projectId: string;
  readOnly: boolean;
}
