// Getting in and back in by mail: a password reset, a sign-in link, and the sign-up whose
// address is confirmed by a link before the account may sign in (REGISTRATION_OPEN). Each link
// is a random token stored as its sha256 (AccountToken), used once (a compare-and-set on
// usedAt) within its lifetime. Asking for a reset or a sign-in link answers the same for any
// address: the look-up, the token and the mail happen after the answer, so neither the answer
// nor its timing tells whether an account exists. Every request is counted per client address
// and per account by the login throttle (each one may send a mail, so successes count too).
import { committing, TransactionEvents } from '../events/outbox.ts';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { LoginThrottle } from '../campus/login-throttle.ts';
import { personByUsername } from '../campus/lookup.ts';
import { conflict, forbidden, notFound, unauthenticated, validationError } from '../shared/errors.ts';
import { accountByLogin, accountEmail, accountIdByEmail, checkSignUpInput, createPendingAccount, isEmail, maySignIn, normalEmail } from './accounts.ts';
import type { IdentityDeps } from './context.ts';
import { MailDeliveryError, requireMail, sendIdentityMail, siteLink, type IdentityMail } from './mail.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { beginKeyAuthentication } from './second-factors/index.ts';
import { relyingParty } from './second-factors/relying-party.ts';
import { checkSecondFactor, openSessionFor, type SignInContext } from './sign-in.ts';
import { hashSecret, newSecret } from './tokens.ts';

const HOUR_MS = 3_600_000;
/** How long each emailed link works. */
export const LINK_LIFETIMES_MS = { reset: HOUR_MS, 'sign-in': HOUR_MS, verify: 24 * HOUR_MS } as const;
export type LinkPurpose = keyof typeof LINK_LIFETIMES_MS;

export const LINK_INVALID = 'this link has expired or was already used: ask for a new one';
export const SIGN_UP_CLOSED = 'sign-up is closed: ask an administrator for an account';

/** Who asks (the throttle counts per client address and per account); null throttle: not limited. */
export interface LinkRequestContext {
  throttle: LoginThrottle | null;
  address: string;
}

/** The second factor a sign-in link needs when the person has one (as for signIn). */
export interface LinkSecondFactor {
  totp?: string | null;
  recoveryCode?: string | null;
  securityKey?: AuthenticationResponseJSON | null;
}

/** A new link for the person; spent and lapsed ones of its kind go, live ones keep working. */
async function issueLink(deps: IdentityDeps, personId: number, purpose: LinkPurpose, data: string | null = null): Promise<string> {
  const now = deps.clock.now();
  await deps.db.accountToken.deleteMany({
    // A new confirmation link replaces the earlier ones (an unused one marks a sign-up as waiting).
    where: purpose === 'verify' ? { personId, purpose } : { personId, purpose, OR: [{ usedAt: { not: null } }, { expiresAt: { lte: now } }] },
  });
  const token = newSecret();
  await deps.db.accountToken.create({ data: { personId, purpose, tokenHash: hashSecret(token), data, expiresAt: new Date(now.getTime() + LINK_LIFETIMES_MS[purpose]) } });
  return token;
}

/** The link behind a token when it is of this kind, unused and unexpired; else null. */
async function liveLink(deps: IdentityDeps, token: string, purpose: LinkPurpose) {
  if (!token || token.length > 200) return null;
  const link = await deps.db.accountToken.findUnique({ where: { tokenHash: hashSecret(token) } });
  return link && link.purpose === purpose && link.usedAt === null && link.expiresAt > deps.clock.now() ? link : null;
}

