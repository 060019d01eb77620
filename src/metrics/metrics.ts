// Prometheus metrics (prom-client), one registry per app so tests and benchmarks can run
// several apps in a process. Domain code knows nothing of this: the figures come from the
// domain events (pings, flips), the database gate (statements) and the HTTP front door.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../shared/clock.ts';
import { internalListener, isRemote, subscriberCount, type GatewayEvents, type InboundEmailEvent, type NotificationEvent, type RemoteOrigin } from '../events/bus.ts';

export interface MetricsSources {
  events: GatewayEvents;
  clock: Clock;
  onStatement(listener: (sql: string) => void): () => void;
  /** Open graphql-ws connections. */
  websocketConnections(): number;
  /** WebSocket subscriptions that share one event listener: how many listeners, how many subscribers. */
  sharedSubscriptions(): { listeners: number; subscribers: number };
  /** Notifications waiting in the outbox. */
  pendingNotifications(): Promise<{ count: number; oldest: Date | null }>;
  /** Keys each rate limit currently remembers, by scope (absent: limits off). */
  rateLimitKeys?(): Record<string, number>;
  /** With REDIS_URL: whether events reach every instance (absent: one instance, no gauge). */
  eventFanoutUp?(): boolean;
}

export interface Metrics {
  registry: Registry;
  /** Times one HTTP request; `route` is the matched route pattern, never the raw URL. */
  observeHttp(req: IncomingMessage, res: ServerResponse, route: string): void;
  /** One request refused with 429 by the rate limit of `scope`. */
  rateLimited(scope: string): void;
  close(): void;
}

const SUBSCRIPTION_TOPICS = ['flip', 'checkChanged', 'ping', 'recordChanged'] as const;


/**
 * Seconds. Fine between 0.5 and 1.5 s: "a flip within a second of its going-down time" is the
 * objective an operator alerts on, and by how much a miss misses it matters too (the benchmark
 * reads its p99 from these bounds).
 */
