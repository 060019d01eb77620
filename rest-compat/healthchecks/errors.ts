// Domain errors mapped once to Healthchecks' status codes and bodies. Where Healthchecks
// answers with an empty body (403, 404, 405), we add {"error": "..."}: same status code,
// plus a reason a human can read (docs/decisions.md).
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { DomainError } from '../../src/shared/errors.ts';
import { sendJson, sendText, type Headers } from '../../src/http/respond.ts';
import { HttpError } from '../../src/http/body.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from '../../src/db/unavailable.ts';
import { isTextTheDatabaseRefused, REFUSED_TEXT_MESSAGE } from '../../src/db/refused-text.ts';

const statusByCode = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
} as const;

export function sendApiError(res: ServerResponse, err: unknown, headers: Headers, log: Logger) {
  if (err instanceof HttpError) return sendJson(res, err.status, { error: err.message }, headers);
  if (err instanceof DomainError) {
    const status = statusByCode[err.code];
    // Healthchecks answers resume-when-not-paused with this exact plain-text body.
    if (err.code === 'CONFLICT' && err.message === 'check is not paused') {
      return sendText(res, status, err.message, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
    }
    return sendJson(res, status, { error: err.message }, headers);
  }
  if (isDatabaseUnavailable(err)) {
    log.warn({ err }, 'API request refused: database unavailable');
    return sendJson(res, 503, { error: 'database unavailable, try again shortly' }, { ...headers, 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) });
  }
  if (isTextTheDatabaseRefused(err)) {
    log.warn({ err }, 'API request refused: text the database cannot store');
    return sendJson(res, 400, { error: REFUSED_TEXT_MESSAGE }, headers);
  }
  log.error({ err }, 'unexpected error in REST handler');
  return sendJson(res, 500, { error: 'internal server error' }, headers);
}
