// buildApp(config) -> { server, start, stop }: the whole gateway as a value. Only server.ts
// listens on a real port; tests build apps on port 0 with their own clock and database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { openDb, tuneSqlite, type CreatedDb, type Db } from './db/client.ts';
import type { StatementListener } from './db/gated-adapter.ts';
import { migrate } from './db/migrate.ts';
import { sqliteFilePath } from './db/adapter.ts';
import { startCheckpointer } from './db/checkpointer.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import type { MonitoringDeps } from './monitoring/context.ts';
import { MonitoringEvents } from './monitoring/events.ts';
import { RedisFanoutEvents, type RedisFanoutOptions } from './events/redis-fanout.ts';
import { PingIngest } from './monitoring/pings/ingest.ts';
import { monitoringStores } from './monitoring/storage.ts';
import { createMonitor, type Monitor } from './monitoring/monitor/loop.ts';
import { createGraphQLHandler } from './graphql/yoga.ts';
import { attachGraphQLWebSocket } from './graphql/ws.ts';
import { registerHealthchecksRoutes } from '../rest-compat/healthchecks/routes.ts';
import { registerCampusRoutes } from '../rest-compat/campus/routes.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { sendJson, sendText } from './http/respond.ts';
import { createRouter, routeOf, type HttpRouter } from './http/router.ts';
import { createMetrics } from './metrics/metrics.ts';
import { createAbuseLimits, LIMIT_SCOPES } from './http/limits.ts';
import { compressResponse } from './http/compression.ts';
import { registerWebRoutes } from './http/web.ts';
import { recordSearchFor } from './campus/search-storage.ts';
import { logAccess } from './http/access-log.ts';
import { loginFields, readFields } from '../rest-compat/campus/request.ts';
import { campusNotFound } from '../rest-compat/campus/extras.ts';
import { timingSafeEqual } from 'node:crypto';
import type { Notifier } from './monitoring/notifications/notifier.ts';
import { createNotifier } from './monitoring/notifications/create.ts';
import { closeEmailTransport } from './monitoring/notifications/transports/email.ts';
import { checkJson } from '../rest-compat/healthchecks/serialize.ts';
import { apiKeyInBody } from '../rest-compat/healthchecks/api-routes.ts';
import { authenticate } from './monitoring/projects/service.ts';
import { viewerFromToken } from './campus/auth.ts';
import { tokenFrom } from './graphql/context.ts';
import { startEmailPings, type EmailPingListener } from './monitoring/email-pings/listener.ts';

export interface BuildOptions {
  clock?: Clock;
  logger?: Logger;
  /** Registers extra routes (benchmarks add their baselines this way). */
  routes?: (router: HttpRouter, deps: MonitoringDeps) => void;
  /** With REDIS_URL: the channel namespace and reconnect delays (tests keep theirs apart and short). */
  eventFanout?: Omit<RedisFanoutOptions, 'url' | 'log'>;
}

export interface App {
  server: http.Server;
  deps: MonitoringDeps;
  db: Db;
  /** Calls `listener` with every SQL statement the app sends; returns an unsubscribe. */
  onStatement(listener: StatementListener): () => void;
  /** Runs `work` on the database driver's own connection, between Prisma's statements. */
  exclusive: CreatedDb['exclusive'];
  monitor: Monitor;
  notifier: Notifier;
  /** The SMTP listener for email pings, when SMTPD_PORT is set (its bound port after start). */
  smtpd: EmailPingListener | null;
  log: Logger;
  /** Applies migrations, starts the monitor and listens; resolves with the bound port. */
  start(port?: number, host?: string): Promise<number>;
  stop(): Promise<void>;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const log = options.logger ?? pino({ level: config.logLevel });
  await migrate(config.databaseUrl);
  const opened = openDb(config.databaseUrl, { poolSize: config.pgPoolSize });
  const { db, onStatement, exclusive } = opened;
  const sqlite = opened.provider === 'sqlite';
  if (sqlite) await tuneSqlite(db);
  const databaseFile = sqlite ? sqliteFilePath(config.databaseUrl) : ':memory:';
  const checkpointer = databaseFile === ':memory:' ? null : startCheckpointer(databaseFile, log);
  const stores = monitoringStores(opened);
  const fanout = config.redisUrl === null ? null : new RedisFanoutEvents({ namespace: config.redisChannelPrefix, ...options.eventFanout, url: config.redisUrl, log });
  const deps = {
    db,
    storage: stores,
    recordSearch: recordSearchFor(opened.provider, db),
    clock: options.clock ?? systemClock,
    siteRoot: config.siteRoot,
    siteName: config.siteName,
    pingBodyLimit: config.pingBodyLimit,
    pingEmailDomain: config.smtpdPort === null ? null : config.pingEmailDomain,
    events: fanout ?? new MonitoringEvents(),
    monitorStore: stores.monitor,
  } as MonitoringDeps;
  deps.pings = new PingIngest(deps, stores.pings);
  const monitor = createMonitor(deps, config.monitorIntervalMs, log);
  const { notifier, store: notificationStore } = createNotifier({
    db,
    store: stores.notifications,
    config,
    clock: deps.clock,
    events: deps.events,
    // $JSON and the default webhook document: the check as API v3 shows it to a read-write key.
    describeCheck: (check, now) => checkJson(check, { siteRoot: deps.siteRoot, apiVersion: 3, readOnly: false, now }),
    log,
  });
  deps.notifier = notifier;
  let smtpd: EmailPingListener | null = null;

