// What every monitoring domain function needs: the database and its storage ports, the clock,
// the event bus and the settings that shape URLs and limits. Built once by the composition
// (src/composition.ts); the services built on it (ping ingest, notifier) are in services.ts.
// Only types are imported here: the domain depends on ports, never on implementations.
import type { Actor, Role } from '../identity/roles.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import type { MonitoringEvents } from '../events/bus.ts';
import type { MonitoringStores } from './ports.ts';

export interface MonitoringSettings {
  /** The base of every URL the API returns (SITE_ROOT). */
  siteRoot: string;
  /** The base of ping URLs (PING_ENDPOINT, ending in "/"); null: `${siteRoot}/ping/` (pings/url.ts). */
  pingEndpoint: string | null;
  /** Label of the all-checks badge (Healthchecks' MASTER_BADGE_LABEL, default SITE_NAME). */
  siteName: string;
  /** Bytes of a ping body kept; null: unlimited. */
  pingBodyLimit: number | null;
  /** The domain of ping email addresses; null when the SMTP listener is off. */
  pingEmailDomain: string | null;
  /** SECRET_KEY (signs badge URLs); unset or null: the installation's own (secret-key.ts). */
  secretKey?: string | null;
  /** PROMETHEUS_ENABLED; unset: true (Healthchecks' default). */
  prometheusEnabled?: boolean;
  /**
   * The channel kinds this server can send (offeredChannelKinds of its settings): only these are
   * created and offered. Unset: every kind.
   */
  offeredKinds?: readonly string[];
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

/**
 * The caller of the management API in one project: reached through one of its keys, or by a
 * person signed in with a role there. `readOnly` is the one rule every read and write obeys
 * (a read-only key, a read-only member); `role` adds the owner's and managers' rights over
 * members and keys; `actor` is who the audit log names.
 */
export interface ProjectAccess {
  projectId: string;
  readOnly: boolean;
  role: Role;
  actor: Actor;
}
