// Login attempts counted per account and per client address, whatever the transport: POST
// /login takes its tokens at the front door (src/http/limits.ts), the GraphQL `login` mutation
// in throttledLogin below, both from the same buckets. Each login in an operation counts, so
// aliasing 25 logins into one request is 25 attempts.
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { login } from './auth.ts';
import { RateLimitedError } from '../shared/errors.ts';

type Verdict = { ok: true } | { ok: false; retryAfter: number };

/** A budget per key: src/rate-limits/redis-limiter.ts's Limiter (Redis-shared or in memory), or a RateLimiter. */
export interface Bucket {
  take(key: string): Verdict | Promise<Verdict>;
  refund(key: string): void | Promise<void>;
}

export type LoginScope = 'login_account' | 'login_address';

/** Refused before the password is looked at; `retryAfter` in whole seconds. */
export class LoginRateLimitedError extends RateLimitedError {
  constructor(
    readonly scope: LoginScope,
    retryAfter: number,
  ) {
    super(`Too many login attempts, try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`, retryAfter);
    this.name = 'LoginRateLimitedError';
  }
}

/** Usernames are kept hashed (no account names in memory) and lower-cased: differing only in case, they share a budget. */
const accountKey = (username: string) => `user:${createHash('sha256').update(username.toLowerCase()).digest('base64url').slice(0, 22)}`;

export class LoginThrottle {
  constructor(
    private readonly buckets: { account: Bucket | null; address: Bucket | null },
    private readonly onLimited: (scope: LoginScope) => void = () => {},
  ) {}

  /**
   * Takes a token from the address's bucket, then the account's (none without a username);
   * throws LoginRateLimitedError when either is empty. Every attempt takes its token up front,
   * so concurrent guesses cannot slip past the count; call the returned function when the
   * login succeeded: it gives the account's token back, so only failures add up.
   */
  async attempt(address: string, username: string | null): Promise<() => void> {
    await this.take('login_address', this.buckets.address, `addr:${address}`);
    const account = this.buckets.account;
    if (!username || !account) return () => {};
    const key = accountKey(username);
    await this.take('login_account', account, key);
    // A shared bucket's refund fails over to memory by itself; the caller never waits for it.
    return () => void Promise.resolve(account.refund(key)).catch(() => {});
  }

  private async take(scope: LoginScope, bucket: Bucket | null, key: string) {
    const verdict = await bucket?.take(key);
    if (!verdict || verdict.ok) return;
    this.onLimited(scope);
    throw new LoginRateLimitedError(scope, verdict.retryAfter);
  }
}

/** `login`, counted by `throttle` (none: not limited) for the client at `address`. */
export async function throttledLogin(db: Db, throttle: LoginThrottle | null, address: string, username: string, password: string) {
  const succeeded = throttle ? await throttle.attempt(address, username) : () => {};
  const session = await login(db, username, password);
  succeeded();
  return session;
}
