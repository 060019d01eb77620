// Getting in and back in by mail over GraphQL and real HTTP, with a real SMTP sink: the reset
// link that ends every session, the same answer for unknown addresses, the throttle's 429, the
// sign-in link that sets the cookie, and sign-up (closed by default, confirmed by mail when open).
import { describe, expect, it } from 'vitest';
import { useSmtpSink, useWorld } from '../../../helpers/fixtures.ts';
import { browserClient } from '../../../helpers/browser-client.ts';
import type { SinkMessage } from '../../../helpers/receivers.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';
import { LINK_INVALID, SIGN_UP_CLOSED } from '../../../../src/identity/email-links.ts';
import { MAIL_NOT_CONFIGURED } from '../../../../src/identity/mail.ts';

const sink = useSmtpSink({ reset: true });
/** The world's settings for the sink (a getter: the port is known once the sink has started). */
const mailEnv = (extra: Record<string, string> = {}) => ({
  ...extra,
  EMAIL_HOST: '127.0.0.1',
  // Read when the world starts, after the sink has its port.
  get EMAIL_PORT() {
    return String(sink.port);
  },
  EMAIL_USE_TLS: 'False',
  // Three requests per account and hour, so the throttle's test is short.
  RATE_LIMIT_LOGIN_ACCOUNT: '3/1h',
});
const w = useWorld(mailEnv());

const PASSWORD = 'correct horse battery';
const SIGN_IN = `mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { username } }`;
const VIEWER = `{ viewer { username } }`;

let n = 0;
async function account() {
  n++;
  return createAccount(w.app.db, { username: `linker${n}`, email: `linker${n}@example.org`, password: PASSWORD });
}

function tokenIn(m: SinkMessage, page: string): string {
  const match = new RegExp(`${w.url}/${page}/([A-Za-z0-9_-]{43})\\n`).exec(m.parsed.text ?? '');
  expect(match, m.parsed.text).not.toBeNull();
  return match![1]!;
}

async function mailedToken(page: string) {
  const [m] = await sink.waitFor(1);
  sink.messages.length = 0;
  return tokenIn(m!, page);
}

