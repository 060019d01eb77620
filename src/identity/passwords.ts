// Password hashes: scrypt, as campus accounts have always been stored ("scrypt$<salt>$<hash>").
// An unknown account is checked against a dummy hash, so it answers in the same time as a
// wrong password (no account enumeration by timing). Accounts imported from Healthchecks keep
// their Django hash ("django$<Django's encoded hash>", django-hashers.ts) until their first
// sign-in, which replaces it with ours (upgradePasswordHash).
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { isUsableDjangoHash, verifyDjangoPassword } from './django-hashers.ts';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

let dummy: Promise<string> | undefined;

/** Marks a hash imported from Django (Healthchecks): ours is always scrypt. */
export const DJANGO_HASH_PREFIX = 'django$';

/** The PasswordHash to store for a Django `encoded` hash; null for an unusable one ("!…": no password). */
export function importedDjangoHash(encoded: string): string | null {
  return isUsableDjangoHash(encoded) ? DJANGO_HASH_PREFIX + encoded : null;
}

/** A stored hash that is not ours: the first right password replaces it (sign-in.ts). */
export const needsRehash = (stored: string | null | undefined): stored is string => typeof stored === 'string' && stored.startsWith(DJANGO_HASH_PREFIX);

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (needsRehash(stored)) return verifyDjangoPassword(password, stored.slice(DJANGO_HASH_PREFIX.length));
  const [scheme, salt, hash] = (stored ?? (await (dummy ??= hashPassword(randomBytes(16).toString('hex'))))).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password.slice(0, PASSWORD_MAX_LENGTH), Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected) && stored !== null;
}

/** A new password's rules; the message says what to change. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `the password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `the password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}
