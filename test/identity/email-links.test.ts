// Getting in and back in by mail, in the domain: password reset, sign-in links and sign-up with
// a confirmed address, through a real SMTP sink. Links are single-use, expire (the world's
// clock), are stored only as their sha256, and asking for one answers the same for any address.
import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { useSmtpSink, useWorld, mailTo } from '../helpers/fixtures.ts';
import type { SinkMessage } from '../helpers/receivers.ts';
import { createAccount } from '../../src/identity/accounts.ts';
import type { IdentityDeps } from '../../src/identity/context.ts';
import {
  LINK_INVALID,
  requestPasswordReset,
  requestSignInLink,
  resetPassword,
  SIGN_UP_CLOSED,
  signInWithLink,
  signUp,
  verifyEmail,
} from '../../src/identity/email-links.ts';
import { MAIL_NOT_CONFIGURED, renderMail } from '../../src/identity/mail.ts';
import { openBrowserSession } from '../../src/identity/sessions.ts';
import { signIn, SecondFactorRequiredError } from '../../src/identity/sign-in.ts';
import { hashSecret } from '../../src/identity/tokens.ts';
import { beginTotp, confirmTotp } from '../../src/identity/second-factors/index.ts';
import { LoginThrottle } from '../../src/campus/login-throttle.ts';
import { RateLimiter } from '../../src/http/rate-limit.ts';

const sink = useSmtpSink({ reset: true });
const w = useWorld(mailTo(sink, { DEFAULT_FROM_EMAIL: 'accounts@gateway.example', SITE_NAME: 'Campus Checks' }));

const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
const asker = { throttle: null, address: '192.0.2.1' };
const deps = (): IdentityDeps => w.app.services.identity;
/** The same deps with other settings (sign-up open, no mail). */
const withSettings = (settings: Partial<IdentityDeps['settings']>): IdentityDeps => {
  const d = deps();
  return { ...d, settings: { ...d.settings, ...settings } };
};

let n = 0;
async function account(level = 'User') {
  n++;
  return createAccount(w.app.db, { username: `reader${n}`, email: `Reader${n}@Example.org`, password: PASSWORD, level });
}

/** The token of the link of `page` in a message. */
function tokenIn(m: SinkMessage, page: string): string {
  const match = new RegExp(`${w.url}/${page}/([A-Za-z0-9_-]{43})\\n`).exec(m.parsed.text ?? '');
  expect(match, m.parsed.text).not.toBeNull();
  return match![1]!;
}

async function nextMail(page: string) {
  const [m] = await sink.waitFor(1);
  return { m: m!, token: tokenIn(m!, page) };
}

/** Waits for the work done after an answer (lookups, mail) that sends nothing. */
const settle = () => new Promise((r) => setTimeout(r, 150));

const refused = (code: string, message?: string) => expect.objectContaining({ code, ...(message ? { message } : {}) });

