// A shared subscription's `next` message written to a subscriber's socket as one ready
// WebSocket frame, in one write: the payload is UTF-8 once per event for every subscriber
// (shared-subscriptions.ts), each subscriber's `{"id":…,"type":"next","payload":` prefix once
// per subscription. `ws.send` would, per subscriber and event, build the message string, encode
// it, frame it and write header and body corked (a `writev`): at 10,000 subscribers per flip
// that per-socket work was most of the server's user time besides the kernel's write itself.
//
// It writes beside `ws`, on the socket `ws` owns, so it does so only where a frame of its own
// is exactly what `ws.send` would put on the wire and nothing of `ws`'s is pending: the
// connection is open, no extension was negotiated (permessage-deflate would compress what
// `ws.send` sends: such a socket keeps `ws.send`), and `ws`'s sender has nothing queued (it
// queues only behind a compression or a Blob). Server frames are not masked (RFC 6455 5.1).
import type WebSocket from 'ws';

/** The parts of `ws` 8's WebSocket this writer reads (not in its typings; a test pins them). */
interface WsInternals {
  _socket?: { destroyed: boolean; writable: boolean; write(chunk: Buffer): boolean } | null;
  _sender?: { _state: number; _queue: unknown[] } | null;
}

/** ws's Sender state when it is neither compressing nor reading a Blob (lib/sender.js DEFAULT). */
const SENDER_IDLE = 0;
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
 * `socket`; a message is dropped when the socket is not open or has more than `maxUnsent`
 * bytes not yet taken by the kernel (a subscriber that does not read must not cost unbounded
 * memory).
 */
export function nextWriter(socket: WebSocket, id: string, maxUnsent: number): NextWriter {
  const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  const prefix = Buffer.from(head);
  const internals = socket as unknown as WsInternals;
  // Negotiated in the handshake, fixed for the connection's life.
  const plain = socket.extensions === '';
  return (payload) => {
    if (socket.readyState !== socket.OPEN || socket.bufferedAmount > maxUnsent) return false;
    const raw = internals._socket;
    const sender = internals._sender;
    if (plain && raw && sender && sender._state === SENDER_IDLE && Array.isArray(sender._queue) && sender._queue.length === 0) {
      if (raw.destroyed || !raw.writable) return false;
      raw.write(textFrame(prefix, payload));
    } else {
      // Compression negotiated, or ws has a send in progress: its own path, in its order.
      socket.send(`${head}${payload.toString()}}`);
    }
    return true;
  };
}
