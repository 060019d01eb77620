// Campus authentication, Slate-style: people log in with a username and password and get a
// session token, sent back as `Authorization: Token <token>`. Only hashes are stored.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { hashKey } from '../monitoring/projects/keys.ts';
import { DomainError, unauthenticated, validationError } from '../shared/errors.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { upgradePasswordHash } from '../identity/accounts.ts';
import { ACCOUNT_LEVELS, hasLevel, type AccountLevel } from './kinds.ts';
import { personByUsername } from './lookup.ts';
import { anonymous, type Viewer } from './viewer.ts';

// Passwords are the identity room's (one account signs in to the dashboard and the campus API).
export { anonymous, hashPassword, verifyPassword, type Viewer };

/** Slate's session handle: 32 hex characters starting with a letter. */
function newToken(): string {
  const hex = randomBytes(16).toString('hex');
  return 'abcdef'[randomBytes(1)[0]! % 6] + hex.slice(1);
}

export async function createSession(db: Db, personId: number): Promise<{ token: string; session: { ID: number; Created: Date; PersonID: number } }> {
  const token = newToken();
  const session = await db.campusSession.create({ data: { TokenHash: hashKey(token), PersonID: personId } });
  return { token, session };
}

export const LOGIN_FAILED = 'The username or password you entered was incorrect.';

/** Username or email address, and password (Slate's login); Contact and Disabled accounts cannot log in. */
export async function login(db: Db, username: string, password: string) {
  // A name that cannot be stored (NUL, overlong) fails as any unknown name does.
  const person = await personByUsername(db, username);
  // The password is checked even for an unknown name (against a dummy hash): same answer, same time.
  const matches = await verifyPassword(password, person?.PasswordHash ?? null);
  if (!person || !hasLevel(person.AccountLevel, 'User') || !matches) {
    throw unauthenticated(LOGIN_FAILED);
  }
  await upgradePasswordHash(db, person.ID, person.PasswordHash, password);
  return { person, ...(await createSession(db, person.ID)) };
}

/** The viewer behind a session token; an unknown token is an error, no token is anonymous. */
export async function viewerFromToken(db: Db, token: string | null | undefined): Promise<Viewer> {
  if (!token) return anonymous;
  const session = await db.campusSession.findUnique({ where: { TokenHash: hashKey(token) }, include: { person: { select: { ID: true, AccountLevel: true } } } });
  // A dashboard's cookie session is not a token: it never travels in an Authorization header.
  if (!session || session.Kind !== 'token' || !hasLevel(session.person.AccountLevel, 'User')) throw unauthenticated('invalid or expired session token');
  return { personId: session.person.ID, level: session.person.AccountLevel as AccountLevel };
}

/**
 * The viewer behind a token for Slate's routes: an unknown or ended token is anonymous, as
 * Slate starts a fresh anonymous session for it (GraphQL keeps refusing it: viewerFromToken).
 */
export async function viewerOrAnonymous(db: Db, token: string | null | undefined): Promise<Viewer> {
  try {
    return await viewerFromToken(db, token);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'UNAUTHENTICATED') return anonymous;
    throw err;
  }
}

/** The session a token opened (Slate's GET /login answers with it), or null. */
export async function sessionOf(db: Db, token: string) {
  return db.campusSession.findUnique({ where: { TokenHash: hashKey(token) }, select: { ID: true, Created: true, LastRequest: true, PersonID: true } });
}

export async function endSession(db: Db, token: string) {
  await db.campusSession.deleteMany({ where: { TokenHash: hashKey(token) } });
}

/**
 * `gateway campus-token create`: a token for scripts. With a username, for that person (who
 * must exist); without, for a new service-account person at the given level.
 */
export async function createScriptToken(db: Db, level: string, username?: string) {
  if (!(ACCOUNT_LEVELS as string[]).includes(level) || !hasLevel(level, 'User')) {
    throw validationError(`level must be one of ${ACCOUNT_LEVELS.filter((l) => hasLevel(l, 'User')).join(', ')}`);
  }
  let personId: number;
  if (username) {
    const person = await db.person.findUnique({ where: { Username: username } });
    if (!person) throw new DomainError('NOT_FOUND', `no person with username ${username}`);
    if (person.AccountLevel !== level) await db.person.update({ where: { ID: person.ID }, data: { AccountLevel: level } });
    personId = person.ID;
  } else {
    const person = await db.person.create({
      data: { FirstName: 'Service', LastName: 'Account', Username: `service-${randomBytes(4).toString('hex')}`, AccountLevel: level, Class: 'Emergence\\People\\User' },
    });
    personId = person.ID;
  }
  const { token } = await createSession(db, personId);
  return { token, person_id: personId };
}
