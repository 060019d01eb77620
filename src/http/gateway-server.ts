// The HTTP side of the gateway: one router for every transport (REST compatibility, GraphQL over
// HTTP and WebSocket, the web pages, /healthz, /readyz and /metrics), behind the abuse limits, metrics,
// access log and compression. Given built services; opens no database and starts nothing.
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { StatementListener } from '../db/gated-adapter.ts';
import type { GatewayServices } from '../services.ts';
import type { NotificationStore } from '../monitoring/notifications/store.ts';
import type { RedisFanoutEvents } from '../events/redis-fanout.ts';
import { createGraphQLHandler } from '../graphql/server/yoga.ts';
import { attachGraphQLWebSocket } from '../graphql/server/ws.ts';
import { registerHealthchecksRoutes } from '../../rest-compat/healthchecks/routes.ts';
import { registerCampusRoutes } from '../../rest-compat/campus/routes.ts';
import { registerMediaRoutes } from '../../rest-compat/campus/media.ts';
import { loginFields, readFields } from '../../rest-compat/campus/request.ts';
import { campusNotFound } from '../../rest-compat/campus/extras.ts';
import { apiKeyInBody } from '../../rest-compat/healthchecks/api-routes.ts';
import { answerClientErrors } from './client-errors.ts';
import { sendJson, sendText } from './respond.ts';
import { createRouter, routeOf, type HttpRouter } from './router.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { createAbuseLimits, LIMIT_SCOPES } from './limits.ts';
import { compressResponse } from './compression.ts';
import { registerChannelConsentRoutes } from './channel-consent.ts';
import { registerTelegramBotRoute } from './telegram-bot.ts';
import { registerWebRoutes } from './web.ts';
import { registerOpenApiRoute } from './openapi-route.ts';
import { logAccess } from './access-log.ts';
import { createReadinessProbe } from './readiness.ts';
import { requestIdOf } from './request-id.ts';
import { clientOf, rememberClient, trustedProxies } from './client-address.ts';
import { limitStore } from '../rate-limits/redis-limiter.ts';
import { authenticate } from '../monitoring/projects/service.ts';
import { viewerFromToken } from '../campus/auth.ts';
import { tokenFrom } from '../graphql/server/context.ts';

export const FANOUT_DEGRADED = 'OK (event fan-out degraded: redis unavailable)';

export interface HttpParts {
  services: GatewayServices;
  notificationStore: NotificationStore;
  fanout: RedisFanoutEvents | null;
  onStatement(listener: StatementListener): () => void;
  log: Logger;
  /** Registers extra routes (benchmarks add their baselines this way). */
  routes?: (router: HttpRouter, services: GatewayServices) => void;
}

export interface GatewayHttpServer {
  server: http.Server;
  /** Closes the WebSocket server and its subscriptions (the HTTP server is closed by its owner). */
  closeWebSocket(): Promise<void>;
  /** Stops the metrics' collectors (and the rate limits' Redis connection). */
  closeMetrics(): void;
}

/** Seconds a balancer is asked to wait before probing /readyz again after a 503. */
const READYZ_RETRY_AFTER_S = 5;

/** The longest address the trailing-slash redirect echoes (nginx's default buffer is 8 KB). */
const MAX_REDIRECT_LENGTH = 8192;

