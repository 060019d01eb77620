import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringServices } from '../../src/monitoring/services.ts';
import { registerApiRoutes } from './api-routes.ts';
import { registerPingRoutes } from './ping-routes.ts';
import { registerBadgeRoutes } from './badge-routes.ts';
import { registerPrometheusRoutes } from './prometheus-routes.ts';
import { registerUnsubscribeRoutes } from './unsubscribe-routes.ts';
import { registerNotificationStatusRoutes } from './notification-status-routes.ts';

export function registerHealthchecksRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringServices, log: Logger) {
  registerApiRoutes(router, deps, log);
  registerPingRoutes(router, deps, log);
  registerBadgeRoutes(router, deps, log);
  registerPrometheusRoutes(router, deps, log);
  registerUnsubscribeRoutes(router, deps, log);
  registerNotificationStatusRoutes(router, deps, log);
}
