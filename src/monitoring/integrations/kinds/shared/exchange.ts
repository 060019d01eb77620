// One HTTP request whose answer the kind reads itself: Matrix's join returns the room id in its
// body, and the Apprise API answers 204 when it found no URL to notify, which httpAttempt would
// count as delivered. Same rules as httpAttempt (base URL, private addresses, time limit, the
// notification's id); the caller judges the status.
import { fetch } from 'undici';
import { rebase, retryAfterMs } from './http.ts';
import { isPrivateLiteral, PRIVATE_IP_ERROR, publicOnlyAgent } from './private-ips.ts';
import { DeliveryError } from './transport.ts';

export interface Exchange {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  timeoutMs: number;
  idempotencyKey: string;
  allowPrivateIps: boolean;
  baseUrl?: string;
}

export interface ExchangeAnswer {
  status: number;
  /** The first 16 KB of the body. */
  body: string;
  /** Retry-After in milliseconds, if the answer had one. */
  retryAfterMs?: number;
}

const LIMIT = 16_384;

/** The answer, whatever its status; a connection failure or a time-out is a (retried) DeliveryError. */
export async function exchange(e: Exchange): Promise<ExchangeAnswer> {
  const url = rebase(e.url, e.baseUrl);
  if (!e.allowPrivateIps && isPrivateLiteral(url)) throw new DeliveryError(PRIVATE_IP_ERROR, true);
  try {
    const response = await fetch(url, {
      dispatcher: e.allowPrivateIps ? undefined : publicOnlyAgent,
      method: e.method,
      headers: { 'User-Agent': 'cron-campus-gateway', ...(e.json === undefined ? {} : { 'Content-Type': 'application/json' }), ...e.headers, 'Idempotency-Key': e.idempotencyKey },
      body: e.json === undefined ? undefined : JSON.stringify(e.json),
      signal: AbortSignal.timeout(e.timeoutMs),
      redirect: 'manual',
    });
    const chunks: Buffer[] = [];
    let size = 0;
    if (response.body) {
      for await (const chunk of response.body) {
        chunks.push(Buffer.from(chunk));
        size += chunk.length;
        if (size >= LIMIT) break;
      }
    }
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, body: Buffer.concat(chunks).subarray(0, LIMIT).toString('utf8'), retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
  } catch (err) {
    const x = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    if (x.name === 'TimeoutError' || x.name === 'AbortError') throw new DeliveryError(`Timed out after ${e.timeoutMs / 1000} s`);
    if (x.cause?.code === 'EPRIVATEIP') throw new DeliveryError(PRIVATE_IP_ERROR);
    throw new DeliveryError(`Connection failed: ${x.cause?.code ?? x.cause?.message ?? x.message ?? String(err)}`);
  }
}

/** The `error` text of a JSON answer (the Apprise API's, Matrix's), if it has one. */
export function jsonErrorOf(body: string): string | undefined {
  try {
    const doc = JSON.parse(body) as { error?: unknown };
    return typeof doc?.error === 'string' && doc.error ? doc.error : undefined;
  } catch {
    return undefined;
  }
}
