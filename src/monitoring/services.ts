// The monitoring services the transports call, built once on the deps by the composition
// (src/composition.ts), in order: the deps, then the ping ingest and the notifier on them.
// Nothing is added to an object after it is built.
import type { MonitoringDeps } from './context.ts';
import type { PingIngest } from './pings/ingest.ts';
import type { Notifier } from './notifications/notifier.ts';

export interface MonitoringServices extends MonitoringDeps {
  /** The group-commit writer every received ping goes through. */
  pings: PingIngest;
  /** Delivers the notification outbox (and sends channel tests). */
  notifier: Notifier;
}
