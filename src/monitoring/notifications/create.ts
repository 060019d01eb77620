// The notifier as the server and the CLI build it, from the settings and the database.
import type { Logger } from 'pino';
import type { Config } from '../../config/index.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { MonitoringEvents } from '../../events/bus.ts';
import type { DeliverySource } from './deliveries.ts';
import { Notifier } from './notifier.ts';
import type { NotificationStore } from './store.ts';
import type { DatabasePort } from '../../db/port.ts';

export interface NotifierParts {
  db: Db;
  /** The outbox on this database (monitoring/storage.ts). */
  store: NotificationStore;
  /** The database port the stores run on (which errors are worth a retry). */
  database: DatabasePort;
  config: Pick<Config, 'notify' | 'retry' | 'notifyConcurrency' | 'notifyPollMs' | 'notifyKeepDays' | 'secretKey'>;
  clock: Clock;
  events: MonitoringEvents;
  describeCheck: DeliverySource['describeCheck'];
  log?: Logger;
}

export function createNotifier(p: NotifierParts): { notifier: Notifier; store: NotificationStore } {
  const store = p.store;
  const notifier = new Notifier({
    store,
    database: p.database,
    source: { db: p.db, settings: p.config.notify, describeCheck: p.describeCheck, now: () => p.clock.now(), secretKey: p.config.secretKey },
    events: p.events,
    clock: p.clock,
    retry: p.config.retry,
    concurrency: p.config.notifyConcurrency,
    pollMs: p.config.notifyPollMs,
    keepDays: p.config.notifyKeepDays,
    log: p.log,
  });
  return { notifier, store };
}
