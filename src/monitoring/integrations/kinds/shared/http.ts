// One HTTP attempt, as Healthchecks' HttpTransport judges it: 200, 201, 202 and 204 are
// success, any other status is "Received status code N"; the attempt has a time limit.
import { fetch } from 'undici';
import { DeliveryError, type Delivery } from './transport.ts';
import { isPrivateLiteral, PRIVATE_IP_ERROR, publicOnlyAgent } from './private-ips.ts';

export interface HttpAttempt {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  timeoutMs: number;
  /** The notification's stable id, sent as Idempotency-Key so a receiver can drop a repeat. */
  idempotencyKey: string;
  /** Statuses that will not change by trying again (e.g. Slack's 404 for a removed hook). */
  permanentStatuses?: number[];
  /** A user's URL: refused when it reaches a private address, unless the operator allows it. */
  allowPrivateIps: boolean;
  /** INTEGRATION_BASE_URLS' entry for the kind: replaces the URL's scheme, host and port (baseUrlFor). */
  baseUrl?: string;
  /** The error for a refused answer from its status and (the first 16 KB of) its body; default "Received status code N". */
  failure?(status: number, body: string): string;
}

const ACCEPTED = new Set([200, 201, 202, 204]);
const USER_AGENT = 'cron-campus-gateway';

export async function httpAttempt(a: HttpAttempt): Promise<void> {
  const url = rebase(a.url, a.baseUrl);
  // Checked again on the address the connection really uses (publicOnlyAgent's lookup).
  if (!a.allowPrivateIps && isPrivateLiteral(url)) throw new DeliveryError(PRIVATE_IP_ERROR, true);
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(url, {
      dispatcher: a.allowPrivateIps ? undefined : publicOnlyAgent,
      method: a.method,
      // A spec's headers may replace the User-Agent, never the notification's id.
      headers: { 'User-Agent': USER_AGENT, ...withoutIdempotencyKey(a.headers), 'Idempotency-Key': a.idempotencyKey },
      body: a.body,
      signal: AbortSignal.timeout(a.timeoutMs),
      redirect: 'manual',
    });
  } catch (err) {
    throw new DeliveryError(describeFetchError(err, a.timeoutMs));
  }
  const refused = !ACCEPTED.has(response.status);
  const body = refused && a.failure ? await readText(response, 16_384).catch(() => '') : '';
  // Free the connection; the answer's body is not used (past what failure() reads).
  await response.body?.cancel().catch(() => undefined);
  if (refused) {
    const message = a.failure ? a.failure(response.status, body) : `Received status code ${response.status}`;
    throw new DeliveryError(message, a.permanentStatuses?.includes(response.status) ?? false, retryAfterMs(response.headers.get('retry-after')));
  }
}

/** INTEGRATION_BASE_URLS' entry for the delivery's kind, if any (httpAttempt's `baseUrl`). */
export function baseUrlFor(d: Pick<Delivery, 'settings' | 'channel'>): string | undefined {
  const urls = d.settings.baseUrls;
  return Object.hasOwn(urls, d.channel.kind) ? urls[d.channel.kind] : undefined;
}

/**
 * The URL with the scheme, host and port of `base` (INTEGRATION_BASE_URLS), the base's path
 * put before the URL's own: a proxy, a regional endpoint, a self-hosted server, a test receiver.
 */
export function rebase(url: string, base: string | undefined): string {
  if (!base) return url;
  const u = new URL(url);
  const b = new URL(base);
  u.protocol = b.protocol;
  // Setting `host` without a port would keep the URL's own port.
  u.hostname = b.hostname;
  u.port = b.port;
  u.pathname = b.pathname.replace(/\/+$/, '') + u.pathname;
  return u.toString();
}

/** A Retry-After header in milliseconds (seconds, or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const v = header?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function readText(response: Awaited<ReturnType<typeof fetch>>, limit: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function withoutIdempotencyKey(headers: Record<string, string> = {}) {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'idempotency-key'));
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `Timed out after ${timeoutMs / 1000} s`;
  if (e.cause?.code === 'EPRIVATEIP') return PRIVATE_IP_ERROR;
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `Connection failed: ${cause}` : `Connection failed: ${e.message ?? String(err)}`;
}
