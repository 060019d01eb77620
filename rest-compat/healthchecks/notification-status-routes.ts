// Healthchecks' /api/v<n>/notifications/<code>/status: where Twilio reports how an SMS,
// WhatsApp message or phone call went (the StatusCallback we send with each). No API key, as in
// Healthchecks: the notification's random code is the key, and only Twilio is given it. The
// domain is notifications/delivery-status.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../../src/monitoring/context.ts';
import { recordDeliveryStatus } from '../../src/monitoring/notifications/delivery-status.ts';
import { BodyTooLarge, readBody, sendEmpty, sendJson } from '../../src/http/respond.ts';
import { BodyParseError, mediaType, parseForm } from '../../src/http/body.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Twilio's reports are a few dozen short fields.
const MAX_BODY = 64 * 1024;
const FORM = 'application/x-www-form-urlencoded';

async function readReport(req: IncomingMessage): Promise<URLSearchParams | string> {
  if (mediaType(req.headers['content-type']) !== FORM) return `expected a form (${FORM})`;
  try {
    return new URLSearchParams(parseForm(await readBody(req, MAX_BODY), 1));
  } catch (err) {
    if (err instanceof BodyTooLarge) return `request body too large: at most ${MAX_BODY / 1024} KB`;
    if (err instanceof BodyParseError) return 'could not parse request body';
    throw err;
  }
}

export function registerNotificationStatusRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringDeps, log: Logger) {
  const handle = async (req: IncomingMessage, res: ServerResponse, code: string) => {
    // Healthchecks' <uuid:code>: anything else matches no route.
    if (!UUID.test(code)) return sendJson(res, 404, { error: 'not found' });
    if (req.method !== 'POST') return sendEmpty(res, 405, { Allow: 'POST' });
    const report = await readReport(req);
    if (typeof report === 'string') return sendJson(res, 400, { error: report });
    const outcome = await recordDeliveryStatus(deps.db, code, report, deps.clock.now());
    // Healthchecks answers 200 for a code it does not know (so the sender stops); Twilio does not
    // retry status callbacks, so the truth costs nothing and shows up in Twilio's debugger.
    if (outcome === 'unknown') return sendJson(res, 404, { error: 'not found' });
    sendEmpty(res, 200);
  };
  for (const version of [1, 2, 3]) {
    router.all(`/api/v${version}/notifications/:code/status`, (req, res, params) => {
      handle(req, res, params.code ?? '').catch((err: unknown) => {
        log.error({ err }, 'notification status report failed');
        if (!res.headersSent) sendJson(res, 500, { error: 'internal server error' });
      });
    });
  }
}
