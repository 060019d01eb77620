// Accounts are campus people (Slate's model): a Username, a PasswordHash, an AccountLevel, and
// the primary email contact point as the address mail goes to. Creating an account creates the
// person and that contact point together; signing in takes the username or any of the
// person's email addresses (Slate's getByUsername).
import type { Db } from '../db/client.ts';
import { ACCOUNT_LEVELS, hasLevel, type AccountLevel } from '../campus/kinds.ts';
import { EMAIL_CLASS, personByUsername } from '../campus/lookup.ts';
import { conflict, notFound, validationError } from '../shared/errors.ts';
import { holdsNul, NUL_REFUSED } from '../shared/stored-text.ts';
import { hashPassword, needsRehash, passwordProblem } from './passwords.ts';

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,29}$/;
// Deliberately loose (one @, something on each side, a dot in the domain): the mail server is
// the judge; this only catches typing slips.
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{2,63}$/;

export const normalEmail = (email: string) => email.trim().toLowerCase();
export const isEmail = (value: string) => !value.includes('\0') && EMAIL_PATTERN.test(value.trim());

export interface AccountInput {
  username: string;
  email: string;
  password: string;
  level?: string;
  firstName?: string;
  lastName?: string;
}

export interface Account {
  id: number;
  username: string;
  email: string | null;
  level: AccountLevel;
}

/** May sign in: a User or above (Slate's Contact and Disabled people cannot log in). */
export const maySignIn = (level: string | null | undefined) => hasLevel(level, 'User');

/** The input's username, address and level, checked (levels that cannot sign in only for a pending sign-up). */
function checkInput(input: AccountInput, pending = false): { username: string; email: string; level: AccountLevel } {
  const username = input.username.trim();
  if (!USERNAME_PATTERN.test(username)) throw validationError('the username must be 2 to 30 letters, digits, dots, dashes or underscores, starting with a letter or digit');
  if (!isEmail(input.email)) throw validationError('enter a valid email address');
  for (const [field, value] of [['first name', input.firstName], ['last name', input.lastName]] as const) {
    if (value !== undefined && holdsNul(value)) throw validationError(NUL_REFUSED(field));
  }
  const problem = passwordProblem(input.password);
  if (problem) throw validationError(problem);
  if (pending) return { username, email: normalEmail(input.email), level: 'Contact' };
  const level = (input.level ?? 'User') as AccountLevel;
  if (!ACCOUNT_LEVELS.includes(level) || !maySignIn(level)) {
    throw validationError(`level must be one of ${ACCOUNT_LEVELS.filter((l) => maySignIn(l)).join(', ')}`);
  }
  return { username, email: normalEmail(input.email), level };
}

/** Checks a sign-up's username, address and password as createAccount does, without writing. */
export const checkSignUpInput = (input: Omit<AccountInput, 'level'>) => checkInput(input, true);

/** Whether a username or an email address is already someone's login (case-insensitive for addresses). */
async function loginTaken(db: Db, username: string, email: string): Promise<string | null> {
  if (await personByUsername(db, username)) return 'that username is taken';
  if (await accountIdByEmail(db, email)) return 'an account with that email address exists';
  return null;
}

/**
 * A new account: the person (a Slate User record at `level`) with its primary email contact
 * point, in one transaction. Names default to the username, as Slate's sign-up does.
 */
export async function createAccount(db: Db, input: AccountInput): Promise<Account> {
  return insertAccount(db, input, checkInput(input));
}

/**
 * A sign-up waiting for its address to be confirmed: the same account at AccountLevel Contact,
 * who cannot sign in until the emailed link raises them to User (email-links.ts).
 */
export async function createPendingAccount(db: Db, input: Omit<AccountInput, 'level'>): Promise<Account> {
  return insertAccount(db, input, checkInput(input, true));
}