  const router = createRouter({
    defaultRoute: (req, res) => {
      // Like Django's APPEND_SLASH: a GET without the trailing slash is redirected (301).
      const [path, query] = (req.url ?? '/').split(/\?(.*)/s, 2);
      if ((req.method === 'GET' || req.method === 'HEAD') && path && !path.endsWith('/') && router.find('GET', `${path}/`)) {
        res.writeHead(301, { Location: `${path}/${query ? `?${query}` : ''}`, 'Content-Length': 0 });
        return res.end();
      }
      // Under a campus prefix (bad percent-encoding included): Slate's own 404.
      if (campusNotFound(req, res)) return;
      sendJson(res, 404, { error: 'not found' });
    },
    maxParamLength: 500,
  });
  let websocket: ReturnType<typeof attachGraphQLWebSocket> | undefined;
  // Declared before the metrics that count its refusals and the keys it remembers.
  let limits: ReturnType<typeof createAbuseLimits> | undefined;
  const metrics = createMetrics({
    events: deps.events,
    clock: deps.clock,
    onStatement,
    websocketConnections: () => websocket?.wss.clients.size ?? 0,
    pendingNotifications: () => notificationStore.pendingStats(),
    sharedSubscriptions: () => ({ listeners: websocket?.shared.count() ?? 0, subscribers: websocket?.shared.subscribers() ?? 0 }),
    eventFanoutUp: fanout ? () => fanout.fanoutUp : undefined,
    rateLimitKeys: () => Object.fromEntries(LIMIT_SCOPES.flatMap((scope) => (limits?.limiters[scope] ? [[scope, limits.limiters[scope].size]] : []))),
  });
  limits = createAbuseLimits({
    settings: config.rateLimits,
    clock: deps.clock,
    onLimited: (scope) => metrics.rateLimited(scope),
    // The same fields the /login handler reads (rest-compat/campus/routes.ts); the body is read once.
    loginUsername: async (req) => {
      return loginFields(await readFields(req)).username || null;
    },
    apiBodyKey: apiKeyInBody,
    credentialValid: async (kind, value) => {
      if (kind === 'key') return authenticate(db, value, 'read').then(() => true);
      return (await viewerFromToken(db, tokenFrom(value))).personId !== null;
    },
  });
  // Liveness: answers without touching the database (also the benchmarks' no-op route).
  // With Redis away the instance still serves everything but live events from other instances:
  // still 200 (docs/decisions.md, "Redis event fan-out"), and the body says what is missing.
  router.get('/healthz', fanout ? (_req, res) => sendText(res, 200, fanout.fanoutUp ? 'OK' : FANOUT_DEGRADED) : (_req, res) => sendText(res, 200, 'OK'));
  const metricsKey = config.metricsKey === null ? null : Buffer.from(`Bearer ${config.metricsKey}`);
  router.get('/metrics', async (req, res) => {
    if (metricsKey && !sameSecret(req.headers.authorization, metricsKey)) {
      return sendText(res, 401, 'Unauthorized: send Authorization: Bearer <METRICS_KEY>\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    const body = await metrics.registry.metrics();
    res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
    res.end(body);
  });
  registerHealthchecksRoutes(router, deps, log);
  options.routes?.(router, deps);
  registerCampusRoutes(router, { db, clock: deps.clock, events: deps.events, search: deps.recordSearch }, log);
  const graphql = createGraphQLHandler(deps, log, metrics.registry, limits.loginThrottle);
  for (const path of ['/graphql', '/graphql/']) router.all(path, (req, res) => graphql.handle(req, res));
  // The dashboard at / and public status pages at /status/<slug> (src/http/web.ts).
  registerWebRoutes(router, deps, log);

  const accessLog = config.accessLog && log.isLevelEnabled('info');
  const server = http.createServer((req, res) => {
    const route = routeOf(router, req);
    metrics.observeHttp(req, res, route);
    if (accessLog) logAccess(log, req, res, route);
    // Pings answer a two-byte OK on the hot path: not worth a look.
    if (config.compressionMinBytes !== null && route !== '/ping/*') compressResponse(req, res, config.compressionMinBytes);
    const admitted = limits.admit(req, res, route);
    if (admitted === true) return router.lookup(req, res);
    if (admitted !== false) {
      admitted.then(
        (ok) => ok && router.lookup(req, res),
        (err: unknown) => {
          log.error({ err }, 'rate limit check failed');
          if (!res.headersSent) sendJson(res, 500, { success: false, message: 'internal server error' });
        },
      );
    }
  });
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  websocket = attachGraphQLWebSocket(server, graphql.yoga, deps, config.wsKeepAliveMs, limits.admitOperation);

  return {
    server,
    deps,
    db,
    onStatement,
    exclusive,
    monitor,
    notifier: deps.notifier,
    get smtpd() {
      return smtpd;
    },
    log,
    async start(port = config.port, host = config.host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      if (config.monitorEnabled) monitor.start();
      if (config.notifierEnabled) deps.notifier.start();
      if (config.smtpdPort !== null) smtpd = await startEmailPings(deps, { port: config.smtpdPort, host, domain: config.pingEmailDomain, log });
      return (server.address() as AddressInfo).port;
    },
    async stop() {
      await smtpd?.close();
      await monitor.stop();
      await websocket!.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Pings already received are committed and answered before connections are cut.
      await deps.pings.drain();
      // Deliveries under way finish and record their outcome; pending ones wait in the outbox.
      await deps.notifier.stop();
      closeEmailTransport(config.notify.email);
      server.closeAllConnections();
      await closed;
      metrics.close();
      await fanout?.close();
      await checkpointer?.stop();
      await db.$disconnect();
      await opened.pool?.end();
    },
  };
}

export const FANOUT_DEGRADED = 'OK (event fan-out degraded: redis unavailable)';

/** Compares a header with the expected secret in constant time. */
function sameSecret(header: string | undefined, expected: Buffer): boolean {
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
