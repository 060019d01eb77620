// Django's password hashes (django/contrib/auth/hashers.py), for accounts imported from a
// Healthchecks instance: checked at sign-in, then replaced by ours (passwords.ts) on the first
// success. Django names the algorithm first ("pbkdf2_sha256$<iterations>$<salt>$<hash>"); the
// oldest formats have none (32 hex digits: unsalted MD5). Healthchecks lists Argon2 first in its
// PASSWORD_HASHERS, so most of its accounts hold argon2 hashes; Node has no Argon2 before 24.7,
// so it comes from the pure-JavaScript @noble/hashes there (about 2 s for Django's 100 MiB cost).
// bcrypt and crypt need libraries we do not have: such hashes are kept but never match.
import * as crypto from 'node:crypto';
import { createHash, pbkdf2 as pbkdf2Cb, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2 = promisify(pbkdf2Cb);
const scrypt = promisify(scryptCb) as (password: Buffer, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/** Django's hasher names, plus the two it infers from the form of the oldest hashes. */
export type DjangoAlgorithm =
  | 'pbkdf2_sha256'
  | 'pbkdf2_sha1'
  | 'argon2'
  | 'scrypt'
  | 'bcrypt_sha256'
  | 'bcrypt'
  | 'md5'
  | 'sha1'
  | 'unsalted_md5'
  | 'unsalted_sha1'
  | 'crypt';

const KNOWN: readonly string[] = ['pbkdf2_sha256', 'pbkdf2_sha1', 'argon2', 'scrypt', 'bcrypt_sha256', 'bcrypt', 'md5', 'sha1', 'crypt'];

/** The algorithms this server can check (the others are kept, and never match). */
export const VERIFIABLE: ReadonlySet<DjangoAlgorithm> = new Set(['pbkdf2_sha256', 'pbkdf2_sha1', 'argon2', 'scrypt', 'md5', 'sha1', 'unsalted_md5', 'unsalted_sha1']);

/** Django's set_unusable_password(): "!" and random characters; no password opens it. */
export const isUsableDjangoHash = (encoded: string) => encoded !== '' && !encoded.startsWith('!');

/** identify_hasher(): the algorithm of an encoded hash, or null for one Django would not know. */
export function djangoAlgorithm(encoded: string): DjangoAlgorithm | null {
  if ((encoded.length === 32 && !encoded.includes('$')) || (encoded.length === 37 && encoded.startsWith('md5$$'))) return 'unsalted_md5';
  if (encoded.length === 46 && encoded.startsWith('sha1$$')) return 'unsalted_sha1';
  const algorithm = encoded.split('$', 1)[0]!;
  return KNOWN.includes(algorithm) ? (algorithm as DjangoAlgorithm) : null;
}

/** Compares as Django's constant_time_compare does (equal length first, then every byte). */
function same(a: string | Buffer, b: string | Buffer): boolean {
  const x = typeof a === 'string' ? Buffer.from(a, 'utf8') : a;
  const y = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
  return x.length === y.length && timingSafeEqual(x, y);
}

const hex = (algorithm: 'md5' | 'sha1', text: string) => createHash(algorithm).update(text, 'utf8').digest('hex');

/** Django's b64 without padding, as argon2 writes salts and hashes. */
const unpadded = (b64: string) => Buffer.from(b64, 'base64');

interface Argon2Params {
  variant: 'argon2id' | 'argon2i' | 'argon2d';
  version: number;
  memory: number;
  passes: number;
  parallelism: number;
  salt: Buffer;
  hash: Buffer;
}

/** "argon2$argon2id$v=19$m=102400,t=2,p=8$<salt>$<hash>" (argon2-cffi's encoding after "argon2"). */
function parseArgon2(encoded: string): Argon2Params | null {
  const parts = encoded.split('$');
  // argon2 $ variant [$ v=19] $ m=..,t=..,p=.. $ salt $ hash; hashes of argon2 1.0 have no version.
  const [, variant, ...rest] = parts;
  if (variant !== 'argon2id' && variant !== 'argon2i' && variant !== 'argon2d') return null;
  let version = 0x10;
  if (rest[0]?.startsWith('v=')) version = Number(rest.shift()!.slice(2));
  if (rest.length !== 3) return null;
  const params = Object.fromEntries(rest[0]!.split(',').map((kv) => kv.split('=') as [string, string]));
  const memory = Number(params.m);
  const passes = Number(params.t);
  const parallelism = Number(params.p);
  if (![memory, passes, parallelism, version].every((n) => Number.isInteger(n) && n > 0)) return null;
  const salt = unpadded(rest[1]!);
  const hash = unpadded(rest[2]!);
  if (salt.length < 8 || hash.length < 4) return null;
  return { variant, version, memory, passes, parallelism, salt, hash };
}

type NativeArgon2 = (
  algorithm: string,
  parameters: { message: Buffer; nonce: Buffer; parallelism: number; tagLength: number; memory: number; passes: number },
  callback: (err: Error | null, key: ArrayBuffer) => void,
) => void;

/** Argon2: node:crypto's when the runtime has it (Node 24.7+), else @noble/hashes (pure JavaScript). */
async function argon2(password: string, p: Argon2Params): Promise<Buffer> {
  const native = (crypto as unknown as { argon2?: NativeArgon2 }).argon2;
  // node:crypto computes version 0x13 only; hashes of argon2 1.0 (v=16) go to the library.
  if (typeof native === 'function' && p.version === 0x13) {
    const key = await new Promise<ArrayBuffer>((resolve, reject) =>
      native(p.variant, { message: Buffer.from(password, 'utf8'), nonce: p.salt, parallelism: p.parallelism, tagLength: p.hash.length, memory: p.memory, passes: p.passes }, (err, k) => (err ? reject(err) : resolve(k))),
    );
    return Buffer.from(key);
  }
  const noble = await import('@noble/hashes/argon2.js');
  const derive = { argon2id: noble.argon2idAsync, argon2i: noble.argon2iAsync, argon2d: noble.argon2dAsync }[p.variant];
  const out = await derive(Buffer.from(password, 'utf8'), p.salt, { t: p.passes, m: p.memory, p: p.parallelism, dkLen: p.hash.length, version: p.version });
  return Buffer.from(out);
}

/**
 * Django's check_password() for one encoded hash: true when `password` is the one it was made
 * from. False for unusable, malformed and unverifiable (bcrypt, crypt) hashes.
 */
export async function verifyDjangoPassword(password: string, encoded: string): Promise<boolean> {
  if (!isUsableDjangoHash(encoded)) return false;
  const algorithm = djangoAlgorithm(encoded);
  try {
    switch (algorithm) {
      case 'pbkdf2_sha256':
      case 'pbkdf2_sha1': {
        // Django's PBKDF2 derives as many bytes as the digest has and writes them in base64.
        const [, iterations, salt, hash] = encoded.split('$');
        const n = Number(iterations);
        if (!salt || !hash || !Number.isInteger(n) || n < 1) return false;
        const digest = algorithm === 'pbkdf2_sha256' ? 'sha256' : 'sha1';
        const derived = await pbkdf2(password, salt, n, digest === 'sha256' ? 32 : 20, digest);
        return same(derived.toString('base64'), hash);
      }
      case 'scrypt': {
        // "scrypt$<work factor>$<salt>$<block size>$<parallelism>$<hash>", 64 bytes derived.
        const [, n, salt, r, p, hash] = encoded.split('$');
        const [N, R, P] = [Number(n), Number(r), Number(p)];
        if (!salt || !hash || ![N, R, P].every((x) => Number.isInteger(x) && x > 0)) return false;
        const expected = Buffer.from(hash, 'base64');
        const derived = await scrypt(Buffer.from(password, 'utf8'), Buffer.from(salt, 'utf8'), expected.length, { N, r: R, p: P, maxmem: 256 * N * R + 1024 * 1024 });
        return same(derived, expected);
      }
      case 'argon2': {
        const params = parseArgon2(encoded);
        return params !== null && same(await argon2(password, params), params.hash);
      }
      case 'md5':
      case 'sha1': {
        // Salted: hex digest of salt + password.
        const [, salt, hash] = encoded.split('$');
        if (!salt || !hash) return false;
        return same(hex(algorithm, salt + password), hash);
      }
      case 'unsalted_md5':
        return same(hex('md5', password), encoded.startsWith('md5$$') ? encoded.slice(5) : encoded);
      case 'unsalted_sha1':
        return same(hex('sha1', password), encoded.slice(6));
      default:
        return false;
    }
  } catch {
    // Parameters a malformed hash carries (scrypt's memory, argon2's) fail the derivation: no match.
    return false;
  }
}