describe('password reset', () => {
  it('mails a link to the account’s address that sets a new password once, within the hour, and is stored only hashed', async () => {
    const a = await account();
    await requestPasswordReset(deps(), a.username, asker);
    const { m, token } = await nextMail('reset');
    expect(m.from).toBe('accounts@gateway.example');
    expect(m.to).toEqual([a.email]);
    expect(m.parsed.subject).toBe('Reset your Campus Checks password');
    expect(m.parsed.text).toContain(`Hello ${a.username},`);
    expect(m.parsed.html).toContain(`href="${w.url}/reset/${token}"`);
    const stored = await w.app.db.accountToken.findMany({ where: { personId: a.id } });
    expect(stored).toEqual([expect.objectContaining({ purpose: 'reset', tokenHash: hashSecret(token), usedAt: null, expiresAt: new Date(w.clock.now().getTime() + HOUR) })]);
    expect(JSON.stringify(stored)).not.toContain(token);

    // A password the rules refuse does not spend the link.
    await expect(resetPassword(deps(), token, 'short')).rejects.toEqual(refused('VALIDATION'));
    await resetPassword(deps(), token, 'a brand new password');
    await expect(resetPassword(deps(), token, 'yet another password')).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));
    const session = await signIn(deps(), { login: a.username, password: 'a brand new password' }, asker);
    expect(session.person.ID).toBe(a.id);
    await expect(signIn(deps(), { login: a.username, password: PASSWORD }, asker)).rejects.toEqual(refused('UNAUTHENTICATED'));
  });

  it('takes the email address too, and a link expires after an hour', async () => {
    const a = await account();
    await requestPasswordReset(deps(), a.email!.toUpperCase(), asker);
    const { token } = await nextMail('reset');
    w.clock.advance(HOUR);
    await expect(resetPassword(deps(), token, 'a brand new password')).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));
  });

  it('ends every session of the person and tells their subscriptions, and spends their other links', async () => {
    const a = await account();
    const settings = deps().settings.sessions;
    await openBrowserSession(w.app.db, settings, { personId: a.id, now: w.clock.now() });
    await openBrowserSession(w.app.db, settings, { personId: a.id, now: w.clock.now() });
    await requestPasswordReset(deps(), a.username, asker);
    const first = (await nextMail('reset')).token;
    sink.messages.length = 0;
    await requestSignInLink(deps(), a.email!, asker);
    const link = (await nextMail('sign-in')).token;
    const events: unknown[] = [];
    const listener = (e: unknown) => events.push(e);
    w.app.deps.events.on('accessChanged', listener);
    try {
      await resetPassword(deps(), first, 'a brand new password');
    } finally {
      w.app.deps.events.off('accessChanged', listener);
    }
    expect(await w.app.db.campusSession.count({ where: { PersonID: a.id } })).toBe(0);
    expect(events).toEqual([{ personId: a.id, projectId: null, sessionId: null }]);
    await expect(signInWithLink(deps(), link, {}, asker)).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));
  });

  it('answers an unknown login exactly as a known one, and sends nothing', async () => {
    await expect(requestPasswordReset(deps(), 'nobody-here', asker)).resolves.toBeUndefined();
    await expect(requestPasswordReset(deps(), 'nobody@example.org', asker)).resolves.toBeUndefined();
    // A Contact (a campus record who may not sign in) gets nothing either.
    const contact = await w.app.db.person.create({ data: { FirstName: 'Par', LastName: 'Ent', Username: 'parent-1', AccountLevel: 'Contact' } });
    await requestPasswordReset(deps(), 'parent-1', asker);
    await settle();
    expect(sink.messages).toEqual([]);
    expect(await w.app.db.accountToken.count({ where: { personId: contact.ID } })).toBe(0);
  });

  it('refuses, for everyone alike, when the server has no mail settings, before anything changes', async () => {
    const a = await account();
    const noMail = withSettings({ email: null });
    await expect(requestPasswordReset(noMail, a.username, asker)).rejects.toEqual(refused('VALIDATION', MAIL_NOT_CONFIGURED));
    await expect(requestPasswordReset(noMail, 'nobody-here', asker)).rejects.toEqual(refused('VALIDATION', MAIL_NOT_CONFIGURED));
    await expect(requestSignInLink(noMail, 'nobody@example.org', asker)).rejects.toEqual(refused('VALIDATION', MAIL_NOT_CONFIGURED));
    expect(await w.app.db.accountToken.count({ where: { personId: a.id } })).toBe(0);
  });

  it('counts every request per account and per address, known or not', async () => {
    const throttle = new LoginThrottle({ account: new RateLimiter({ limit: 2, windowMs: HOUR }, w.clock, 100), address: new RateLimiter({ limit: 5, windowMs: HOUR }, w.clock, 100) });
    const ctx = { throttle, address: '192.0.2.9' };
    for (const login of ['someone', 'someone']) await requestPasswordReset(deps(), login, ctx);
    await expect(requestPasswordReset(deps(), 'SOMEONE', ctx)).rejects.toMatchObject({ name: 'LoginRateLimitedError', scope: 'login_account' });
    for (const login of ['other-1', 'other-2']) await requestPasswordReset(deps(), login, ctx);
    await expect(requestPasswordReset(deps(), 'other-3', ctx)).rejects.toMatchObject({ name: 'LoginRateLimitedError', scope: 'login_address' });
  });
});

describe('sign-in links', () => {
  it('signs in once with a link mailed to an account’s address; a second use or an hour later is refused', async () => {
    const a = await account();
    await requestSignInLink(deps(), a.email!, asker);
    const { m, token } = await nextMail('sign-in');
    expect(m.parsed.subject).toBe('Sign in to Campus Checks');
    const session = await signInWithLink(deps(), token, {}, asker);
    expect(session.person.ID).toBe(a.id);
    expect(await w.app.db.campusSession.count({ where: { PersonID: a.id } })).toBe(1);
    await expect(signInWithLink(deps(), token, {}, asker)).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));

    sink.messages.length = 0;
    await requestSignInLink(deps(), a.email!, asker);
    const later = (await nextMail('sign-in')).token;
    w.clock.advance(HOUR + 1000);
    await expect(signInWithLink(deps(), later, {}, asker)).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));
  });

  it('asks for the second factor first and spends the link only once it passed', async () => {
    const a = await account();
    const { secret } = await beginTotp(w.app.db, a.id, { issuer: 'x', accountName: a.username });
    const code = (at: Date) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() });
    await confirmTotp(w.app.db, a.id, code(w.clock.now()), w.clock.now());
    w.clock.advance(30_000);
    await requestSignInLink(deps(), a.email!, asker);
    const { token } = await nextMail('sign-in');
    await expect(signInWithLink(deps(), token, {}, asker)).rejects.toBeInstanceOf(SecondFactorRequiredError);
    await expect(signInWithLink(deps(), token, { totp: '000000' }, asker)).rejects.toEqual(refused('UNAUTHENTICATED'));
    const session = await signInWithLink(deps(), token, { totp: code(w.clock.now()) }, asker);
    expect(session.person.ID).toBe(a.id);
  });

  it('sends nothing for an unknown address or one of a person who may not sign in', async () => {
    const disabled = await account();
    await w.app.db.person.update({ where: { ID: disabled.id }, data: { AccountLevel: 'Disabled' } });
    await requestSignInLink(deps(), 'nobody@example.org', asker);
    await requestSignInLink(deps(), disabled.email!, asker);
    await settle();
    expect(sink.messages).toEqual([]);
    await expect(requestSignInLink(deps(), 'not an address', asker)).rejects.toEqual(refused('VALIDATION'));
  });
});

