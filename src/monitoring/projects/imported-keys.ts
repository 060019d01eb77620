// API keys imported from a Healthchecks instance. Older instances stored keys in clear: we keep
// their sha256 like our own. Current ones store `secret8.hex(HMAC-SHA256(SECRET_KEY, key))`
// (hc/accounts/models.py, Project._make_api_key), which only that SECRET_KEY can check. We do
// not keep the instance's SECRET_KEY (it also signed the instance's sessions): we keep HMAC's
// two key-dependent SHA-256 states, computed once at import. They let us compute
// HMAC-SHA256(SECRET_KEY, ·), hence check a presented key, and nothing else (they do not give
// back the secret, nor Django's salted HMACs, which hash their own keys). Such a key is stored
// in the project's key column as
//   hc-hmac-sha256$<secret8>$<inner state>$<outer state>$<hmac hex>
// (sha256 hex never holds "$"), so rotating or revoking it works as for any key; its first
// successful use replaces it by the plain sha256 of the key.
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { hashKey } from './keys.ts';

export const IMPORTED_KEY_SCHEME = 'hc-hmac-sha256';

// SHA-256's constants, from their definition (FIPS 180-4 §4.2.2, §5.3.3): the first 32 bits of
// the fractional parts of the cube roots (K) and square roots (H0) of the first primes, computed
// exactly with integer roots rather than copied.
function primes(count: number): number[] {
  const out: number[] = [];
  for (let n = 2; out.length < count; n++) if (out.every((p) => n % p !== 0)) out.push(n);
  return out;
}
function integerRoot(value: bigint, degree: bigint): bigint {
  // Newton's method from above: the floor of value^(1/degree).
  let x = 1n << (BigInt(value.toString(2).length) / degree + 1n);
  for (;;) {
    const next = ((degree - 1n) * x + value / x ** (degree - 1n)) / degree;
    if (next >= x) return x;
    x = next;
  }
}
const fractionBits = (p: number, degree: bigint) => Number(integerRoot(BigInt(p) << (32n * degree), degree) & 0xffffffffn);
const K = Uint32Array.from(primes(64), (p) => fractionBits(p, 3n));
const H0 = Uint32Array.from(primes(8), (p) => fractionBits(p, 2n));

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** One SHA-256 compression of a 64-byte block into `state` (changed in place). */
function compress(state: Uint32Array, block: Uint8Array, offset: number) {
  const w = new Uint32Array(64);
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
    const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state as unknown as number[] as [number, number, number, number, number, number, number, number];
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
  }
  const out = [a, b, c, d, e, f, g, h];
  for (let i = 0; i < 8; i++) state[i] = (state[i]! + out[i]!) | 0;
}

/** The state's eight words, big-endian: SHA-256's own byte order (its digest is the final state). */
function stateBytes(state: Uint32Array): Buffer {
  const out = Buffer.alloc(32);
  state.forEach((word, i) => out.writeUInt32BE(word, i * 4));
  return out;
}
const stateOf = (hex: string) => {
  const bytes = Buffer.from(hex, 'hex');
  return Uint32Array.from({ length: 8 }, (_, i) => bytes.readUInt32BE(i * 4));
};

