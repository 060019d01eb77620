// The authenticator app: setup in two moves, Healthchecks' code parameters (SHA1, 6 digits,
// 30 s, one step of drift), no code accepted twice, and turning it off. Codes are computed here
// with otpauth at the injected time, as the person's phone would.
import { describe, expect, it } from 'vitest';
import { Secret, TOTP, URI } from 'otpauth';
import { beginTotp, confirmTotp, disableTotp, verifyTotp } from '../../../src/identity/second-factors/totp.ts';
import { regenerateRecoveryCodes, remainingRecoveryCodes, useRecoveryCode } from '../../../src/identity/second-factors/recovery-codes.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { newPerson } from './people.ts';

const w = useWorld();
const label = { issuer: 'Gateway', accountName: 'ada@example.org' };
// Mid-step, so ±15 s stays within the same step.
const T = new Date('2026-01-05T10:00:15Z');
const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);
const stepOf = (d: Date) => Math.floor(d.getTime() / 30_000);
const codeAt = (secret: string, d: Date) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: d.getTime() });

/** A person with a confirmed app, confirmed at T; returns the secret. */
async function enrolled() {
  const person = await newPerson(w.app.db);
  const { secret } = await beginTotp(w.app.db, person.ID, label);
  const { recoveryCodes } = await confirmTotp(w.app.db, person.ID, codeAt(secret, T), T);
  return { person, secret, recoveryCodes };
}

describe('setting up the authenticator app', () => {
  it('begins with a base32 secret and an otpauth URI with Healthchecks’ parameters; nothing is enabled yet', async () => {
    const person = await newPerson(w.app.db);
    const { secret, uri } = await beginTotp(w.app.db, person.ID, label);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes
    const parsed = URI.parse(uri) as TOTP;
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed).toMatchObject({ issuer: 'Gateway', label: 'ada@example.org', algorithm: 'SHA1', digits: 6, period: 30 });
    expect(parsed.secret.base32).toBe(secret);
    expect(await w.app.db.totpFactor.findUnique({ where: { personId: person.ID } })).toMatchObject({ secret, confirmedAt: null, lastStep: null });
    // Not confirmed: even the right code does not sign in.
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, T), T)).toBe(false);
  });

  it('beginning again replaces an unconfirmed secret; the old one can no longer confirm', async () => {
    const person = await newPerson(w.app.db);
    const first = await beginTotp(w.app.db, person.ID, label);
    const second = await beginTotp(w.app.db, person.ID, label);
    expect(second.secret).not.toBe(first.secret);
    expect(await w.app.db.totpFactor.count({ where: { personId: person.ID } })).toBe(1);
    await expect(confirmTotp(w.app.db, person.ID, codeAt(first.secret, T), T)).rejects.toMatchObject({ code: 'VALIDATION' });
    await confirmTotp(w.app.db, person.ID, codeAt(second.secret, T), T);
  });

  it('a wrong code does not confirm, with a message about the clock', async () => {
    const person = await newPerson(w.app.db);
    const { secret } = await beginTotp(w.app.db, person.ID, label);
    // Three steps off: a phone whose clock is 90 s wrong.
    await expect(confirmTotp(w.app.db, person.ID, codeAt(secret, at(T, 90)), T)).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'the code is not right; check the clock of your device',
    });
    expect((await w.app.db.totpFactor.findUnique({ where: { personId: person.ID } }))!.confirmedAt).toBeNull();
    expect(await remainingRecoveryCodes(w.app.db, person.ID)).toBe(0);
  });

  it('the right code confirms it and issues ten recovery codes; the confirming code cannot sign in', async () => {
    const { person, secret, recoveryCodes } = await enrolled();
    expect(recoveryCodes).toHaveLength(10);
    expect(await remainingRecoveryCodes(w.app.db, person.ID)).toBe(10);
    expect(await w.app.db.totpFactor.findUnique({ where: { personId: person.ID } })).toMatchObject({ confirmedAt: T, lastStep: stepOf(T) });
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, T), at(T, 5))).toBe(false);
  });

  it('confirming deletes the recovery codes issued before', async () => {
    const person = await newPerson(w.app.db);
    const old = await regenerateRecoveryCodes(w.app.db, person.ID);
    const { secret } = await beginTotp(w.app.db, person.ID, label);
    const { recoveryCodes } = await confirmTotp(w.app.db, person.ID, codeAt(secret, T), T);
    expect(recoveryCodes.some((c) => old.includes(c))).toBe(false);
    expect(await useRecoveryCode(w.app.db, person.ID, old[0]!, T)).toBe(false);
    expect(await useRecoveryCode(w.app.db, person.ID, recoveryCodes[0]!, T)).toBe(true);
  });

  it('refuses to begin over a confirmed app, to confirm twice, and to confirm what was never begun', async () => {
    const { person, secret } = await enrolled();
    await expect(beginTotp(w.app.db, person.ID, label)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await w.app.db.totpFactor.findUnique({ where: { personId: person.ID } }))!.secret).toBe(secret);
    await expect(confirmTotp(w.app.db, person.ID, codeAt(secret, at(T, 60)), at(T, 60))).rejects.toMatchObject({ code: 'CONFLICT' });
    const stranger = await newPerson(w.app.db, 'bob');
    await expect(confirmTotp(w.app.db, stranger.ID, '123456', T)).rejects.toMatchObject({ code: 'CONFLICT', message: 'set up the authenticator app first' });
  });
});