describe('sign-up', () => {
  const open = () => withSettings({ registrationOpen: true });

  it('is closed unless REGISTRATION_OPEN', async () => {
    await expect(signUp(deps(), { username: 'newbie', email: 'newbie@example.org', password: PASSWORD }, asker)).rejects.toEqual(refused('FORBIDDEN', SIGN_UP_CLOSED));
    expect(await w.app.db.person.count({ where: { Username: 'newbie' } })).toBe(0);
  });

  it('creates a Contact who cannot sign in until the mailed link confirms the address', async () => {
    await signUp(open(), { username: 'joiner', email: 'Joiner@Example.org', password: PASSWORD }, asker);
    const person = await w.app.db.person.findFirstOrThrow({ where: { Username: 'joiner' } });
    expect(person.AccountLevel).toBe('Contact');
    const { m, token } = await nextMail('verify');
    expect(m.to).toEqual(['joiner@example.org']);
    expect(m.parsed.subject).toBe('Confirm your email address for Campus Checks');
    await expect(signIn(deps(), { login: 'joiner', password: PASSWORD }, asker)).rejects.toEqual(refused('UNAUTHENTICATED', 'confirm your email address first: follow the link we sent you'));
    await verifyEmail(deps(), token);
    expect((await w.app.db.person.findUniqueOrThrow({ where: { ID: person.ID } })).AccountLevel).toBe('User');
    expect((await signIn(deps(), { login: 'joiner@example.org', password: PASSWORD }, asker)).person.ID).toBe(person.ID);
    await expect(verifyEmail(deps(), token)).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));
  });

  it('mails a new confirmation link when the sign-up is repeated (the old one stops working), and links expire after 24 hours', async () => {
    await signUp(open(), { username: 'twice', email: 'twice@example.org', password: PASSWORD }, asker);
    const first = (await nextMail('verify')).token;
    sink.messages.length = 0;
    await signUp(open(), { username: 'twice-again', email: 'twice@example.org', password: 'another password' }, asker);
    const second = (await nextMail('verify')).token;
    expect(await w.app.db.person.count({ where: { Username: 'twice-again' } })).toBe(0);
    await expect(verifyEmail(deps(), first)).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));
    w.clock.advance(24 * HOUR);
    await expect(verifyEmail(deps(), second)).rejects.toEqual(refused('NOT_FOUND', LINK_INVALID));
  });

  it('answers the same for an address that has an account, whose owner gets a sign-in link instead', async () => {
    const a = await account();
    await signUp(open(), { username: 'intruder', email: a.email!, password: PASSWORD }, asker);
    const { m, token } = await nextMail('sign-in');
    expect(m.to).toEqual([a.email]);
    expect(m.parsed.text).toContain(`It already belongs to your account, ${a.username}`);
    expect(await w.app.db.person.count({ where: { Username: 'intruder' } })).toBe(0);
    expect((await signInWithLink(deps(), token, {}, asker)).person.ID).toBe(a.id);
  });

  it('refuses a taken username, a bad address or a short password, and without mail settings, creating nobody', async () => {
    const a = await account();
    await expect(signUp(open(), { username: a.username, email: 'fresh@example.org', password: PASSWORD }, asker)).rejects.toEqual(refused('CONFLICT', 'that username is taken'));
    await expect(signUp(open(), { username: 'fresh', email: 'fresh@', password: PASSWORD }, asker)).rejects.toEqual(refused('VALIDATION', 'enter a valid email address'));
    await expect(signUp(open(), { username: 'fresh', email: 'fresh@example.org', password: 'short' }, asker)).rejects.toEqual(refused('VALIDATION'));
    await expect(signUp(withSettings({ registrationOpen: true, email: null }), { username: 'fresh', email: 'fresh@example.org', password: PASSWORD }, asker)).rejects.toEqual(refused('VALIDATION', MAIL_NOT_CONFIGURED));
    expect(await w.app.db.person.count({ where: { Username: 'fresh' } })).toBe(0);
  });
});

describe('the mail', () => {
  it('escapes what it quotes in its HTML part', () => {
    const { text, html } = renderMail('A <b> site', { to: 'x@example.org', subject: 's', intro: ['Tom & "Jerry" <script>'], link: { label: 'Go', url: 'https://example.org/?a=1&b=2' }, outro: [] });
    expect(html).toContain('Tom &#38; &#34;Jerry&#34; &#60;script&#62;');
    expect(html).toContain('href="https://example.org/?a=1&#38;b=2"');
    expect(html).not.toContain('<script>');
    expect(text).toContain('Go:\nhttps://example.org/?a=1&b=2');
  });
});
