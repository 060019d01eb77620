// Recovery codes: their shape, stored only as sha256, single use even under concurrency,
// forgiving about how they are typed.
import { describe, expect, it } from 'vitest';
import {
  normalRecoveryCode,
  regenerateRecoveryCodes,
  remainingRecoveryCodes,
  useRecoveryCode,
} from '../../../src/identity/second-factors/recovery-codes.ts';
import { hashSecret } from '../../../src/identity/tokens.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { newPerson } from './people.ts';

const w = useWorld();
const T = new Date('2026-01-05T10:00:00Z');
// Lower case, no i, l, o, 0 or 1.
const SHAPE = /^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/;

describe('recovery codes', () => {
  it('come ten at a time, distinct, as xxxx-xxxx without ambiguous characters, stored only as sha256', async () => {
    const person = await newPerson(w.app.db);
    const codes = await regenerateRecoveryCodes(w.app.db, person.ID);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(SHAPE);
    const stored = await w.app.db.recoveryCode.findMany({ where: { personId: person.ID }, orderBy: { id: 'asc' } });
    expect(stored.map((r) => r.codeHash).sort()).toEqual(codes.map(hashSecret).sort());
    expect(stored.every((r) => r.usedAt === null)).toBe(true);
    expect(await remainingRecoveryCodes(w.app.db, person.ID)).toBe(10);
  });

  it('each works once, and using one is dated', async () => {
    const person = await newPerson(w.app.db);
    const [code] = await regenerateRecoveryCodes(w.app.db, person.ID);
    expect(await useRecoveryCode(w.app.db, person.ID, code!, T)).toBe(true);
    expect(await useRecoveryCode(w.app.db, person.ID, code!, T)).toBe(false);
    expect(await remainingRecoveryCodes(w.app.db, person.ID)).toBe(9);
    expect((await w.app.db.recoveryCode.findFirst({ where: { codeHash: hashSecret(code!) } }))!.usedAt).toEqual(T);
  });

  it('of concurrent uses of one code exactly one passes', async () => {
    const person = await newPerson(w.app.db);
    const [code] = await regenerateRecoveryCodes(w.app.db, person.ID);
    const results = await Promise.all(Array.from({ length: 6 }, () => useRecoveryCode(w.app.db, person.ID, code!, T)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await remainingRecoveryCodes(w.app.db, person.ID)).toBe(9);
  });

  it('are taken in any case, with or without the dash, with spaces around', async () => {
    const person = await newPerson(w.app.db);
    const codes = await regenerateRecoveryCodes(w.app.db, person.ID);
    const typed = [codes[0]!.toUpperCase(), codes[1]!.replace('-', ''), `  ${codes[2]}\n`, ` ${codes[3]!.replace('-', ' ').toUpperCase()} `];
    for (const input of typed) expect(await useRecoveryCode(w.app.db, person.ID, input, T), input).toBe(true);
    expect(await remainingRecoveryCodes(w.app.db, person.ID)).toBe(6);
  });

  it('refuse another person’s code, malformed input, and codes replaced by a regeneration', async () => {
    const ada = await newPerson(w.app.db);
    const bob = await newPerson(w.app.db, 'bob');
    const old = await regenerateRecoveryCodes(w.app.db, ada.ID);
    const bobs = await regenerateRecoveryCodes(w.app.db, bob.ID);
    expect(await useRecoveryCode(w.app.db, ada.ID, bobs[0]!, T)).toBe(false);
    for (const bad of ['', 'abcd-efg', 'abcd-efghj', 'abc1-defg', 'abcd_efgh']) {
      expect(normalRecoveryCode(bad), bad).toBeNull();
      expect(await useRecoveryCode(w.app.db, ada.ID, bad, T), bad).toBe(false);
    }
    const fresh = await regenerateRecoveryCodes(w.app.db, ada.ID);
    expect(await useRecoveryCode(w.app.db, ada.ID, old[0]!, T)).toBe(false);
    expect(await remainingRecoveryCodes(w.app.db, ada.ID)).toBe(10);
    expect(await useRecoveryCode(w.app.db, ada.ID, fresh[0]!, T)).toBe(true);
    // Bob's codes were not touched by Ada's regeneration.
    expect(await remainingRecoveryCodes(w.app.db, bob.ID)).toBe(10);
  });
});
