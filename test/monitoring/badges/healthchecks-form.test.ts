// Badge signatures as Healthchecks computes them: base64_hmac(str(badge_key), tag, SECRET_KEY,
// algorithm="sha1")[:8]. The expected values come from Python, reproducing Django's salted_hmac
// (django/utils/crypto.py) and base64_hmac (django/core/signing.py):
//   key = hashlib.sha1(salt.encode() + secret.encode()).digest()
//   base64.urlsafe_b64encode(hmac.new(key, tag.encode(), hashlib.sha1).digest()).strip(b"=")[:8]
import { describe, expect, it } from 'vitest';
import { badgeSignature, badgeUrls, projectSigningKey, saltedHmacKey, verifyBadgeSignature } from '../../../src/monitoring/badges/badge.ts';
import { badgeSigningKeyOf, checkBadgeKeyOf, projectBadgeColumns } from '../../../src/monitoring/badges/keys.ts';
import { hashKey } from '../../../src/monitoring/projects/keys.ts';
import { inspectConfig, loadConfig } from '../../../src/config/index.ts';

const SECRET = 'django-insecure-7f3#kq!x9v$w2m@p0z&l8r^e5t*y1u(i)o';
const UUID_KEY = '9d6a0c6e-58c4-4ad9-9a1b-1f0f5f3c2a77';

// [badge key, tag, signature] printed by Python with SECRET above.
const PYTHON: [string, string, string][] = [
  [UUID_KEY, '*', 'cmGp0fmn'],
  [UUID_KEY, 'backups', 'DzAmyXUm'],
  [UUID_KEY, 'db@dc1', 'IC_Q7RrI'],
  [UUID_KEY, 'ü😀', 'nAq0PB04'],
  [UUID_KEY, 'a/b c', 'ReogEI-s'],
  ['alice', '*', '2wTBALxh'],
  ['alice', 'backups', 'pTVMJtSI'],
  ['alice', 'db@dc1', 'Hp3fjPpk'],
  ['alice', 'ü😀', 'MYGLnuXv'],
  ['alice', 'a/b c', 'mcc-VFJK'],
];

describe("Healthchecks' badge signatures", () => {
  it.each(PYTHON)('badge key %j, tag %j signs as %s', (badgeKey, tag, expected) => {
    expect(badgeSignature(saltedHmacKey(badgeKey, SECRET), tag)).toBe(expected);
  });

  it('stores sha1(badge key + SECRET_KEY) for an imported key, which signs exactly as the secret did', () => {
    // hashlib.sha1((UUID_KEY + SECRET).encode()).hexdigest()
    expect(badgeSigningKeyOf(UUID_KEY, SECRET)).toBe('802ac7f53bb4ad045d8cedff9a2fd4d068e7c88d');
    const stored = projectSigningKey(UUID_KEY, badgeSigningKeyOf(UUID_KEY, SECRET), 'this installation');
    expect(badgeSignature(stored, 'backups')).toBe('DzAmyXUm');
    // Without a stored key, the installation's SECRET_KEY signs.
    expect(badgeSignature(projectSigningKey(UUID_KEY, null, SECRET), 'backups')).toBe('DzAmyXUm');
  });

  it('builds the URLs get_badge_url builds: "-2" for two states, no tag segment for "*", tags quoted twice', () => {
    const key = saltedHmacKey(UUID_KEY, SECRET);
    expect(badgeUrls('https://hc.example', UUID_KEY, key, 'db@dc1')).toEqual({
      svg: `https://hc.example/badge/${UUID_KEY}/IC_Q7RrI-2/db%2540dc1.svg`,
      svg3: `https://hc.example/badge/${UUID_KEY}/IC_Q7RrI/db%2540dc1.svg`,
      json: `https://hc.example/badge/${UUID_KEY}/IC_Q7RrI-2/db%2540dc1.json`,
      json3: `https://hc.example/badge/${UUID_KEY}/IC_Q7RrI/db%2540dc1.json`,
      shields: `https://hc.example/badge/${UUID_KEY}/IC_Q7RrI-2/db%2540dc1.shields`,
      shields3: `https://hc.example/badge/${UUID_KEY}/IC_Q7RrI/db%2540dc1.shields`,
    });
    expect(badgeUrls('https://hc.example', 'alice', saltedHmacKey('alice', SECRET), '*').svg).toBe('https://hc.example/badge/alice/2wTBALxh-2.svg');
    expect(verifyBadgeSignature(key, 'backups', 'DzAmyXUm-2')).toEqual({ valid: true, states: 2 });
    expect(verifyBadgeSignature(key, 'backups', 'DzAmyXUm')).toEqual({ valid: true, states: 3 });
    expect(verifyBadgeSignature(saltedHmacKey(UUID_KEY, 'another secret'), 'backups', 'DzAmyXUm').valid).toBe(false);
  });
});

describe('badge key storage', () => {
  it('keeps the key in clear beside its hash, with the signing key only for an imported secret', () => {
    expect(projectBadgeColumns('alice')).toEqual({ badgeKey: 'alice', badgeKeyHash: hashKey('alice'), badgeSigningKey: null });
    expect(projectBadgeColumns('alice', SECRET).badgeSigningKey).toBe(badgeSigningKeyOf('alice', SECRET));
    expect(projectBadgeColumns().badgeKey).toMatch(/^[a-z0-9]{32}$/);
    expect(() => projectBadgeColumns('')).toThrow('badge key must be 1 to 150 characters');
    expect(() => projectBadgeColumns('x'.repeat(151))).toThrow('badge key must be 1 to 150 characters');
  });

  it('stores check badge keys as lower-case UUIDs with dashes', () => {
    expect(checkBadgeKeyOf(UUID_KEY.toUpperCase())).toBe(UUID_KEY);
    expect(checkBadgeKeyOf(UUID_KEY.replace(/-/g, ''))).toBe(UUID_KEY);
    for (const bad of ['', 'alice', `${UUID_KEY}0`]) expect(() => checkBadgeKeyOf(bad), bad).toThrow('badge key must be a UUID');
  });
});

describe('SECRET_KEY', () => {
  it("is Healthchecks' setting, optional, and never shown", () => {
    expect(loadConfig({}).secretKey).toBeNull();
    expect(loadConfig({ SECRET_KEY: SECRET }).secretKey).toBe(SECRET);
    const shown = inspectConfig({ SECRET_KEY: SECRET }).settings.find((s) => s.name === 'SECRET_KEY');
    expect(shown).toEqual({ name: 'SECRET_KEY', value: '***', source: 'environment' });
  });
});
