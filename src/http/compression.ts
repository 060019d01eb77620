// Response compression (br or gzip, node:zlib) for text-like responses over a threshold when
// the client asks for it. The response's head is held back until its first bytes, so the
// decision sees the final status, Content-Type and length whichever way a handler writes
// (writeHead + end(body), setHeader + end, or yoga's writeHead + write + end). A compressible
// body is collected until end() and compressed off the event loop in one piece; a stream
// (text/event-stream, multipart/mixed) or any other type is passed through untouched, byte
// for byte, as soon as it is written.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { promisify } from 'node:util';

export type Encoding = 'br' | 'gzip';

const COMPRESSIBLE = /^(application\/(json|graphql-response\+json|javascript|xml|problem\+json)|text\/(html|plain|css|javascript|csv|xml)|image\/svg\+xml)$/;
/** Past this a body is sent as it is rather than held in memory (GraphiQL's page is ~9 MB). */
const MAX_BUFFERED = 32 * 1024 * 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The encoding to use from an Accept-Encoding header: br over gzip, q=0 refuses. */
export function negotiate(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name!.trim(), qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const accepts = (e: string) => (q.get(e) ?? q.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : null;
}

function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  // Brotli's default quality (11) takes seconds on megabytes; 5 is near gzip's speed and smaller.
  return encoding === 'br'
    ? brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzip(body);
}

// Compressed copies of bodies that carry an ETag (GraphiQL's page): the same bytes every time.
const cache = new Map<string, Buffer>();
const CACHE_ENTRIES = 8;

async function compressCached(body: Buffer, encoding: Encoding, etag: string | undefined): Promise<Buffer> {
  if (!etag) return compress(body, encoding);
  const key = `${encoding} ${body.length} ${etag}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out = await compress(body, encoding);
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, out);
  return out;
}

type Chunk = string | Buffer | Uint8Array;
const toBuffer = (chunk: Chunk, encoding?: BufferEncoding) => (typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));

function applyHeaders(res: ServerResponse, headers: unknown) {
  if (Array.isArray(headers)) {
    // The raw form: [name, value, name, value, ...].
    for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1] as string);
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) if (value !== undefined) res.setHeader(name, value);
  }
}

/**
 * Makes `res` compress its body when it turns out to be worth it. Call before the handler
 * runs; does nothing for HEAD or a client that accepts neither br nor gzip.
 */
export function compressResponse(req: IncomingMessage, res: ServerResponse, minBytes: number): void {
  if (req.method === 'HEAD') return;
  const encoding = negotiate(req.headers['accept-encoding'] as string | undefined);
  if (!encoding) return;

  const writeHead = res.writeHead.bind(res) as (status: number, message?: string) => ServerResponse;
  const write = res.write.bind(res) as (chunk: Chunk, cb?: () => void) => boolean;
  const end = res.end.bind(res) as (chunk?: Chunk, cb?: () => void) => ServerResponse;
  const flushHeaders = res.flushHeaders.bind(res);
  let held: { status: number; message?: string } | null = null;
  let mode: 'undecided' | 'pass' | 'collect' = 'undecided';
  let chunks: Buffer[] = [];
  let size = 0;

  const restore = () => {
    res.writeHead = writeHead as ServerResponse['writeHead'];
    res.write = write as ServerResponse['write'];
    res.end = end as ServerResponse['end'];
    res.flushHeaders = flushHeaders;
  };
  /** Sends the head as the handler gave it, and from now on everything as written. */
  const passThrough = () => {
    mode = 'pass';
    restore();
    if (held && !res.headersSent) writeHead(held.status, held.message);
  };
  const eligible = () => {
    const status = held?.status ?? res.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return false;
    if (res.getHeader('content-encoding')) return false;
    if (/no-transform/i.test(String(res.getHeader('cache-control') ?? ''))) return false;
    const type = String(res.getHeader('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!COMPRESSIBLE.test(type)) return false;
    const length = res.getHeader('content-length');
    return length === undefined || Number(length) >= minBytes;
  };
  const flush = () => {
    passThrough();
    for (const c of chunks) write(c);
    chunks = [];
  };

  res.writeHead = ((status: number, message?: unknown, headers?: unknown) => {
    // writeHead(status, headers) or writeHead(status, message, headers); yoga may pass an undefined message.
    if (typeof message !== 'string') {
      if (headers === undefined) headers = message;
      message = undefined;
    }
    applyHeaders(res, headers);
    held = { status, message: message as string | undefined };
    res.statusCode = status;
    return res;
  }) as ServerResponse['writeHead'];

  // Whoever flushes the head wants bytes to flow now (a stream): no holding back.
  res.flushHeaders = () => {
    passThrough();
    flushHeaders();
  };

  res.write = ((chunk: Chunk, encodingOrCb?: unknown, cb?: unknown) => {
    if (mode === 'undecided') {
      mode = eligible() ? 'collect' : 'pass';
      if (mode === 'pass') passThrough();
    }
    if (mode === 'pass') return (res.write as (...a: unknown[]) => boolean)(chunk, encodingOrCb, cb);
    const buf = toBuffer(chunk, typeof encodingOrCb === 'string' ? (encodingOrCb as BufferEncoding) : undefined);
    chunks.push(buf);
    size += buf.length;
    const callback = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
    if (size > MAX_BUFFERED) flush();
    if (typeof callback === 'function') process.nextTick(callback as () => void);
    return true;
  }) as ServerResponse['write'];

  res.end = ((chunk?: unknown, encodingOrCb?: unknown, cb?: unknown) => {
    const callback = [chunk, encodingOrCb, cb].find((a) => typeof a === 'function') as (() => void) | undefined;
    if (typeof chunk === 'function') chunk = undefined;
    if (mode === 'undecided') mode = eligible() ? 'collect' : 'pass';
    if (mode === 'pass') {
      passThrough();
      return chunk === undefined || chunk === null ? end(undefined, callback) : (end as (...a: unknown[]) => ServerResponse)(chunk, typeof encodingOrCb === 'string' ? encodingOrCb : undefined, callback);
    }
    if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk as Chunk, typeof encodingOrCb === 'string' ? (encodingOrCb as BufferEncoding) : undefined));
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    chunks = [];
    restore();
    if (body.length < minBytes) {
      if (held) writeHead(held.status, held.message);
      return end(body, callback);
    }
    const vary = String(res.getHeader('vary') ?? '');
    if (!/accept-encoding|\*/i.test(vary)) res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    const etag = res.getHeader('etag');
    compressCached(body, encoding, typeof etag === 'string' ? etag : undefined).then(
      (out) => {
        if (res.destroyed) return;
        res.setHeader('Content-Encoding', encoding);
        res.setHeader('Content-Length', out.length);
        writeHead(held?.status ?? res.statusCode, held?.message);
        end(out, callback);
      },
      () => {
        if (res.destroyed) return;
        if (held) writeHead(held.status, held.message);
        end(body, callback);
      },
    );
    return res;
  }) as ServerResponse['end'];
}