export function buildHttpServer(config: Config, parts: HttpParts): GatewayHttpServer {
  const { services, log } = parts;
  const { monitoring, campus } = services;
  const router = createRouter({
    defaultRoute: (req, res) => {
      // Like Django's APPEND_SLASH: a GET without the trailing slash is redirected (301).
      const [path, query] = (req.url ?? '/').split(/\?(.*)/s, 2);
      if ((req.method === 'GET' || req.method === 'HEAD') && path && !path.endsWith('/') && router.find('GET', `${path}/`)) {
        const location = `${path}/${query ? `?${query}` : ''}`;
        // A Location as long as the request line would overflow a client's header limit (16 KB
        // in Node and browsers): such an address is refused rather than echoed back.
        if (location.length > MAX_REDIRECT_LENGTH) return sendJson(res, 414, { error: 'the address is too long' });
        res.writeHead(301, { Location: location, 'Content-Length': 0 });
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
  const fanout = parts.fanout;
  const metrics = createMetrics({
    events: monitoring.events,
    clock: monitoring.clock,
    onStatement: parts.onStatement,
    websocketConnections: () => websocket?.wss.clients.size ?? 0,
    pendingNotifications: () => parts.notificationStore.pendingStats(),
    sharedSubscriptions: () => ({ listeners: websocket?.shared.count() ?? 0, subscribers: websocket?.shared.subscribers() ?? 0 }),
    eventFanoutUp: fanout ? () => fanout.fanoutUp : undefined,
    rateLimitKeys: () => Object.fromEntries(LIMIT_SCOPES.flatMap((scope) => (limits?.limiters[scope] ? [[scope, limits.limiters[scope].size]] : []))),
  });
  // With REDIS_URL every instance counts in the same Redis (src/rate-limits/redis-limiter.ts).
  const limitRedis = config.redisUrl === null ? null : limitStore(config.redisUrl);
  // Its errors are handled per command (fail over to memory); ioredis would print them too.
  limitRedis?.on('error', () => {});
  limits = createAbuseLimits({
    settings: config.rateLimits,
    shared: limitRedis ? { redis: limitRedis, keyPrefix: `${config.redisChannelPrefix}:limits`, log } : null,
    clock: monitoring.clock,
    onLimited: (scope) => metrics.rateLimited(scope),
    // The same fields the /login handler reads (rest-compat/campus/routes.ts); the body is read once.
    loginUsername: async (req) => {
      return loginFields(await readFields(req)).username || null;
    },
    apiBodyKey: apiKeyInBody,
    credentialValid: async (kind, value) => {
      if (kind === 'key') return authenticate(monitoring.db, value, 'read').then(() => true);
      return (await viewerFromToken(campus.db, tokenFrom(value))).personId !== null;
    },
  });
  // Liveness: answers without touching the database (also the benchmarks' no-op route).
  // With Redis away the instance still serves everything but live events from other instances:
  // still 200 (docs/decisions.md, "Redis event fan-out"), and the body says what is missing.
  router.get('/healthz', fanout ? (_req, res) => sendText(res, 200, fanout.fanoutUp ? 'OK' : FANOUT_DEGRADED) : (_req, res) => sendText(res, 200, 'OK'));
  // Readiness: the database answers, migrations are applied, Redis is up when configured.
  // 503 with Retry-After otherwise, and the body names what is not ready (src/http/readiness.ts).
  const readiness = createReadinessProbe({ databaseUrl: config.databaseUrl, redisUp: fanout ? () => fanout.fanoutUp : null, log });
  router.get('/readyz', async (_req, res) => {
    const { ready, checks, failing } = await readiness();
    if (ready) return sendJson(res, 200, { status: 'ready', checks });
    sendJson(res, 503, { status: 'not ready', failing, checks }, { 'Retry-After': String(READYZ_RETRY_AFTER_S) });
  });
  const metricsKey = config.metricsKey === null ? null : Buffer.from(`Bearer ${config.metricsKey}`);
  router.get('/metrics', async (req, res) => {
    if (metricsKey && !sameSecret(req.headers.authorization, metricsKey)) {
      return sendText(res, 401, 'Unauthorized: send Authorization: Bearer <METRICS_KEY>\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    const body = await metrics.registry.metrics();
    res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
    res.end(body);
  });
  registerHealthchecksRoutes(router, monitoring, log);
  // The REST APIs' OpenAPI description (src/openapi/).
  registerOpenApiRoute(router, monitoring.settings);
  // The verify and unsubscribe links a channel's recipient gets by mail (src/http/channel-consent.ts).
  registerChannelConsentRoutes(router, monitoring, log);
  registerTelegramBotRoute(router, config.notify, config.telegramWebhookSecret, log);
  parts.routes?.(router, services);
  registerCampusRoutes(router, campus, log);
  // Media files and thumbnails answer the app's session cookie too (its <img> tags): identity is needed.
  registerMediaRoutes(router, campus, services.identity, log);
  const graphql = createGraphQLHandler(services, log, metrics.registry, limits.loginThrottle);
  for (const path of ['/graphql', '/graphql/']) router.all(path, (req, res) => graphql.handle(req, res));
  // The dashboard at / and public status pages at /status/<slug> (src/http/web.ts).
  registerWebRoutes(router, monitoring, log);

  const accessLog = config.accessLog && log.isLevelEnabled('info');
  const admission = limits;
  const trusted = trustedProxies(config.trustedProxies);
  const server = http.createServer((req, res) => {
    // Who the client is, worked out once: handlers read it with clientOf (client-address.ts).
    const client = rememberClient(req, trusted);
    const route = routeOf(router, req);
    const requestId = requestIdOf(req, client.viaTrustedProxy);
    res.setHeader('X-Request-Id', requestId);
    metrics.observeHttp(req, res, route);
    if (accessLog) logAccess(log, req, res, route, requestId);
    // Pings answer a two-byte OK on the hot path: not worth a look.
    if (config.compressionMinBytes !== null && route !== '/ping/*') compressResponse(req, res, config.compressionMinBytes);
    const admitted = admission.admit(req, res, route);
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
  // Before ws's own listener: a socket's operations see the client behind a trusted proxy too.
  server.prependListener('upgrade', (req: http.IncomingMessage) => void rememberClient(req, trusted));
  websocket = attachGraphQLWebSocket(server, graphql.yoga, services, config.wsKeepAliveMs, limits.admitOperation);
  const ws = websocket;
  return {
    server,
    closeWebSocket: () => ws.close(),
    closeMetrics: () => {
      metrics.close();
      limitRedis?.disconnect();
    },
  };
}

/** Compares a header with the expected secret in constant time. */
function sameSecret(header: string | undefined, expected: Buffer): boolean {
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
