// Signing in: a username or email address and the password, then (when the person has one) a
// second factor: a code from their authenticator app, a security key or passkey, or a
// recovery code. Every attempt is counted per client address and per account (the campus
// login's throttle, shared with POST /login); a success gives the account's token back. An
// unknown account and a wrong password answer alike and in the same time (the password is
// always hashed), so the answer tells nobody which accounts exist.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { LOGIN_FAILED } from '../campus/auth.ts';
import type { LoginThrottle } from '../campus/login-throttle.ts';
import { personByUsername } from '../campus/lookup.ts';
import { DomainError, unauthenticated } from '../shared/errors.ts';
import { accountByLogin, maySignIn, setPassword, upgradePasswordHash } from './accounts.ts';
import type { IdentityDeps } from './context.ts';
import { verifyPassword } from './passwords.ts';
import { beginKeyAuthentication, finishKeyAuthentication, secondFactorsOf, useRecoveryCode, verifyTotp } from './second-factors/index.ts';
import { relyingParty } from './second-factors/relying-party.ts';
import { endAllSessions, endingAccess, openBrowserSession } from './sessions.ts';

export type SecondFactorMethod = 'totp' | 'security_key' | 'recovery_code';

/** The password was right and a second factor is needed: the client asks for one and tries again. */
export class SecondFactorRequiredError extends DomainError {
  constructor(readonly methods: SecondFactorMethod[]) {
    super('UNAUTHENTICATED', 'enter the code from your authenticator app, use your security key, or enter a recovery code');
    this.name = 'SecondFactorRequiredError';
  }
}

export interface Credentials {
  login: string;
  password: string;
  totp?: string | null;
  recoveryCode?: string | null;
  /** The browser's answer to the security-key challenge (beginSecurityKeySignIn). */
  securityKey?: AuthenticationResponseJSON | null;
}

export interface SignInContext {
  throttle: LoginThrottle | null;
  address: string;
  userAgent?: string | null;
  /** The session cookie the browser held: ended, so a signed-in browser always gets a new id. */
  replacing?: string | null;
}

const SECOND_FACTOR_FAILED = 'that second factor was not accepted';

/** The person behind the login and password, or UNAUTHENTICATED (counted against the throttle). */
async function passwordHolder(deps: IdentityDeps, login: string, password: string, context: SignInContext) {
  const succeeded = context.throttle ? await context.throttle.attempt(context.address, login) : () => {};
  const person = await accountByLogin(deps.db, login);
  const matches = await verifyPassword(password, person?.PasswordHash ?? null);
  if (!person || !matches) {
    // A sign-up waiting for its address to be confirmed: the right password earns the reason.
    const pending = person ? null : await personByUsername(deps.db, login.trim());
    if (pending && pending.AccountLevel === 'Contact' && (await pendingVerification(deps, pending.ID)) && (await verifyPassword(password, pending.PasswordHash))) {
      throw unauthenticated('confirm your email address first: follow the link we sent you');
    }
    throw unauthenticated(LOGIN_FAILED);
  }
  // An imported Django hash becomes ours at the first right password (even if a second factor is still to come).
  await upgradePasswordHash(deps.db, person.ID, person.PasswordHash, password);
  return { person, succeeded };
}

async function pendingVerification(deps: IdentityDeps, personId: number) {
  return (await deps.db.accountToken.count({ where: { personId, purpose: 'verify', usedAt: null, expiresAt: { gt: deps.clock.now() } } })) > 0;
}

