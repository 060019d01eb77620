// One HTTP attempt, as Healthchecks' HttpTransport judges it: 200, 201, 202 and 204 are
// success, any other status is "Received status code N"; the attempt has a time limit.
import { fetch } from 'undici';
import { DeliveryError } from './transport.ts';
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
}

const ACCEPTED = new Set([200, 201, 202, 204]);
const USER_AGENT = 'cron-campus-gateway';

export async function httpAttempt(a: HttpAttempt): Promise<void> {
  // Checked again on the address the connection really uses (publicOnlyAgent's lookup).
  if (!a.allowPrivateIps && isPrivateLiteral(a.url)) throw new DeliveryError(PRIVATE_IP_ERROR, true);
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(a.url, {
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
  // Free the connection; the answer's body is not used.
  await response.body?.cancel().catch(() => undefined);
  if (!ACCEPTED.has(response.status)) {
    throw new DeliveryError(`Received status code ${response.status}`, a.permanentStatuses?.includes(response.status) ?? false);
  }
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