describe('signing in with a code', () => {
  const later = at(T, 600); // ten minutes after setup, mid-step

  it('accepts the code of the current step, the one before and the one after', async () => {
    for (const offset of [-30, 0, 30]) {
      const { person, secret } = await enrolled();
      expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, at(later, offset)), later), `offset ${offset}`).toBe(true);
      expect((await w.app.db.totpFactor.findUnique({ where: { personId: person.ID } }))!.lastStep).toBe(stepOf(at(later, offset)));
    }
  });

  it('refuses a code two steps off either way', async () => {
    const { person, secret } = await enrolled();
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, at(later, -60)), later)).toBe(false);
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, at(later, 60)), later)).toBe(false);
    // Refused by the window, not by a moved lastStep.
    expect((await w.app.db.totpFactor.findUnique({ where: { personId: person.ID } }))!.lastStep).toBe(stepOf(T));
  });

  it('at a step boundary, the code shown a millisecond earlier still works', async () => {
    const { person, secret } = await enrolled();
    const boundary = new Date(stepOf(later) * 30_000);
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, new Date(boundary.getTime() - 1)), boundary)).toBe(true);
  });

  it('a code is accepted once; so is any earlier step of the window after a later one was used', async () => {
    const { person, secret } = await enrolled();
    const now = codeAt(secret, later);
    expect(await verifyTotp(w.app.db, person.ID, now, later)).toBe(true);
    expect(await verifyTotp(w.app.db, person.ID, now, later)).toBe(false);
    expect(await verifyTotp(w.app.db, person.ID, now, at(later, 20))).toBe(false);
    // The previous step is still inside the window, but older than the one used.
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, at(later, -30)), later)).toBe(false);
    // The next step is new.
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, at(later, 30)), at(later, 30))).toBe(true);
  });

  it('of concurrent sign-ins with the same code exactly one passes', async () => {
    const { person, secret } = await enrolled();
    const code = codeAt(secret, later);
    const results = await Promise.all(Array.from({ length: 5 }, () => verifyTotp(w.app.db, person.ID, code, later)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('takes spaces around and inside the code; refuses malformed ones and other people’s', async () => {
    const { person, secret } = await enrolled();
    const code = codeAt(secret, later);
    for (const bad of ['', '12345', '1234567', 'abcdef', code.slice(0, 5) + 'x']) {
      expect(await verifyTotp(w.app.db, person.ID, bad, later), bad).toBe(false);
    }
    const other = await newPerson(w.app.db, 'bob');
    expect(await verifyTotp(w.app.db, other.ID, code, later)).toBe(false);
    expect(await verifyTotp(w.app.db, person.ID, ` ${code.slice(0, 3)} ${code.slice(3)} `, later)).toBe(true);
  });
});

describe('turning the app off', () => {
  it('stops its codes, drops the recovery codes when no factor is left, and lets setup begin again', async () => {
    const { person, secret } = await enrolled();
    await disableTotp(w.app.db, person.ID);
    expect(await w.app.db.totpFactor.count({ where: { personId: person.ID } })).toBe(0);
    expect(await verifyTotp(w.app.db, person.ID, codeAt(secret, at(T, 600)), at(T, 600))).toBe(false);
    expect(await remainingRecoveryCodes(w.app.db, person.ID)).toBe(0);
    const again = await beginTotp(w.app.db, person.ID, label);
    expect(again.secret).not.toBe(secret);
    // Nothing to turn off is not an error.
    await disableTotp(w.app.db, (await newPerson(w.app.db, 'bob')).ID);
  });
});
