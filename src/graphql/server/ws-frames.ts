// A shared subscription's `next` message written to a subscriber's socket as one ready
// WebSocket frame, in one write: the payload is UTF-8 once per event for every subscriber
// (shared-subscriptions.ts), each subscriber's `{"id":…,"type":"next","payload":` prefix once
// per subscription. `ws.send` would, per subscriber and event, build the message string, encode
// it, frame it and write header and body corked (a `writev`): at 10,000 subscribers per flip
// that per-socket work was most of the server's user time besides the kernel's write itself.
//
// It writes beside `ws`, on the socket `ws` owns, so it does so only where a frame of its own
// is exactly what `ws.send` would put on the wire and nothing of `ws`'s is pending: the
// connection is open and no extension was negotiated. permessage-deflate would compress what
// `ws.send` sends, and it is the only reason `ws` 8 ever holds a string or Buffer back (its
// sender queues behind a compression or a Blob, and nothing here sends a Blob): without it,
// `ws.send` writes to the socket at once, so our writes and `ws`'s keep their order.
// Server frames are not masked (RFC 6455 5.1).
//
// Public API only: the socket is the one Node handed `ws` for the upgrade (`request.socket`,
// which graphql-ws gives as `ctx.extra.request`), and `readyState`, `extensions` and
// `bufferedAmount` are `ws`'s documented properties. A test pins what this relies on: that
// `ws.send` writes to that very socket, synchronously (test/graphql/server/ws-frames.test.ts).
import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';

const CLOSE_BRACE = 0x7d;

/** Bytes of a server (unmasked) frame header for a payload of `n` bytes. */
const headerLength = (n: number) => (n < 126 ? 2 : n < 65536 ? 4 : 10);

/** The bytes of an unmasked final text frame around `body` bytes: header, then the body. */
export function textFrame(prefix: Buffer, payload: Buffer): Buffer {
  const n = prefix.length + payload.length + 1;
  const h = headerLength(n);
  const frame = Buffer.allocUnsafe(h + n);
  frame[0] = 0x81; // FIN, text
  if (h === 2) frame[1] = n;
  else if (h === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  prefix.copy(frame, h);
  payload.copy(frame, h + prefix.length);
  frame[h + n - 1] = CLOSE_BRACE;
  return frame;
}

/** Writes one `next` message; false when it was dropped. */
export type NextWriter = (payload: Buffer) => boolean;

/**
 * Writes graphql-ws `next` messages of operation `id` with a given payload (JSON, UTF-8) to
 * `socket`, whose underlying connection is `raw` (the upgrade request's `socket`); a message is
 * dropped when the socket is not open or has more than `maxUnsent` bytes not yet taken by the
 * kernel (a subscriber that does not read must not cost unbounded memory).
 */
export function nextWriter(socket: WebSocket, raw: Duplex, id: string, maxUnsent: number): NextWriter {
  const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  const prefix = Buffer.from(head);
  // Negotiated in the handshake, fixed for the connection's life.
  const plain = socket.extensions === '';
  return (payload) => {
    if (socket.readyState !== socket.OPEN || socket.bufferedAmount > maxUnsent) return false;
    if (plain) {
      if (raw.destroyed || !raw.writable) return false;
      raw.write(textFrame(prefix, payload));
    } else {
      // Compression negotiated: ws's own path, which compresses and keeps its queue's order.
      socket.send(`${head}${payload.toString()}}`);
    }
    return true;
  };
}
