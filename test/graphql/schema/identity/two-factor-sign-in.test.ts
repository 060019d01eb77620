// Signing in with a second factor (authenticator app, security key, recovery code), the
// throttle on guesses, and changing the password.
import { describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { useWorld } from '../../../helpers/fixtures.ts';
import { browserClient } from '../../../helpers/browser-client.ts';
import { SoftAuthenticator } from '../../../helpers/soft-authenticator.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';

const w = useWorld({ RATE_LIMIT_LOGIN_ACCOUNT: '5/1h' });
const PASSWORD = 'correct horse battery';
const SIGN_IN = `mutation($u: String!, $p: String!, $t: String, $k: String, $r: String) { signIn(username: $u, password: $p, totp: $t, securityKey: $k, recoveryCode: $r) { username } }`;

let n = 0;
async function signedIn() {
  n++;
  const a = await createAccount(w.app.db, { username: `two${n}`, email: `two${n}@example.org`, password: PASSWORD });
  const browser = browserClient(w);
  await browser.gql(SIGN_IN, { u: a.username, p: PASSWORD });
  return { username: a.username, browser };
}

const codeAt = (secret: string, at: Date) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() });

describe('signing in with an authenticator app', () => {
  it('asks for the second factor after the right password, then takes the code once', async () => {
    const { username, browser } = await signedIn();
    const { secret } = (await browser.gql(`mutation($p: String!) { beginTotpSetup(password: $p) { secret } }`, { p: PASSWORD })).data.beginTotpSetup;
    const codes = (await browser.gql(`mutation($c: String!) { confirmTotpSetup(code: $c) }`, { c: codeAt(secret, w.clock.now()) })).data.confirmTotpSetup as string[];
    w.clock.advance(60_000);

    const fresh = browserClient(w);
    const asked = await fresh.gql(SIGN_IN, { u: username, p: PASSWORD });
    expect(asked.errors![0]!.extensions).toEqual({ code: 'SECOND_FACTOR_REQUIRED', methods: ['TOTP', 'RECOVERY_CODE'] });
    expect(asked.headers.getSetCookie()).toEqual([]);
    // A wrong password never reaches the second step: it says nothing about the factors.
    expect((await fresh.gql(SIGN_IN, { u: username, p: 'wrong wrong' })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');

    const wrongCode = await fresh.gql(SIGN_IN, { u: username, p: PASSWORD, t: '000000' === codeAt(secret, w.clock.now()) ? '111111' : '000000' });
    expect(wrongCode.errors![0]).toMatchObject({ message: 'that second factor was not accepted', extensions: { code: 'UNAUTHENTICATED' } });

    const code = codeAt(secret, w.clock.now());
    expect((await fresh.gql(SIGN_IN, { u: username, p: PASSWORD, t: code })).data.signIn.username).toBe(username);
    // The same code again (a replay) is refused.
    expect((await browserClient(w).gql(SIGN_IN, { u: username, p: PASSWORD, t: code })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    // A recovery code works once.
    expect((await browserClient(w).gql(SIGN_IN, { u: username, p: PASSWORD, r: codes[0] })).data.signIn.username).toBe(username);
    expect((await browserClient(w).gql(SIGN_IN, { u: username, p: PASSWORD, r: codes[0] })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('signing in with a security key', () => {
  it('takes the password, hands out a challenge, and signs in with the key\'s answer', async () => {
    const { username, browser } = await signedIn();
    const key = new SoftAuthenticator();
    const origin = new URL(w.url).origin;
    const creation = JSON.parse((await browser.gql(`mutation($p: String!) { beginSecurityKeySetup(password: $p) }`, { p: PASSWORD })).data.beginSecurityKeySetup);
    const setup = await browser.gql(`mutation($r: String!) { finishSecurityKeySetup(name: "YubiKey", response: $r) { securityKey { name } } }`, { r: JSON.stringify(key.register(creation, { origin })) });
    expect(setup.errors).toBeUndefined();

    const fresh = browserClient(w);
    expect((await fresh.gql(SIGN_IN, { u: username, p: PASSWORD })).errors![0]!.extensions.methods).toEqual(['SECURITY_KEY', 'RECOVERY_CODE']);
    expect((await fresh.gql(`mutation($u: String!) { beginSecurityKeySignIn(username: $u, password: "wrong wrong") }`, { u: username })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    const request = JSON.parse((await fresh.gql(`mutation($u: String!, $p: String!) { beginSecurityKeySignIn(username: $u, password: $p) }`, { u: username, p: PASSWORD })).data.beginSecurityKeySignIn);
    const answer = JSON.stringify(key.authenticate(request, { origin }));
    expect((await fresh.gql(SIGN_IN, { u: username, p: PASSWORD, k: answer })).data.signIn.username).toBe(username);
    expect((await fresh.gql(`{ viewer { username } }`)).data.viewer.username).toBe(username);
    // The answer was for that challenge only.
    expect((await browserClient(w).gql(SIGN_IN, { u: username, p: PASSWORD, k: answer })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('the throttle', () => {
  it('refuses guesses at one account with 429 and Retry-After once its budget is spent, whatever the password', async () => {
    const { username } = await signedIn();
    const browser = browserClient(w);
    for (let i = 0; i < 5; i++) expect((await browser.gql(SIGN_IN, { u: username, p: `guess ${i} wrong` })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    const limited = await browser.gql(SIGN_IN, { u: username, p: PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers.getSetCookie()).toEqual([]);
  });
});

describe('changePassword', () => {
  it('needs the current password, sets the new one and ends the person\'s other sessions', async () => {
    const { username, browser } = await signedIn();
    const other = browserClient(w);
    await other.gql(SIGN_IN, { u: username, p: PASSWORD });
    const wrong = await browser.gql(`mutation { changePassword(currentPassword: "nope nope", newPassword: "a new password") }`);
    expect(wrong.errors![0]!.message).toBe('the current password is not right');
    const short = await browser.gql(`mutation($c: String!) { changePassword(currentPassword: $c, newPassword: "short") }`, { c: PASSWORD });
    expect(short.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
    expect((await browser.gql(`mutation($c: String!) { changePassword(currentPassword: $c, newPassword: "a new password") }`, { c: PASSWORD })).data.changePassword).toBe(1);
    expect((await other.gql(`{ viewer { username } }`)).data.viewer).toBeNull();
    expect((await browser.gql(`{ viewer { username } }`)).data.viewer.username).toBe(username);
    expect((await browserClient(w).gql(SIGN_IN, { u: username, p: 'a new password' })).data.signIn.username).toBe(username);
  });
});
