// When a failed delivery is tried again. Healthchecks tries an HTTP notification 3 times in a
// row and then gives up for good; a receiver that is down for a deploy would miss the alert.
// We keep the notification and back off exponentially: 5 s, 20 s, 80 s, 5m20s, 21m20s,
// 1h25m20s after attempts 1..6, so 7 attempts span almost two hours before it is marked failed.

export interface RetryPolicy {
  /** Delay after the first failed attempt; each later delay is `factor` times the previous. */
  baseMs: number;
  factor: number;
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 5_000, factor: 4, maxAttempts: 7 };

/** The next attempt's earliest time after failed attempt number `attempt` (1-based), or null: give up. */
export function nextAttemptAfter(policy: RetryPolicy, attempt: number, failedAt: Date): Date | null {
  if (attempt >= policy.maxAttempts) return null;
  return new Date(failedAt.getTime() + policy.baseMs * policy.factor ** (attempt - 1));
}

/** A receiver's Retry-After is honoured up to this long: an alert held longer would be stale. */
export const RETRY_AFTER_MAX_MS = 3_600_000;

/**
 * The next attempt no sooner than the receiver asked (a 429's or 503's Retry-After, at most an
 * hour), still within the attempts left: a last attempt stays the last.
 */
export function withRetryAfter(next: Date | null, failedAt: Date, retryAfterMs: number | undefined): Date | null {
  if (!next || retryAfterMs === undefined) return next;
  const asked = failedAt.getTime() + Math.min(retryAfterMs, RETRY_AFTER_MAX_MS);
  return asked > next.getTime() ? new Date(asked) : next;
}
