// buildApp(config) -> { server, start, stop }: the whole gateway as a value, in three steps:
// open the database (db/open.ts), build the services (composition.ts), build the HTTP server
// (http/gateway-server.ts). Only server.ts listens on a real port; tests build apps on port 0
// with their own clock and database.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogDestination } from './shared/log-destination.ts';
import pino, { type Logger } from 'pino';
import type { Config } from './config/index.ts';
import type { CreatedDb, Db } from './db/client.ts';
import type { StatementListener } from './db/gated-adapter.ts';
import { openDatabase } from './db/open.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import type { MonitoringServices } from './monitoring/services.ts';
import type { GatewayServices } from './services.ts';
import type { Monitor } from './monitoring/monitor/loop.ts';
import type { Notifier } from './monitoring/notifications/notifier.ts';
import type { ReportScheduler } from './monitoring/reports/scheduler.ts';
import type { OutboxRelay } from './events/outbox.ts';
import { composeServices, type CompositionOptions } from './composition.ts';
import { buildHttpServer, type HttpParts } from './http/gateway-server.ts';
import { closeTransports } from './monitoring/integrations/kinds/index.ts';
import { startEmailPings, type EmailPingListener } from './monitoring/email-pings/listener.ts';
import { secretKey } from './monitoring/secret-key.ts';

export { FANOUT_DEGRADED } from './http/gateway-server.ts';

export interface BuildOptions {
  clock?: Clock;
  logger?: Logger;
  /** Registers extra routes (benchmarks add their baselines this way). */
  routes?: HttpParts['routes'];
  /** With REDIS_URL: the channel namespace and reconnect delays (tests keep theirs apart and short). */
  eventFanout?: CompositionOptions['eventFanout'];
}

export interface App {
  server: http.Server;
  /** The monitoring services (deps, ping ingest, notifier) the transports are given. */
  deps: MonitoringServices;
  /** Both domains' services, as the transports receive them. */
  services: GatewayServices;
  db: Db;
  /** Calls `listener` with every SQL statement the app sends; returns an unsubscribe. */
  onStatement(listener: StatementListener): () => void;
  /** Runs `work` on the database driver's own connection, between Prisma's statements. */
  exclusive: CreatedDb['exclusive'];
  monitor: Monitor;
  notifier: Notifier;
  /** Email reports and nags: runs with the monitor (tests run passes with tick()). */
  reports: ReportScheduler;
  /** With REDIS_URL: publishes events committed by an instance that did not get them out (runs every second once started). */
  outboxRelay: OutboxRelay | null;
  /** The SMTP listener for email pings, when SMTPD_PORT is set (its bound port after start). */
  smtpd: EmailPingListener | null;
  log: Logger;
  /** Applies migrations, starts the monitor and listens; resolves with the bound port. */
  start(port?: number, host?: string): Promise<number>;
  stop(): Promise<void>;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  // Standard output through a bounded, asynchronous buffer (shared/log-destination.ts).
  const destination = options.logger ? null : createLogDestination();
  const log = options.logger ?? pino({ level: config.logLevel }, destination!.stream);
  const database = await openDatabase(config, log);
  // The installation's secret is made now, not by the first request that needs it: reads (a
  // badge, a consent page) then never write, not even a 404 (the fuzz suite's "no change").
  await secretKey(database.db, config.secretKey).catch((err: unknown) => log.warn({ err }, 'installation secret not made at start; made on first need'));
  const composed = composeServices(database, config, { clock: options.clock ?? systemClock, log, eventFanout: options.eventFanout });
  const { services, monitor, notifier, reports, fanout, outboxRelay } = composed;
  let stopRelay: (() => Promise<void>) | null = null;
  const http = buildHttpServer(config, { ...composed, onStatement: database.onStatement, log, routes: options.routes });
  const { server } = http;
  let smtpd: EmailPingListener | null = null;

  return {
    server,
    deps: services.monitoring,
    services,
    db: database.db,
    onStatement: database.onStatement,
    exclusive: database.exclusive,
    monitor,
    notifier,
    reports,
    outboxRelay,
    get smtpd() {
      return smtpd;
    },
    log,
    async start(port = config.port, host = config.host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      if (config.monitorEnabled) {
        monitor.start();
        reports.start();
      }
      if (config.notifierEnabled) notifier.start();
      stopRelay = outboxRelay?.start() ?? null;
      if (config.smtpdPort !== null) smtpd = await startEmailPings(services.monitoring, { port: config.smtpdPort, host, domain: config.pingEmailDomain, log });
      return (server.address() as AddressInfo).port;
    },
    async stop() {
      await smtpd?.close();
      await monitor.stop();
      await reports.stop();
      await http.closeWebSocket();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Pings already received are committed and answered before connections are cut.
      await services.monitoring.pings.drain();
      // Deliveries under way finish and record their outcome; pending ones wait in the outbox.
      await notifier.stop();
      closeTransports(config.notify);
      server.closeAllConnections();
      await closed;
      http.closeMetrics();
      await stopRelay?.();
      await fanout?.close();
      await database.close();
      // The last lines reach the reader if it reads; a stalled one does not hold the exit.
      await destination?.flushWithin();
    },
  };
}
