// Login attempts counted per client address and per account, on real token buckets with a
// manual clock: failures add up, a success gives its account token back, case does not matter.
import { describe, expect, it } from 'vitest';
import { LoginRateLimitedError, LoginThrottle, throttledLogin, type LoginScope } from '../../src/campus/login-throttle.ts';
import { RateLimiter } from '../../src/http/rate-limit.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { hashPassword } from '../../src/campus/auth.ts';
import { T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';

function throttle(account: number | null, address: number | null, windowMs = 3_600_000) {
  const clock = new ManualClock(T0);
  const limited: LoginScope[] = [];
  const bucket = (limit: number | null) => (limit === null ? null : new RateLimiter({ limit, windowMs }, clock));
  return { clock, limited, t: new LoginThrottle({ account: bucket(account), address: bucket(address) }, (s) => limited.push(s)) };
}

const refusedBy = async (work: () => unknown) => {
  try {
    await work();
    return null;
  } catch (err) {
    if (!(err instanceof LoginRateLimitedError)) throw err;
    return [err.scope, err.retryAfter, err.message];
  }
};

describe('LoginThrottle', () => {
  it('refuses the account past its budget, with the seconds until the next token', async () => {
    const { t, limited } = throttle(3, 100);
    for (let i = 0; i < 3; i++) await t.attempt('10.0.0.1', 'ada');
    expect(await refusedBy(() => t.attempt('10.0.0.2', 'ada'))).toEqual(['login_account', 1200, 'Too many login attempts, try again in 1200 seconds']);
    expect(limited).toEqual(['login_account']);
    // Another account is not affected.
    expect(await refusedBy(() => t.attempt('10.0.0.1', 'grace'))).toBeNull();
  });

  it('counts usernames differing only in case as one account', async () => {
    const { t } = throttle(2, 100);
    await t.attempt('a', 'Ada');
    await t.attempt('a', 'ADA');
    expect((await refusedBy(() => t.attempt('a', 'ada')))?.[0]).toBe('login_account');
  });

  it('does not count a login that succeeded', async () => {
    const { t } = throttle(2, 100);
    for (let i = 0; i < 5; i++) (await t.attempt('a', 'ada'))();
    await t.attempt('a', 'ada');
    await t.attempt('a', 'ada');
    expect((await refusedBy(() => t.attempt('a', 'ada')))?.[0]).toBe('login_account');
  });

  it('limits an address whatever the account, and says 1 second in the singular', async () => {
    // A token every 1,024 ms (binary fractions, so the refill adds up exactly).
    const { t, clock, limited } = throttle(100, 2, 2048);
    await t.attempt('10.0.0.1', 'a');
    await t.attempt('10.0.0.1', 'b');
    clock.advance(24);
    expect(await refusedBy(() => t.attempt('10.0.0.1', 'c'))).toEqual(['login_address', 1, 'Too many login attempts, try again in 1 second']);
    expect(limited).toEqual(['login_address']);
    expect(await refusedBy(() => t.attempt('10.0.0.2', 'c'))).toBeNull();
    clock.advance(1000);
    expect(await refusedBy(() => t.attempt('10.0.0.1', 'c'))).toBeNull();
  });

  it('counts only the address when there is no username or no account bucket', async () => {
    const noAccount = throttle(null, 100);
    for (let i = 0; i < 10; i++) await noAccount.t.attempt('a', 'ada');
    const { t } = throttle(1, 100);
    for (let i = 0; i < 10; i++) await t.attempt('a', null);
    expect(await refusedBy(() => t.attempt('a', 'ada'))).toBeNull();
  });
});

describe('throttledLogin', async () => {
  const w = useWorld();

  it('counts wrong passwords against the account and lets a right one through, uncounted', async () => {
    await w.app.db.person.create({ data: { FirstName: 'Ada', LastName: 'Lovelace', Username: 'ada', AccountLevel: 'User', PasswordHash: await hashPassword('engine'), Class: 'Emergence\\People\\User' } });
    const { t } = throttle(3, 100);
    const attempt = (password: string) => throttledLogin(w.app.db, t, '10.0.0.1', 'ada', password).then(
      (s) => `ok ${s.person.Username}`,
      (e: Error) => e.message,
    );
    expect(await attempt('engine')).toBe('ok ada');
    expect(await attempt('wrong')).toBe('The username or password you entered was incorrect.');
    expect(await attempt('engine')).toBe('ok ada');
    expect(await attempt('wrong')).toBe('The username or password you entered was incorrect.');
    expect(await attempt('wrong')).toBe('The username or password you entered was incorrect.');
    expect(await attempt('engine')).toBe('Too many login attempts, try again in 1200 seconds');
    expect(await throttledLogin(w.app.db, null, '10.0.0.1', 'ada', 'engine').then((s) => s.person.Username)).toBe('ada');
  });
});
