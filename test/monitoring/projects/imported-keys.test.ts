// Healthchecks' hashed API keys (secret8 + "." + hex HMAC-SHA256(SECRET_KEY, key)) kept without
// the SECRET_KEY: HMAC's two key-dependent SHA-256 states compute the same HMAC as the key does.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/monitoring/projects/keys.ts';
import { hmacFromStates, hmacStates, importedKeyColumn, isHashedHealthchecksKey, isImportedKeyVerifier, matchesImportedKey } from '../../../src/monitoring/projects/imported-keys.ts';

const SECRET = 'django-insecure-4f8a1b2c3d4e5f60718293a4b5c6d7e8';
const KEY = 'hcw_Abc123Def456Ghi789Jkl012Mno3';
const healthchecksForm = (key: string, secret = SECRET) => `${key.slice(4, 12)}.${createHmac('sha256', secret).update(key).digest('hex')}`;

describe('HMAC from its states', () => {
  it('equals HMAC-SHA256 for secrets shorter and longer than a block, and messages across padding boundaries', () => {
    for (const secret of ['', '---', SECRET, 'k'.repeat(64), 'k'.repeat(65), 'ünïcödé '.repeat(20)]) {
      const states = hmacStates(secret);
      for (const length of [0, 1, 31, 32, 55, 56, 63, 64, 65, 119, 120, 300]) {
        const message = 'm'.repeat(length);
        expect(hmacFromStates(states, message).toString('hex')).toBe(createHmac('sha256', secret).update(message).digest('hex'));
      }
    }
  });

  it('does not hold the secret', () => {
    const { inner, outer } = hmacStates(SECRET);
    expect(inner).toMatch(/^[0-9a-f]{64}$/);
    expect(`${inner}${outer}`).not.toContain(Buffer.from(SECRET).toString('hex'));
  });
});

describe('importedKeyColumn', () => {
  it('keeps a plain key as its sha256, as ours, and none as none', () => {
    expect(importedKeyColumn('Xk3vQ9_mW2pL7-hR4tY8uE1iO6aS0dFg', null)).toBe(hashKey('Xk3vQ9_mW2pL7-hR4tY8uE1iO6aS0dFg'));
    expect(importedKeyColumn('', SECRET)).toBeNull();
  });

  it('keeps a hashed key as a verifier that opens for the key alone; without the secret, not at all', () => {
    const stored = healthchecksForm(KEY);
    expect(isHashedHealthchecksKey(stored)).toBe(true);
    expect(importedKeyColumn(stored, null)).toBeNull();
    const verifier = importedKeyColumn(stored, SECRET)!;
    expect(isImportedKeyVerifier(verifier)).toBe(true);
    expect(verifier.startsWith('hc-hmac-sha256$Abc123De$')).toBe(true);
    expect(matchesImportedKey(verifier, KEY)).toBe(true);
    expect(matchesImportedKey(verifier, `${KEY.slice(0, -1)}4`)).toBe(false);
    // The wrong SECRET_KEY makes a verifier that nothing opens.
    expect(matchesImportedKey(importedKeyColumn(stored, 'another secret')!, KEY)).toBe(false);
  });
});
