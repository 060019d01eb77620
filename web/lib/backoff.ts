/** Milliseconds before retry number `attempt` (0-based): 0.5 s, doubling, at most `maxMs`. */
export const backoff = (attempt: number, maxMs = 30_000): number => Math.min(maxMs, 500 * 2 ** attempt);
