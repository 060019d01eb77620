// X-Request-Id: the trusted proxy's (TRUSTED_PROXIES) when it is a sane token, else a short
// random one; sent back on every response and written in every access-log line.
// Only a trusted proxy's is kept: its id is the one on the proxy's own log line, which is what
// the header is for; a client's self-chosen id could repeat another request's and send whoever
// greps the logs after the wrong line (docs/decisions.md, "Trusted proxies").
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE = /^[A-Za-z0-9._:-]{1,200}$/;

export function requestIdOf(req: IncomingMessage, fromTrustedProxy: boolean): string {
  const given = fromTrustedProxy ? req.headers['x-request-id'] : undefined;
  // Node joins repeated X-Request-Id headers with ", ": no longer a token, so a new id.
  if (typeof given === 'string' && SANE.test(given)) return given;
  // 12 base64url characters (72 random bits): short in a log line, unique enough to grep.
  return randomBytes(9).toString('base64url');
}