export const MONITOR_LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 2, 5, 10, 30];

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, with their durations',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const statements = new Counter({ name: 'gateway_sql_statements_total', help: 'SQL statements sent to the database', registers: [registry] });
  const pings = new Counter({
    name: 'gateway_pings_ingested_total',
    help: 'Pings committed, by kind (success, start, fail, log, ign)',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const flips = new Counter({
    name: 'gateway_flips_recorded_total',
    help: 'Status flips recorded, by new status and reason',
    labelNames: ['new_status', 'reason'] as const,
    registers: [registry],
  });
  const monitorLag = new Histogram({
    name: 'gateway_monitor_lag_seconds',
    help: 'For each flip the monitor records: now minus the going-down time it is dated at',
    buckets: MONITOR_LAG_BUCKETS,
    registers: [registry],
  });
  const passes = new Histogram({
    name: 'gateway_monitor_pass_duration_seconds',
    help: 'Monitor passes: how long each took (a pass reads only the checks that are due)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: 'gateway_subscriptions_active',
    help: 'Live GraphQL subscriptions (each subscriber once, also where identical ones share a listener)',
    registers: [registry],
    collect() {
      const listeners = SUBSCRIPTION_TOPICS.reduce((sum, t) => sum + subscriberCount(sources.events, t), 0);
      const shared = sources.sharedSubscriptions();
      this.set(listeners - shared.listeners + shared.subscribers);
    },
  });
  new Gauge({
    name: 'gateway_websocket_connections',
    help: 'Open graphql-ws connections',
    registers: [registry],
    collect() {
      this.set(sources.websocketConnections());
    },
  });

  const notifications = new Counter({
    name: 'gateway_notifications_total',
    help: 'Notification attempts by channel kind and outcome (sent; retry: failed, tried again later; failed: given up)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const deliveryLatency = new Histogram({
    name: 'gateway_notification_delivery_seconds',
    help: 'From a notification being queued (the flip committed) to its successful delivery',
    labelNames: ['kind'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
    registers: [registry],
  });
  const inboundEmails = new Counter({
    name: 'gateway_inbound_emails_total',
    help: 'Emails at the SMTP listener: accepted as pings, or refused',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'gateway_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit, by scope (login_account, login_address, api, graphql)',
    labelNames: ['scope'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'gateway_rate_limit_keys',
    help: 'Keys (accounts, addresses, API keys) a rate limit remembers in this process, by scope',
    labelNames: ['scope'] as const,
    registers: [registry],
    collect() {
      for (const [scope, n] of Object.entries(sources.rateLimitKeys?.() ?? {})) this.set({ scope }, n);
    },
  });
  if (sources.eventFanoutUp) {
    const fanoutUp = sources.eventFanoutUp;
    new Gauge({
      name: 'gateway_event_fanout_up',
      help: 'With REDIS_URL: 1 while live events reach subscribers on every instance, 0 while Redis is unavailable (events reach this instance only)',
      registers: [registry],
      collect() {
        this.set(fanoutUp() ? 1 : 0);
      },
    });
  }
  // Both gauges come from one query per scrape.
  let pendingRead: Promise<{ count: number; oldest: Date | null }> | null = null;
  const pendingStats = () => {
    pendingRead ??= sources.pendingNotifications().finally(() => setImmediate(() => (pendingRead = null)));
    return pendingRead;
  };
  new Gauge({
    name: 'gateway_notifications_pending',
    help: 'Notifications waiting to be delivered (queued or waiting for a retry)',
    registers: [registry],
    async collect() {
      this.set((await pendingStats()).count);
    },
  });
  new Gauge({
    name: 'gateway_notifications_oldest_pending_age_seconds',
    help: 'Age of the oldest pending notification (0 when none)',
    registers: [registry],
    async collect() {
      const { oldest } = await pendingStats();
      this.set(oldest ? Math.max(0, sources.clock.now().getTime() - oldest.getTime()) / 1000 : 0);
    },
  });

  // Events other instances published (REDIS_URL) are theirs to count: each instance counts its own.
  const onPing = internalListener((e: { ping: { kind: string } }, from?: RemoteOrigin) => {
    if (!isRemote(from)) pings.inc({ kind: e.ping.kind });
  });
  const onFlip = internalListener((e: { newStatus: string; reason: string; at: Date }, from?: RemoteOrigin) => {
    if (isRemote(from)) return;
    flips.inc({ new_status: e.newStatus, reason: e.reason });
    // Only the monitor records timeouts; ping flips happen at the ping itself.
    if (e.reason === 'timeout') monitorLag.observe(Math.max(0, sources.clock.now().getTime() - e.at.getTime()) / 1000);
  });
  const onPass = (e: { durationMs: number }) => passes.observe(e.durationMs / 1000);
  const onNotification = internalListener((e: NotificationEvent, from?: RemoteOrigin) => {
    if (isRemote(from)) return;
    notifications.inc({ kind: e.kind, outcome: e.state === 'pending' ? 'retry' : e.state });
    if (e.state === 'sent') deliveryLatency.observe({ kind: e.kind }, Math.max(0, e.at.getTime() - e.queuedAt.getTime()) / 1000);
  });
  const onInboundEmail = (e: InboundEmailEvent) => inboundEmails.inc({ outcome: e.outcome });
  sources.events.on('ping', onPing);
  sources.events.on('flip', onFlip);
  sources.events.on('monitorPass', onPass);
  sources.events.on('notification', onNotification);
  sources.events.on('inboundEmail', onInboundEmail);
  const stopCounting = sources.onStatement(() => statements.inc());

  return {
    registry,
    observeHttp(req, res, route) {
      const end = http.startTimer();
      res.once('finish', () => end({ method: req.method ?? 'GET', route, status: String(res.statusCode) }));
    },
    rateLimited(scope) {
      rateLimited.inc({ scope });
    },
    close() {
      sources.events.off('ping', onPing);
      sources.events.off('flip', onFlip);
      sources.events.off('monitorPass', onPass);
      sources.events.off('notification', onNotification);
      sources.events.off('inboundEmail', onInboundEmail);
      stopCounting();
    },
  };
}