/** SHA-256 of `message`, continued from `state` after `before` bytes (whole blocks) were hashed. */
function finish(state: Uint32Array, before: number, message: Uint8Array): Buffer {
  const s = Uint32Array.from(state);
  const total = before + message.length;
  const padded = Buffer.alloc(Math.ceil((message.length + 9) / 64) * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  padded.writeBigUInt64BE(BigInt(total) * 8n, padded.length - 8);
  for (let i = 0; i < padded.length; i += 64) compress(s, padded, i);
  return stateBytes(s);
}

/** HMAC's key-dependent states: SHA-256 after the one block of (key ⊕ ipad), and of (key ⊕ opad). */
export function hmacStates(secretKey: string): { inner: string; outer: string } {
  let key: Buffer = Buffer.from(secretKey, 'utf8');
  // RFC 2104: a key longer than the block is hashed first.
  if (key.length > 64) key = finish(H0, 0, key);
  const pad = (byte: number) => {
    const block = Buffer.alloc(64, byte);
    for (let i = 0; i < key.length; i++) block[i]! ^= key[i]!;
    const state = Uint32Array.from(H0);
    compress(state, block, 0);
    return stateBytes(state).toString('hex');
  };
  return { inner: pad(0x36), outer: pad(0x5c) };
}

/** HMAC-SHA256(secret, message) from the secret's states. */
export function hmacFromStates(states: { inner: string; outer: string }, message: string): Buffer {
  const inner = finish(stateOf(states.inner), 64, Buffer.from(message, 'utf8'));
  return finish(stateOf(states.outer), 64, inner);
}

/** Healthchecks' hashed form: 8 characters, a dot, 64 hex digits. Plain keys never hold a dot. */
export const isHashedHealthchecksKey = (stored: string) => /^[A-Za-z0-9_-]{8}\.[0-9a-f]{64}$/.test(stored);

/**
 * The column value for a Healthchecks API key as its instance stored it: a plain key's sha256;
 * a hashed key's verifier when the instance's SECRET_KEY is known; null for no key, or for a
 * hashed key without the secret (nothing could ever check it).
 */
export function importedKeyColumn(stored: string, secretKey: string | null): string | null {
  if (stored === '') return null;
  if (!isHashedHealthchecksKey(stored)) return hashKey(stored);
  if (!secretKey) return null;
  const [secret8, digest] = stored.split('.') as [string, string];
  const { inner, outer } = hmacStates(secretKey);
  return [IMPORTED_KEY_SCHEME, secret8, inner, outer, digest].join('$');
}

/** Whether a stored column value is an imported verifier (not yet replaced by a sha256). */
export const isImportedKeyVerifier = (column: string | null) => column?.startsWith(`${IMPORTED_KEY_SCHEME}$`) ?? false;

/** Whether `key` is the key `verifier` (an imported column value) was made for. */
export function matchesImportedKey(verifier: string, key: string): boolean {
  const [scheme, secret8, inner, outer, digest] = verifier.split('$');
  if (scheme !== IMPORTED_KEY_SCHEME || !inner || !outer || !digest || key.slice(4, 12) !== secret8) return false;
  const expected = Buffer.from(digest, 'hex');
  const actual = hmacFromStates({ inner, outer }, key);
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

type KeyColumn = 'apiKeyHash' | 'apiKeyReadonlyHash';

/**
 * The project an imported hashed key opens, as Healthchecks' ProjectManager.for_api_key finds it:
 * by the 8 characters after the hcw_/hcr_ prefix, then the HMAC. The prefix says which column
 * (hcw_: read-write, hcr_: read-only). A match replaces the verifier by the key's sha256, so the
 * next request finds the project as any other. Null: no imported key is this one.
 */
export async function projectOfImportedKey(db: Db, key: string, column: KeyColumn): Promise<string | null> {
  const prefix = column === 'apiKeyHash' ? 'hcw_' : 'hcr_';
  const secret8 = key.slice(4, 12);
  // Healthchecks' secrets are letters and digits only, which also keeps LIKE's wildcards out.
  if (!key.startsWith(prefix) || !/^[A-Za-z0-9]{8}$/.test(secret8)) return null;
  const on = (filter: string | null | Prisma.StringNullableFilter<'Project'>): Prisma.ProjectWhereInput => (column === 'apiKeyHash' ? { apiKeyHash: filter } : { apiKeyReadonlyHash: filter });
  const rows = await db.project.findMany({ where: on({ startsWith: `${IMPORTED_KEY_SCHEME}$${secret8}$` }), select: { id: true, apiKeyHash: true, apiKeyReadonlyHash: true } });
  const hash = hashKey(key);
  for (const project of rows) {
    const verifier = project[column];
    if (!verifier || !matchesImportedKey(verifier, key)) continue;
    // Compare-and-set: a rotation or revocation meanwhile wins, and the key stops here.
    const data = column === 'apiKeyHash' ? { apiKeyHash: hash } : { apiKeyReadonlyHash: hash };
    const upgraded = await db.project.updateMany({ where: { AND: [{ id: project.id }, on(verifier)] }, data });
    if (upgraded.count === 1) return project.id;
    // Upgraded by a concurrent request with the same key: still this project's key.
    const now = await db.project.findFirst({ where: { AND: [{ id: project.id }, on(hash)] }, select: { id: true } });
    return now?.id ?? null;
  }
  return null;
}
