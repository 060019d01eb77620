// Django's password hashes as accounts imported from Healthchecks hold them. The vectors come
// from the algorithms' own implementations: Python's hashlib (what Django calls) for PBKDF2,
// scrypt, salted SHA-1 and unsalted MD5/SHA-1; phc-winner-argon2's reference vectors (password
// "password", salt "somesalt") for argon2, which Healthchecks lists first in PASSWORD_HASHERS.
import { describe, expect, it } from 'vitest';
import { djangoAlgorithm, isUsableDjangoHash, verifyDjangoPassword } from '../../src/identity/django-hashers.ts';
import { hashPassword, importedDjangoHash, needsRehash, verifyPassword } from '../../src/identity/passwords.ts';

const CASES: Array<[algorithm: string, password: string, encoded: string]> = [
  ['pbkdf2_sha256', 'pässwörd €', 'pbkdf2_sha256$1000$NaCl0123$fOICTt+eh9ZM3I1F7sHgdxuXwiWIqDjgyxEEzpTEuiw='],
  ['scrypt', 'correct horse', 'scrypt$16384$Xy7sAlt9Qw$8$2$CrUKOWcQVMm5NXHFSZw5xjFgUh5TjV5pDPWqKXQ6qYeGVImnGPZV7EpotcQQrmwXbFWkuoqC0KF5rmRGjtTuEg=='],
  ['argon2', 'password', 'argon2$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc'],
  // argon2 1.0 wrote no version (0x10).
  ['argon2', 'password', 'argon2$argon2i$m=256,t=2,p=2$c29tZXNhbHQ$tsEVYKap1h6scGt5ovl9aLRGOqOth+AMB+KwHpDFZPs'],
  ['sha1', 'correct horse', 'sha1$s4lt$0d4435dd2dade9a76a31964437d4b8f0681e2ca8'],
  ['unsalted_md5', 'correct horse', '3cb4e732631f47e6eb961f34554b7cde'],
  ['unsalted_md5', 'correct horse', 'md5$$3cb4e732631f47e6eb961f34554b7cde'],
  ['unsalted_sha1', 'correct horse', 'sha1$$2f9e53523b62abc141a2b4d6019d23cba835dbd0'],
];

describe('verifyDjangoPassword', () => {
  it.each(CASES)('checks %s hashes: the right password opens, another does not', async (algorithm, password, encoded) => {
    expect(djangoAlgorithm(encoded)).toBe(algorithm);
    expect(await verifyDjangoPassword(password, encoded)).toBe(true);
    expect(await verifyDjangoPassword(`${password}x`, encoded)).toBe(false);
    expect(await verifyDjangoPassword(password.toUpperCase(), encoded)).toBe(false);
  });

  it('never opens an unusable password (set_unusable_password), a malformed hash, or one it cannot check', async () => {
    expect(isUsableDjangoHash('!Xq3vR8mK2pL7hT4yU9eW1iO6aS0dFgHjKl5ZxCvB')).toBe(false);
    expect(await verifyDjangoPassword('', '!Xq3vR8mK2pL7hT4yU9eW1iO6aS0dFgHjKl5ZxCvB')).toBe(false);
    expect(await verifyDjangoPassword('x', 'pbkdf2_sha256$abc$salt$hash')).toBe(false);
    expect(await verifyDjangoPassword('x', 'scrypt$0$salt$8$1$hash')).toBe(false);
    expect(await verifyDjangoPassword('x', 'argon2$argon2id$v=19$m=256$c29tZXNhbHQ$bQk8')).toBe(false);
    // bcrypt needs a library this server does not have: kept, never matching.
    expect(djangoAlgorithm('bcrypt_sha256$$2b$12$abcdefghijklmnopqrstuu5jd8Jdd7hd7hd7hd7hd7hd7hd7hd7hd')).toBe('bcrypt_sha256');
    expect(await verifyDjangoPassword('x', 'bcrypt_sha256$$2b$12$abcdefghijklmnopqrstuu5jd8Jdd7hd7hd7hd7hd7hd7hd7hd7hd')).toBe(false);
    expect(djangoAlgorithm('whirlpool$x$y')).toBeNull();
  });
});

describe('imported hashes in PasswordHash', () => {
  it('are marked as Django\'s, checked by verifyPassword, and replaced by ours (needsRehash)', async () => {
    const stored = importedDjangoHash(CASES[0]![2])!;
    expect(stored).toBe(`django$${CASES[0]![2]}`);
    expect(needsRehash(stored)).toBe(true);
    expect(await verifyPassword('pässwörd €', stored)).toBe(true);
    expect(await verifyPassword('password', stored)).toBe(false);
    expect(needsRehash(await hashPassword('pässwörd €'))).toBe(false);
    expect(importedDjangoHash('!unusable')).toBeNull();
    // Our own scrypt format is not Django's scrypt.
    expect(await verifyPassword('correct horse', CASES[1]![2])).toBe(false);
  });
});
