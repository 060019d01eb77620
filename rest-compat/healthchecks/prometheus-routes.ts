// Healthchecks' Prometheus export (hc/integrations/prometheus/urls.py): the key in the path,
// the older /checks/metrics/ path, or `Authorization: Bearer <key>` on /projects/<uuid>/metrics/.
// Answers with its view's status codes: 401 without a Bearer header, 400 for a key not 32
// characters long, 403 for anything but a read-only key, 404 when PROMETHEUS_ENABLED is off; the
// bodies, empty there, are our `{"error"}` (docs/decisions.md, "Error bodies").
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../../src/monitoring/context.ts';
import { METRICS_KEY_LENGTH, projectForReadOnlyKey, projectMetrics } from '../../src/monitoring/metrics-export/service.ts';
import { sendJson } from '../../src/http/respond.ts';

// Django's <uuid:...> converter (lower-case only) and <slug:...>: anything else matches no route.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SLUG = /^[-a-zA-Z0-9_]+$/;

export function registerPrometheusRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringDeps, log: Logger) {
  const refuse = (res: ServerResponse, status: number, error: string) => sendJson(res, status, { error });
  const notFound = (res: ServerResponse) => refuse(res, 404, 'not found');

  // The view serves any method, as Healthchecks' does (it has no method decorator).
  async function serve(res: ServerResponse, code: string, key: string | null, req: IncomingMessage) {
    if (deps.settings.prometheusEnabled === false || !UUID.test(code)) return notFound(res);
    if (key === null) {
      // Case-sensitive "Bearer ", and only that prefix removed (a key may start with "B").
      const header = req.headers.authorization ?? '';
      if (!header.startsWith('Bearer ')) return refuse(res, 401, 'missing api key');
      key = header.slice('Bearer '.length);
    } else if (!SLUG.test(key)) return notFound(res);
    if (key.length !== METRICS_KEY_LENGTH) return refuse(res, 400, 'wrong api key length');
    try {
      // Healthchecks looks the project up by the key alone: the UUID in the path is not compared.
      const projectId = await projectForReadOnlyKey(deps.db, key);
      if (projectId === null) return refuse(res, 403, 'wrong api key');
      const body = Buffer.from(await projectMetrics(deps, projectId), 'utf8');
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
      res.end(body);
    } catch (err) {
      log.error({ err }, 'prometheus metrics failed');
      if (!res.headersSent) refuse(res, 500, 'internal server error');
    }
  }

  router.all('/projects/:code/metrics/:key', (req, res, params) => serve(res, params.code!, params.key!, req));
  router.all('/projects/:code/checks/metrics/:key', (req, res, params) => serve(res, params.code!, params.key!, req));
  router.all('/projects/:code/metrics/', (req, res, params) => serve(res, params.code!, null, req));
}
