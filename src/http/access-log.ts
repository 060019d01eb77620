// One access-log line per request at `info`: method, the route pattern (never the raw URL,
// which carries check UUIDs, ping keys and ?api_key=), status, duration, client address and the
// request id (X-Request-Id, src/http/request-id.ts). The address is the client's behind a trusted
// proxy (src/http/client-address.ts).
// Written when the response closes, so an aborted request or a long SSE stream is logged too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { clientOf } from './client-address.ts';

export function logAccess(log: Logger, req: IncomingMessage, res: ServerResponse, route: string, requestId: string): void {
  const started = performance.now();
  res.once('close', () => {
    log.info(
      {
        method: req.method,
        route,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        remoteAddress: clientOf(req).address,
        requestId,
        // The client went away before the whole response was written.
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      'request',
    );
  });
}
