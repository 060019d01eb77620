// Secrets handed to a person (session cookies, emailed links, recovery codes): random, shown
// once, stored as sha256 and looked up by that hash (a unique index: no comparison of the
// secret itself happens in our code, so there is no timing to measure).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newSecret = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time equality of two strings (for values compared in memory). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