/** Uses the link up: true for exactly one caller, however many present it at once. */
async function claim(client: Pick<IdentityDeps['db'], 'accountToken'>, id: number, now: Date): Promise<boolean> {
  const { count } = await client.accountToken.updateMany({ where: { id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  return count === 1;
}

/**
 * Builds and sends a mail after the answer: whether one goes out (an account exists) must show
 * neither in the response nor in its time. A failure is the log's (the asker sees none).
 */
function deliverLater(deps: IdentityDeps, build: () => Promise<IdentityMail | null>) {
  void (async () => {
    const mail = await build();
    if (mail) await sendIdentityMail(deps.settings, mail);
  })().catch((err: unknown) => {
    deps.log?.warn({ err, detail: err instanceof MailDeliveryError ? err.detail : undefined }, 'identity mail not sent');
  });
}

const ignore = (what: string) => `If you did not ask for ${what}, ignore this mail.`;

function resetMail(deps: IdentityDeps, to: string, username: string, token: string): IdentityMail {
  const site = deps.settings.siteName;
  return {
    to,
    subject: `Reset your ${site} password`,
    intro: [`Hello ${username},`, `Someone, hopefully you, asked to reset the password of your ${site} account.`],
    link: { label: 'Choose a new password', url: siteLink(deps.settings, 'reset', token) },
    outro: ['The link works once, within an hour. A new password signs you out everywhere.', `${ignore('it')} Your password stays as it is.`],
  };
}

function signInMail(deps: IdentityDeps, to: string, username: string, token: string, why: string): IdentityMail {
  const site = deps.settings.siteName;
  return {
    to,
    subject: `Sign in to ${site}`,
    intro: [`Hello ${username},`, why],
    link: { label: `Sign in to ${site}`, url: siteLink(deps.settings, 'sign-in', token) },
    outro: ['The link works once, within an hour.', ignore('it')],
  };
}

function verifyMail(deps: IdentityDeps, to: string, username: string, token: string): IdentityMail {
  const site = deps.settings.siteName;
  return {
    to,
    subject: `Confirm your email address for ${site}`,
    intro: [`Hello ${username},`, `Thank you for signing up at ${site}. Confirm that this address is yours, and your account is ready.`],
    link: { label: 'Confirm my address', url: siteLink(deps.settings, 'verify', token) },
    outro: ['The link works once, within 24 hours; until then the account cannot sign in.', ignore('an account')],
  };
}

/**
 * Mails a link to choose a new password to the account's address. Answers the same whether
 * `login` (a username or an email address) names an account or not; VALIDATION without mail.
 */
export async function requestPasswordReset(deps: IdentityDeps, login: string, context: LinkRequestContext): Promise<void> {
  // Checked for everyone: a missing mail setup must not answer differently for known addresses.
  requireMail(deps.settings);
  const typed = login.trim();
  if (!typed) throw validationError('enter your username or email address');
  await context.throttle?.attempt(context.address, typed);
  deliverLater(deps, async () => {
    const person = await accountByLogin(deps.db, typed);
    const to = person?.Username ? await accountEmail(deps.db, person.ID) : null;
    if (!person?.Username || !to) return null;
    return resetMail(deps, to, person.Username, await issueLink(deps, person.ID, 'reset'));
  });
}

/**
 * Sets the password from a reset link (used up), ends every session of the person (whoever
 * knew the old password is signed out with it) and tells their open subscriptions.
 */
export async function resetPassword(deps: IdentityDeps, token: string, newPassword: string): Promise<void> {
  // A password the rules refuse leaves the link usable for a better one.
  const problem = passwordProblem(newPassword);
  if (problem) throw validationError(problem);
  const link = await liveLink(deps, token, 'reset');
  if (!link) throw notFound(LINK_INVALID);
  const passwordHash = await hashPassword(newPassword);
  const now = deps.clock.now();
  // The sessions' end is kept with the change (events/outbox.ts): every instance ends the person's subscriptions.
  await committing(deps.db, new TransactionEvents(deps.events, deps.clock), async (tx, events) => {
    if (!(await claim(tx, link.id, now))) throw notFound(LINK_INVALID);
    await tx.person.update({ where: { ID: link.personId }, data: { PasswordHash: passwordHash } });
    // The other links in the mailbox stop working too: they were for the password now replaced.
    await tx.accountToken.updateMany({ where: { personId: link.personId, purpose: { in: ['reset', 'sign-in'] }, usedAt: null }, data: { usedAt: now } });
    // endAllSessions, inside the change: no session outlives the old password by a moment.
    await tx.campusSession.deleteMany({ where: { PersonID: link.personId } });
    events.add('accessChanged', { personId: link.personId, projectId: null, sessionId: null });
  });
}

/** Mails a sign-in link to `email` when it is an account's address; answers the same when not. */
export async function requestSignInLink(deps: IdentityDeps, email: string, context: LinkRequestContext): Promise<void> {
  requireMail(deps.settings);
  if (!isEmail(email)) throw validationError('enter a valid email address');
  const address = normalEmail(email);
  await context.throttle?.attempt(context.address, address);
  deliverLater(deps, async () => {
    const id = await accountIdByEmail(deps.db, email);
    const person = id === null ? null : await deps.db.person.findUnique({ where: { ID: id } });
    if (!person?.Username || !maySignIn(person.AccountLevel)) return null;
    const token = await issueLink(deps, person.ID, 'sign-in');
    return signInMail(deps, address, person.Username, token, `Here is your link to sign in to ${deps.settings.siteName}.`);
  });
}

/** The person a live sign-in link is for (who may sign in), or the link's refusal. */
async function signInLinkHolder(deps: IdentityDeps, token: string) {
  const link = await liveLink(deps, token, 'sign-in');
  if (!link) throw notFound(LINK_INVALID);
  const person = await deps.db.person.findUnique({ where: { ID: link.personId } });
  if (!person?.Username || !maySignIn(person.AccountLevel)) throw unauthenticated('this account cannot sign in');
  return { link, person: { ...person, Username: person.Username } };
}

/** The security-key challenge for signing in with a link, when the person's second factor is a key. */
export async function beginSecurityKeySignInWithLink(deps: IdentityDeps, token: string) {
  const { person } = await signInLinkHolder(deps, token);
  return beginKeyAuthentication(deps.db, person.ID, relyingParty(deps.settings), deps.clock.now());
}

/**
 * Signs in with a sign-in link: a new browser session. With a second factor the person gives it
 * too (SecondFactorRequiredError lists the methods); the link is used up only once it passed,
 * so asking for the factor does not spend it. Factor attempts count like a sign-in's.
 */
export async function signInWithLink(deps: IdentityDeps, token: string, factor: LinkSecondFactor, context: SignInContext) {
  const { link, person } = await signInLinkHolder(deps, token);
  const succeeded = context.throttle ? await context.throttle.attempt(context.address, person.Username) : () => {};
  await checkSecondFactor(deps, person.ID, { login: person.Username, password: '', ...factor });
  succeeded();
  if (!(await claim(deps.db, link.id, deps.clock.now()))) throw notFound(LINK_INVALID);
  return openSessionFor(deps, person.ID, context);
}

export interface SignUpInput {
  username: string;
  email: string;
  password: string;
}

/** A Contact with an unused confirmation link: a sign-up waiting (not a campus contact, not a demoted account). */
async function waitingSignUp(deps: IdentityDeps, personId: number) {
  const person = await deps.db.person.findUnique({ where: { ID: personId }, select: { Username: true, AccountLevel: true } });
  if (!person?.Username || person.AccountLevel !== 'Contact') return null;
  const waiting = await deps.db.accountToken.count({ where: { personId, purpose: 'verify', usedAt: null } });
  return waiting > 0 ? person.Username : null;
}

/**
 * Signs up (REGISTRATION_OPEN only): the account is created at AccountLevel Contact, who cannot
 * sign in, and a link to confirm the address is mailed; verifyEmail makes it a User. An address
 * that already has an account answers the same: its owner is mailed a sign-in link instead (as
 * Healthchecks does), and a sign-up still waiting gets a new confirmation link. A taken username
 * is CONFLICT (usernames are shown to fellow members anyway). Left open: a second sign-up with the
 * same new username tells whether the first one created an account (it did unless the address
 * had one); the throttle bounds such probing.
 */
export async function signUp(deps: IdentityDeps, input: SignUpInput, context: LinkRequestContext): Promise<void> {
  if (!deps.settings.registrationOpen) throw forbidden(SIGN_UP_CLOSED);
  requireMail(deps.settings);
  const checked = checkSignUpInput(input);
  await context.throttle?.attempt(context.address, checked.email);
  // The username first, whatever the address: a CONFLICT must not depend on whether the address has an account.
  if (await personByUsername(deps.db, checked.username)) throw conflict('that username is taken');
  const owner = await accountIdByEmail(deps.db, checked.email);
  if (owner !== null) {
    // The work a new account costs (the password's hash), so the time does not tell either.
    await hashPassword(input.password);
    deliverLater(deps, async () => {
      const waiting = await waitingSignUp(deps, owner);
      if (waiting) return verifyMail(deps, checked.email, waiting, await issueLink(deps, owner, 'verify', checked.email));
      const person = await deps.db.person.findUnique({ where: { ID: owner } });
      // A campus contact record (a guardian, say) has no account to sign in to: an administrator decides.
      if (!person?.Username || !maySignIn(person.AccountLevel)) return null;
      const why = `Someone, hopefully you, tried to sign up at ${deps.settings.siteName} with this address. It already belongs to your account, ${person.Username}: use this link to sign in.`;
      return signInMail(deps, checked.email, person.Username, await issueLink(deps, owner, 'sign-in'), why);
    });
    return;
  }
  const account = await createPendingAccount(deps.db, input);
  deliverLater(deps, async () => verifyMail(deps, account.email ?? checked.email, account.username, await issueLink(deps, account.id, 'verify', checked.email)));
}

/** Confirms a sign-up's address: the Contact becomes a User, who may sign in. */
export async function verifyEmail(deps: IdentityDeps, token: string): Promise<void> {
  const link = await liveLink(deps, token, 'verify');
  if (!link) throw notFound(LINK_INVALID);
  const now = deps.clock.now();
  await deps.db.$transaction(async (tx) => {
    if (!(await claim(tx, link.id, now))) throw notFound(LINK_INVALID);
    // Only a sign-up still waiting is raised: a level an administrator set since stays.
    await tx.person.updateMany({ where: { ID: link.personId, AccountLevel: 'Contact' }, data: { AccountLevel: 'User' } });
  });
}
