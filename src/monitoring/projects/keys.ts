// Project secrets. Keys are 32 characters and only their sha256 is stored, so a leaked
// database does not leak working keys. API keys carry Healthchecks' prefixes (hcw_/hcr_)
// so a user can tell a read-write key from a read-only one at a glance.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

const ALPHANUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER_ALPHANUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomString(length: number, alphabet: string): string {
  // Rejection sampling keeps every character uniformly likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

export const KEY_LENGTH = 32;
export const newApiKey = () => 'hcw_' + randomString(KEY_LENGTH - 4, ALPHANUM);
export const newReadonlyApiKey = () => 'hcr_' + randomString(KEY_LENGTH - 4, ALPHANUM);
// Ping keys appear in slug ping URLs: lower-case like Healthchecks' (which has 22 chars).
export const newPingKey = () => randomString(KEY_LENGTH, LOWER_ALPHANUM);
export const newBadgeKey = () => randomString(KEY_LENGTH, LOWER_ALPHANUM);
export const newId = () => randomUUID();

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
