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
  return newRequestId();
}

// 12 base64url characters (72 random bits): short in a log line, unique enough to grep. The bytes
// come from a pool filled 512 ids at a time: one randomBytes call per id cost about 1.8 µs, 5% of
// a small request's CPU in a profile; a slice of the pool costs 0.1 µs (docs/performance.md).
const ID_BYTES = 9;
const POOL_IDS = 512;
let pool = Buffer.alloc(0);
let taken = 0;

export function newRequestId(): string {
  if (taken + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    taken = 0;
  }
  const id = pool.toString('base64url', taken, taken + ID_BYTES);
  taken += ID_BYTES;
  return id;
}