async function insertAccount(db: Db, input: AccountInput, checked: { username: string; email: string; level: AccountLevel }): Promise<Account> {
  const { username, email, level } = checked;
  const taken = await loginTaken(db, username, email);
  if (taken) throw conflict(taken);
  const passwordHash = await hashPassword(input.password);
  const person = await db.$transaction(async (tx) => {
    const created = await tx.person.create({
      data: {
        Class: 'Emergence\\People\\User',
        FirstName: input.firstName?.trim() || username,
        LastName: input.lastName?.trim() || '',
        Username: username,
        PasswordHash: passwordHash,
        AccountLevel: level,
      },
    });
    const point = await tx.contactPoint.create({ data: { Class: EMAIL_CLASS, PersonID: created.ID, Data: email } });
    return tx.person.update({ where: { ID: created.ID }, data: { PrimaryEmailID: point.ID } });
  });
  return { id: person.ID, username, email, level };
}

/**
 * The person whose email contact point is this address, oldest first. Accounts store addresses
 * lower-cased; a contact point typed in capitals is found as typed too.
 */
export async function accountIdByEmail(db: Db, email: string): Promise<number | null> {
  const typed = email.trim();
  if (!isEmail(typed)) return null;
  const point = await db.contactPoint.findFirst({ where: { Class: EMAIL_CLASS, Data: { in: [...new Set([normalEmail(typed), typed])] } }, select: { PersonID: true }, orderBy: { ID: 'asc' } });
  return point?.PersonID ?? null;
}

/** The account behind a username or email address, or null (also for people who may not sign in). */
export async function accountByLogin(db: Db, login: string) {
  const name = login.trim();
  const person = (await personByUsername(db, name)) ?? (name.includes('@') ? await personById(db, await accountIdByEmail(db, name)) : null);
  return person && maySignIn(person.AccountLevel) ? person : null;
}

async function personById(db: Db, id: number | null) {
  return id === null ? null : db.person.findUnique({ where: { ID: id } });
}

/** The address mail for an account goes to: its primary email contact point, else its oldest. */
export async function accountEmail(db: Db, personId: number): Promise<string | null> {
  const person = await db.person.findUnique({ where: { ID: personId }, select: { PrimaryEmailID: true } });
  if (!person) return null;
  const primary = person.PrimaryEmailID ? await db.contactPoint.findUnique({ where: { ID: person.PrimaryEmailID } }) : null;
  if (primary?.Class === EMAIL_CLASS) return primary.Data;
  const oldest = await db.contactPoint.findFirst({ where: { PersonID: personId, Class: EMAIL_CLASS }, orderBy: { ID: 'asc' } });
  return oldest?.Data ?? null;
}

export async function requireAccount(db: Db, login: string) {
  const person = await accountByLogin(db, login);
  if (!person) throw notFound(`no account with username or email ${login}`);
  return person;
}

/** Sets a new password (checked against the rules); other sessions are the caller's to end. */
export async function setPassword(db: Db, personId: number, password: string) {
  const problem = passwordProblem(password);
  if (problem) throw validationError(problem);
  await db.person.update({ where: { ID: personId }, data: { PasswordHash: await hashPassword(password) } });
}

/**
 * After a right password: a hash that is not ours (an account imported from Healthchecks keeps
 * its Django hash) is replaced by ours, made from that password. Compare-and-set on the old
 * hash, so a password changed meanwhile is never overwritten. Our own hashes are left alone.
 */
export async function upgradePasswordHash(db: Db, personId: number, stored: string | null, password: string) {
  if (!needsRehash(stored)) return;
  await db.person.updateMany({ where: { ID: personId, PasswordHash: stored }, data: { PasswordHash: await hashPassword(password) } });
}

/** Every account (people who may sign in), by username, with its address. */
export async function listAccounts(db: Db) {
  const people = await db.person.findMany({
    where: { Username: { not: null }, AccountLevel: { in: ACCOUNT_LEVELS.filter((l) => maySignIn(l)) } },
    select: { ID: true, Username: true, AccountLevel: true },
    orderBy: { Username: 'asc' },
  });
  // One look-up per account: an operator's listing, not a hot path.
  return Promise.all(people.map(async (p) => ({ id: p.ID, username: p.Username!, email: await accountEmail(db, p.ID), level: p.AccountLevel as AccountLevel })));
}
