// Whether a failure means "the database cannot be reached or cannot take writes now" (PostgreSQL
// restarting or unreachable, the pool exhausted, SQLite's disk full or its file locked past the
// busy timeout) rather than a fault of ours or of the request. Such failures are answered 503
// with Retry-After: the client should try again, and nothing was stored (every write is
// answered only after its commit). One function for both databases: their codes do not overlap.
import { driverErrorCode } from './driver-error.ts';

// Prisma's adapter error kinds and codes for a connection that is not there.
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseDoesNotExist']);
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
// node-postgres and Node's sockets; PostgreSQL's class 08 (connection exception) and 57P0x (shutting down, starting up).
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const POSTGRES_STATES = /^(08...|57P0[1-4]|53300)$/;
// SQLite: the disk is full, the file cannot be written or opened, another writer held the lock past the timeout.
const SQLITE_CODES = /^SQLITE_(FULL|IOERR.*|CANTOPEN|BUSY.*|READONLY.*)$/;
// "Query read timeout": node-postgres' query_timeout (PG_QUERY_TIMEOUT_MS), a database too slow to answer.
const POSTGRES_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const kind = (e as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } }).meta?.driverAdapterError?.cause?.kind;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    const own = (e as { code?: unknown }).code;
    if (typeof own === 'string' && (PRISMA_CODES.has(own) || SOCKET_CODES.has(own))) return true;
    const code = driverErrorCode(e);
    if (code && (POSTGRES_STATES.test(code) || SQLITE_CODES.test(code) || SOCKET_CODES.has(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && POSTGRES_MESSAGES.test(message)) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;
