// Temporary: replaced by the Pothos schema (in progress this session).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../monitoring/context.ts';
import { sendJson } from '../http/respond.ts';

export function createGraphQLHandler(_deps: MonitoringDeps, _log: Logger) {
  return (_req: IncomingMessage, res: ServerResponse) => sendJson(res, 503, { error: 'graphql not ready' });
}