/** Checks the second factor the credentials carry; throws SecondFactorRequiredError when none is given. */
export async function checkSecondFactor(deps: IdentityDeps, personId: number, credentials: Credentials) {
  const factors = await secondFactorsOf(deps.db, personId);
  if (!factors.totp && factors.securityKeys === 0) return;
  const now = deps.clock.now();
  let ok: boolean;
  if (credentials.totp) ok = factors.totp && (await verifyTotp(deps.db, personId, credentials.totp, now));
  else if (credentials.securityKey) ok = await finishKeyAuthentication(deps.db, personId, credentials.securityKey, relyingParty(deps.settings), now);
  else if (credentials.recoveryCode) ok = await useRecoveryCode(deps.db, personId, credentials.recoveryCode, now);
  else {
    const methods: SecondFactorMethod[] = [];
    if (factors.totp) methods.push('totp');
    if (factors.securityKeys > 0) methods.push('security_key');
    if (factors.recoveryCodesLeft > 0) methods.push('recovery_code');
    throw new SecondFactorRequiredError(methods);
  }
  if (!ok) throw unauthenticated(SECOND_FACTOR_FAILED);
}

/** Signs in: returns the new browser session's token (for the cookie) and the person. */
export async function signIn(deps: IdentityDeps, credentials: Credentials, context: SignInContext) {
  const { person, succeeded } = await passwordHolder(deps, credentials.login, credentials.password, context);
  await checkSecondFactor(deps, person.ID, credentials);
  succeeded();
  const session = await openBrowserSession(deps.db, deps.settings.sessions, {
    personId: person.ID,
    now: deps.clock.now(),
    userAgent: context.userAgent,
    address: context.address,
    replacing: context.replacing,
  });
  return { ...session, person };
}

/**
 * The security-key challenge for a sign-in whose password was right (the first step of signing
 * in with a key): the options for the browser's navigator.credentials.get().
 */
export async function beginSecurityKeySignIn(deps: IdentityDeps, login: string, password: string, context: SignInContext) {
  const { person, succeeded } = await passwordHolder(deps, login, password, context);
  const options = await beginKeyAuthentication(deps.db, person.ID, relyingParty(deps.settings), deps.clock.now());
  // The password was right: this step does not count against the account.
  succeeded();
  return options;
}

/** Opens a session for a person whose identity was proven otherwise (an emailed link, an accepted invitation). */
export async function openSessionFor(deps: IdentityDeps, personId: number, context: Omit<SignInContext, 'throttle'>) {
  const person = await deps.db.person.findUnique({ where: { ID: personId } });
  if (!person || !maySignIn(person.AccountLevel)) throw unauthenticated('this account cannot sign in');
  const session = await openBrowserSession(deps.db, deps.settings.sessions, { personId, now: deps.clock.now(), userAgent: context.userAgent, address: context.address, replacing: context.replacing });
  return { ...session, person };
}

/**
 * The signed-in person's password again, for changes that weaken or take over the account (a new
 * password, adding or removing a second factor, new recovery codes). Counted like a sign-in (per
 * address and per account), so a borrowed session cannot be used to guess the password.
 */
export async function confirmPassword(deps: IdentityDeps, me: { personId: number; username: string }, password: string, context: Pick<SignInContext, 'throttle' | 'address'>, message = 'the password is not right') {
  const succeeded = context.throttle ? await context.throttle.attempt(context.address, me.username) : () => {};
  const person = await deps.db.person.findUnique({ where: { ID: me.personId }, select: { PasswordHash: true } });
  if (!(await verifyPassword(password, person?.PasswordHash ?? null))) throw unauthenticated(message);
  await upgradePasswordHash(deps.db, me.personId, person!.PasswordHash, password);
  succeeded();
}

/** A new password for the signed-in person, who gives the current one. Every other session ends, browsers and campus tokens. */
export async function changePassword(deps: IdentityDeps, me: { personId: number; sessionId: number; username: string }, current: string, next: string, context: Pick<SignInContext, 'throttle' | 'address'>) {
  await confirmPassword(deps, me, current, context, 'the current password is not right');
  await setPassword(deps.db, me.personId, next);
  return endingAccess(deps, { personId: me.personId, projectId: null, sessionId: null }, (db) => endAllSessions(db, me.personId, me.sessionId));
}
