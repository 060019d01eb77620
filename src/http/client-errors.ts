// Requests Node's HTTP parser refuses before any handler sees them: a request line or headers
// over its 16 KB limit (431), malformed HTTP (400), a request too slow to arrive (408). Node's
// own answer writes the status and destroys the socket at once; a client still sending a body
// then reads a connection reset instead of the answer, because closing a socket with unread
// data resets the connection. So, like nginx's lingering close: the answer goes out with
// `Connection: close`, the write side is closed after it (FIN), and whatever the client still
// sends is read and thrown away for up to `lingerMs` before the socket is destroyed.
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused client may go on sending before its connection is cut. */
export const LINGER_MS = 2_000;

function statusFor(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

export function answerClientErrors(server: Server, lingerMs = LINGER_MS): void {
  // The parser reports again for data that arrives after its error: one answer per socket.
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // As Node does: no answer on a socket that cannot take one, or in the middle of another
    // response (a malformed request pipelined behind one being answered).
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || (inFlight && !inFlight.writableEnded)) {
      socket.destroy();
      return;
    }
    const status = statusFor(err.code);
    socket.on('error', () => {});
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.on('data', () => {});
    const cut = setTimeout(() => socket.destroy(), lingerMs);
    cut.unref();
    socket.once('close', () => clearTimeout(cut));
  });
}
