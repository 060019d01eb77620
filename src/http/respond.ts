// Small response helpers for the node:http transports. JSON is serialized once, by hand, so
// key order is exactly the order the serializers build.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Headers = Record<string, string>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string | Buffer, headers: Headers = {}) {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, ...headers });
  res.end(body);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Headers = {}) {
  res.writeHead(status, { 'Content-Length': 0, ...headers });
  res.end();
}

export class BodyTooLarge extends Error {}

const NO_BODY = Buffer.alloc(0);

/**
 * Reads the request body; rejects with BodyTooLarge past `limit` bytes. A declared
 * Content-Length over the limit is refused before a byte is read (no waiting for a body that
 * is never coming); a body that grows past it stops being kept. Either way the rest is
 * drained and discarded, so the connection stays usable and memory stays under `limit`.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // Most pings are bodiless GETs: nothing to wait for (Node discards the empty stream itself).
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return Promise.resolve(NO_BODY);
  // A body is read once: the login throttle reads it (for the username) before the handler does.
  const earlier = bodiesRead.get(req);
  if (earlier) return earlier.then((body) => (body.length > limit ? Promise.reject(new BodyTooLarge()) : body));
  const reading = readOnce(req, length, limit);
  bodiesRead.set(req, reading);
  return reading;
}

const bodiesRead = new WeakMap<IncomingMessage, Promise<Buffer>>();

function readOnce(req: IncomingMessage, length: string | undefined, limit: number): Promise<Buffer> {
  if (length !== undefined && Number(length) > limit) {
    req.resume();
    return Promise.reject(new BodyTooLarge());
  }
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks = [];
        req.off('data', onData);
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export const neverCache: Headers = {
  'Cache-Control': 'max-age=0, no-cache, no-store, must-revalidate, private',
  Expires: 'Thu, 01 Jan 1970 00:00:00 GMT',
};
