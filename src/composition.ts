// The composition: builds every service of the gateway once, in order, on an opened database.
// Deps first (ports, clock, events, settings), then the services on them (ping ingest, notifier,
// monitor, campus search). The only module that picks the SQLite or PostgreSQL stores.
import type { Logger } from 'pino';
import type { Config } from './config/index.ts';
import type { CreatedDb } from './db/client.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import type { MonitoringDeps } from './monitoring/context.ts';
import type { MonitoringServices } from './monitoring/services.ts';
import type { GatewayServices } from './services.ts';
import { MonitoringEvents } from './events/bus.ts';
import { RedisFanoutEvents, type RedisFanoutOptions } from './events/redis-fanout.ts';
import { OutboxRelay } from './events/outbox.ts';
import { monitoringStores } from './monitoring/storage.ts';
import { PingIngest } from './monitoring/pings/ingest.ts';
import { createMonitor, type Monitor } from './monitoring/monitor/loop.ts';
import { createNotifier } from './monitoring/notifications/create.ts';
import type { Notifier } from './monitoring/notifications/notifier.ts';
import type { NotificationStore } from './monitoring/notifications/store.ts';
import type { IdentityDeps } from './identity/context.ts';
import { createReportScheduler, type ReportScheduler } from './monitoring/reports/scheduler.ts';
import { recordSearchFor } from './campus/search-storage.ts';
import { localMediaStorage } from './campus/media/local-storage.ts';
import { checkJson } from '../rest-compat/healthchecks/serialize.ts';
import { pingEndpoint } from './monitoring/pings/url.ts';
import { offeredChannelKinds } from './monitoring/integrations/kinds/index.ts';

export interface CompositionOptions {
  clock: Clock;
  log: Logger;
  /** With REDIS_URL: the channel namespace and reconnect delays (tests keep theirs apart and short). */
  eventFanout?: Omit<RedisFanoutOptions, 'url' | 'log'>;
}

export interface Composed {
  services: GatewayServices;
  monitor: Monitor;
  notifier: Notifier;
  notificationStore: NotificationStore;
  /** Email reports and nags (started with the monitor); their mail goes through the notifier's outbox. */
  reports: ReportScheduler;
  /** The Redis fan-out when REDIS_URL is set (its state is reported by /healthz and /metrics). */
  fanout: RedisFanoutEvents | null;
  /** With the fan-out: publishes the events an instance committed and could not get out (events/outbox.ts). */
  outboxRelay: OutboxRelay | null;
}

/** The notifier on built deps: the server's, and the CLI's for `channel test` (composeCliNotifier). */
function notifierOn(deps: MonitoringDeps, config: Config, log?: Logger) {
  return createNotifier({
    db: deps.db,
    store: deps.storage.notifications,
    database: deps.storage.database,
    config,
    clock: deps.clock,
    events: deps.events,
    // $JSON and the default webhook document: the check as API v3 shows it to a read-write key.
    describeCheck: (check, now) => checkJson(check, { siteRoot: deps.settings.siteRoot, pingEndpoint: pingEndpoint(deps.settings), apiVersion: 3, readOnly: false, now }),
    log,
  });
}

/** The CLI's notifier (`gateway channel test`): the server's, on the CLI's database connection, with no live events. */
export function composeCliNotifier(opened: CreatedDb, config: Config): Notifier {
  const deps: MonitoringDeps = {
    db: opened.db,
    storage: monitoringStores(opened),
    clock: systemClock,
    events: new MonitoringEvents(),
    settings: { siteRoot: config.siteRoot, pingEndpoint: config.pingEndpoint, siteName: config.siteName, pingBodyLimit: config.pingBodyLimit, pingEmailDomain: null, secretKey: config.secretKey },
  };
  return notifierOn(deps, config).notifier;
}

export function composeServices(opened: CreatedDb, config: Config, options: CompositionOptions): Composed {
  const { db } = opened;
  const { clock, log } = options;
  const storage = monitoringStores(opened);
  const fanout = config.redisUrl === null ? null : new RedisFanoutEvents({ namespace: config.redisChannelPrefix, ...options.eventFanout, url: config.redisUrl, log });
  const events = fanout ?? new MonitoringEvents();
  const deps: MonitoringDeps = {
    db,
    storage,
    clock,
    events,
    settings: {
      siteRoot: config.siteRoot,
      pingEndpoint: config.pingEndpoint,
      siteName: config.siteName,
      pingBodyLimit: config.pingBodyLimit,
      pingEmailDomain: config.smtpdPort === null ? null : config.pingEmailDomain,
      secretKey: config.secretKey,
      prometheusEnabled: config.prometheusEnabled,
      offeredKinds: offeredChannelKinds(config.notify),
    },
  };
  const pings = new PingIngest(deps, storage.pings);
  const { notifier, store: notificationStore } = notifierOn(deps, config, log);
  const monitoring: MonitoringServices = { ...deps, pings, notifier };
  const monitor = createMonitor(monitoring, config.monitorIntervalMs, log);
  // deps.settings is read at each mail (tests point siteRoot at their server after building).
  const reports = createReportScheduler({ db, settings: deps.settings, clock, events, mailEnabled: config.notify.email !== null, log });
  const campus = { db, clock, events, search: recordSearchFor(opened.provider, db), database: opened.port, media: localMediaStorage(config.mediaDir) };
  const identity: IdentityDeps = {
    db,
    clock,
    events,
    settings: {
      // The monitoring settings' siteRoot, read through: one site, wherever a test points it.
      get siteRoot() {
        return deps.settings.siteRoot;
      },
      siteName: config.siteName,
      registrationOpen: config.registrationOpen,
      sessions: config.sessions,
      email: config.notify.email,
    },
    log,
  };
  const outboxRelay = fanout && new OutboxRelay(db, fanout, clock, log);
  return { services: { monitoring, campus, identity }, monitor, notifier, notificationStore, reports, fanout, outboxRelay };
}
