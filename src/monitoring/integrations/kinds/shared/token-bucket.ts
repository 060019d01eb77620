// Healthchecks' TokenBucket (hc/api/models.py), in memory: per process, not per installation.
// `capacity` messages per `windowMs` for one key, refilled continuously.
export class TokenBucket {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();

  constructor(
    private readonly capacity: number,
    private readonly windowMs: number,
  ) {}

  /** Takes a token for `key` at `now`; false when the key has used up its share. */
  authorize(key: string, now: number): boolean {
    const bucket = this.buckets.get(key) ?? { tokens: 1, updated: now };
    bucket.tokens = Math.min(1, bucket.tokens + (now - bucket.updated) / this.windowMs);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens - 1 / this.capacity < 0) return false;
    bucket.tokens -= 1 / this.capacity;
    // Forget buckets that have filled up again, so the map stays small.
    if (this.buckets.size > 10_000) for (const [k, b] of this.buckets) if (b.tokens + (now - b.updated) / this.windowMs >= 1) this.buckets.delete(k);
    return true;
  }
}