describe('password reset', () => {
  it('mails a link whose page the server serves, sets the new password once and signs the account out everywhere', async () => {
    const a = await account();
    const signedIn = browserClient(w);
    await signedIn.gql(SIGN_IN, { u: a.username, p: PASSWORD });
    expect((await signedIn.gql(VIEWER)).data.viewer.username).toBe(a.username);

    const asked = await browserClient(w).gql(`mutation($u: String!) { requestPasswordReset(username: $u) }`, { u: a.username });
    expect(asked).toMatchObject({ status: 200, data: { requestPasswordReset: true } });
    const token = await mailedToken('reset');
    // The page the link opens: the dashboard, never cached.
    const page = await fetch(`${w.url}/reset/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');

    const reset = `mutation($t: String!, $p: String!) { resetPassword(token: $t, password: $p) }`;
    const browser = browserClient(w);
    expect((await browser.gql(reset, { t: token, p: 'a brand new password' })).data.resetPassword).toBe(true);
    expect((await signedIn.gql(VIEWER)).data.viewer).toBeNull();
    const again = await browser.gql(reset, { t: token, p: 'yet another password' });
    expect(again.errors![0]).toMatchObject({ message: LINK_INVALID, extensions: { code: 'NOT_FOUND' } });
    expect((await browser.gql(SIGN_IN, { u: a.username, p: PASSWORD })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect((await browser.gql(SIGN_IN, { u: a.username, p: 'a brand new password' })).data.signIn.username).toBe(a.username);
  });

  it('answers an unknown account exactly as a known one, and mails nothing', async () => {
    const query = `mutation($u: String!) { requestPasswordReset(username: $u) }`;
    const unknown = await browserClient(w).gql(query, { u: 'nobody@example.org' });
    const a = await account();
    const known = await browserClient(w).gql(query, { u: a.email });
    expect([unknown.status, unknown.data, unknown.errors]).toEqual([known.status, known.data, known.errors]);
    const [m] = await sink.waitFor(1);
    expect(sink.messages.map((x) => x.to)).toEqual([[a.email]]);
    expect(m!.parsed.subject).toMatch(/^Reset your .* password$/);
  });

  it('answers 429 RATE_LIMITED with Retry-After once an account’s budget is spent, known or not', async () => {
    const query = `mutation($u: String!) { requestPasswordReset(username: $u) }`;
    for (const login of ['ghost-account', 'known']) {
      const a = login === 'known' ? (await account()).username : login;
      for (let i = 0; i < 3; i++) expect((await browserClient(w).gql(query, { u: a })).data.requestPasswordReset).toBe(true);
      const limited = await browserClient(w).gql(query, { u: a });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    }
    await sink.waitFor(3);
  });
});

describe('sign-in links', () => {
  it('signs in with the mailed link (the session cookie), once', async () => {
    const a = await account();
    expect((await browserClient(w).gql(`mutation($e: String!) { requestSignInLink(email: $e) }`, { e: a.email })).data.requestSignInLink).toBe(true);
    const token = await mailedToken('sign-in');
    expect((await fetch(`${w.url}/sign-in/${token}`)).status).toBe(200);
    const browser = browserClient(w);
    const signed = await browser.gql(`mutation($t: String!) { signInWithLink(token: $t) { username email } }`, { t: token });
    expect(signed.data.signInWithLink).toEqual({ username: a.username, email: a.email });
    expect(signed.headers.getSetCookie().join('\n')).toMatch(/^gateway_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
    expect((await browser.gql(VIEWER)).data.viewer.username).toBe(a.username);
    const again = await browserClient(w).gql(`mutation($t: String!) { signInWithLink(token: $t) { username } }`, { t: token });
    expect(again.errors![0]).toMatchObject({ message: LINK_INVALID, extensions: { code: 'NOT_FOUND' } });
  });

  it('answers an unknown address as a known one', async () => {
    const res = await browserClient(w).gql(`mutation { requestSignInLink(email: "nobody-at-all@example.org") }`);
    expect(res.data.requestSignInLink).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(sink.messages).toEqual([]);
  });
});

describe('sign-up, closed by default', () => {
  it('is FORBIDDEN, and creates nobody', async () => {
    const res = await browserClient(w).gql(`mutation { signUp(username: "hopeful", email: "hopeful@example.org", password: "correct horse battery") }`);
    expect(res.errors![0]).toMatchObject({ message: SIGN_UP_CLOSED, extensions: { code: 'FORBIDDEN' } });
    expect(await w.app.db.person.count({ where: { Username: 'hopeful' } })).toBe(0);
  });
});

describe('sign-up with REGISTRATION_OPEN=True', () => {
  const open = useWorld(mailEnv({ REGISTRATION_OPEN: 'True' }));

  it('mails a confirmation link; the account cannot sign in before following it, and can after', async () => {
    const browser = browserClient(open);
    const signUp = await browser.gql(`mutation { signUp(username: "freshman", email: "Freshman@Example.org", password: "correct horse battery") }`);
    expect(signUp.data.signUp).toBe(true);
    const [m] = await sink.waitFor(1);
    expect(m!.to).toEqual(['freshman@example.org']);
    const token = new RegExp(`${open.url}/verify/([A-Za-z0-9_-]{43})\\n`).exec(m!.parsed.text ?? '')![1]!;
    const early = await browser.gql(SIGN_IN, { u: 'freshman', p: PASSWORD });
    expect(early.errors![0]).toMatchObject({ message: 'confirm your email address first: follow the link we sent you', extensions: { code: 'UNAUTHENTICATED' } });
    expect((await fetch(`${open.url}/verify/${token}`)).status).toBe(200);
    expect((await browser.gql(`mutation($t: String!) { verifyEmail(token: $t) }`, { t: token })).data.verifyEmail).toBe(true);
    expect((await browser.gql(SIGN_IN, { u: 'freshman', p: PASSWORD })).data.signIn.username).toBe('freshman');
    expect((await browser.gql(`mutation($t: String!) { verifyEmail(token: $t) }`, { t: token })).errors![0]!.extensions.code).toBe('NOT_FOUND');
  });
});

describe('without mail settings', () => {
  const bare = useWorld();

  it('refuses every request for a link with a clear error, known address or not', async () => {
    await createAccount(bare.app.db, { username: 'unmailed', email: 'unmailed@example.org', password: PASSWORD });
    for (const [query, variables] of [
      [`mutation($u: String!) { requestPasswordReset(username: $u) }`, { u: 'unmailed' }],
      [`mutation($u: String!) { requestPasswordReset(username: $u) }`, { u: 'nobody' }],
      [`mutation($e: String!) { requestSignInLink(email: $e) }`, { e: 'unmailed@example.org' }],
      [`mutation($e: String!) { requestSignInLink(email: $e) }`, { e: 'nobody@example.org' }],
    ] as const) {
      const res = await browserClient(bare).gql(query, variables);
      expect(res.errors![0]).toMatchObject({ message: MAIL_NOT_CONFIGURED, extensions: { code: 'BAD_USER_INPUT' } });
    }
  });
});

describe('signUpOpen', () => {
  it('is false by default, asked by anyone (no key, no session)', async () => {
    expect(await browserClient(w).gql(`{ signUpOpen }`)).toMatchObject({ status: 200, data: { signUpOpen: false } });
  });

  describe('with REGISTRATION_OPEN=True', () => {
    const open = useWorld({ REGISTRATION_OPEN: 'True' });

    it('is true', async () => {
      expect(await browserClient(open).gql(`{ signUpOpen }`)).toMatchObject({ status: 200, data: { signUpOpen: true } });
    });
  });
});
