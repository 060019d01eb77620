// An authenticator app (TOTP, RFC 6238) as Healthchecks sets it up: SHA1, 6 digits, 30-second
// steps, one step of drift either way. Set up in two moves: begin shows the secret, a first right
// code confirms it. Every accepted step is remembered, so a code seen over a shoulder or taken
// from a log cannot be used a second time.
import { HOTP, Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/client.ts';
import { conflict, validationError } from '../../shared/errors.ts';
import { sameSecret } from '../tokens.ts';
import { dropRecoveryCodesIfNoFactor, replaceRecoveryCodes } from './recovery-codes.ts';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'SHA1';
/** Steps accepted either side of the current one (device clocks drift). */
export const TOTP_WINDOW = 1;
// 160 bits, RFC 4226's recommended length for SHA1 (and pyotp's, which Healthchecks uses).
const SECRET_BYTES = 20;

export interface TotpSetup {
  /** Base32, for typing into an app by hand. */
  secret: string;
  /** otpauth://totp/…, for the QR code. */
  uri: string;
}

const stepAt = (now: Date) => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The step within the window whose code is `input`, later than `lastStep`, or null. Each
 * candidate is compared in constant time.
 */
function matchingStep(secret: string, input: string, now: Date, lastStep: number | null): number | null {
  const code = input.replace(/\s/g, '');
  if (!/^\d+$/.test(code) || code.length !== TOTP_DIGITS) return null;
  const key = Secret.fromBase32(secret);
  const current = stepAt(now);
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (lastStep !== null && step <= lastStep) continue;
    const expected = HOTP.generate({ secret: key, counter: step, algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS });
    if (sameSecret(expected, code)) return step;
  }
  return null;
}

/**
 * A new secret for the person's app. An unconfirmed one (an abandoned setup, a QR code shown to
 * the wrong screen) is replaced; a confirmed one must be disabled first.
 */
export async function beginTotp(db: Db, personId: number, label: { issuer: string; accountName: string }): Promise<TotpSetup> {
  const secret = new Secret({ size: SECRET_BYTES }).base32;
  const existing = await db.totpFactor.findUnique({ where: { personId } });
  if (existing?.confirmedAt) throw conflict('an authenticator app is already set up; remove it before setting up another');
  if (existing) {
    // Guarded by confirmedAt: a confirmation that lands in between is not undone.
    const { count } = await db.totpFactor.updateMany({ where: { id: existing.id, confirmedAt: null }, data: { secret, lastStep: null } });
    if (count === 0) throw conflict('an authenticator app is already set up; remove it before setting up another');
  } else {
    try {
      await db.totpFactor.create({ data: { personId, secret } });
    } catch (error) {
      // The unique personId: another setup (a second tab, a double click) created it first.
      if (await db.totpFactor.count({ where: { personId } })) throw conflict('the authenticator app is being set up in another window; start again');
      throw error;
    }
  }
  const uri = new TOTP({
    issuer: label.issuer,
    label: label.accountName,
    secret: Secret.fromBase32(secret),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
  return { secret, uri };
}

/**
 * The first right code turns the app on and issues ten recovery codes (earlier ones are
 * deleted). The confirming step counts as used, so the same code cannot then sign in.
 */
export async function confirmTotp(db: Db, personId: number, code: string, now: Date): Promise<{ recoveryCodes: string[] }> {
  const factor = await db.totpFactor.findUnique({ where: { personId } });
  if (!factor) throw conflict('set up the authenticator app first');
  if (factor.confirmedAt) throw conflict('the authenticator app is already set up');
  const step = matchingStep(factor.secret, code, now, factor.lastStep);
  if (step === null) throw validationError('the code is not right; check the clock of your device');
  return db.$transaction(async (tx) => {
    // The secret in the guard: a new setup begun meanwhile has a secret this code was not made from.
    const { count } = await tx.totpFactor.updateMany({
      where: { id: factor.id, confirmedAt: null, secret: factor.secret },
      data: { confirmedAt: now, lastStep: step },
    });
    if (count === 0) throw conflict('the authenticator app setup changed meanwhile; start again');
    return { recoveryCodes: await replaceRecoveryCodes(tx, personId) };
  });
}

/** A sign-in code: right, within the window, and of a step later than the last one accepted. */
export async function verifyTotp(db: Db, personId: number, code: string, now: Date): Promise<boolean> {
  const factor = await db.totpFactor.findUnique({ where: { personId } });
  if (!factor?.confirmedAt) return false;
  const step = matchingStep(factor.secret, code, now, factor.lastStep);
  if (step === null) return false;
  // Compare-and-set: of two concurrent sign-ins with the same code, only one moves lastStep.
  const { count } = await db.totpFactor.updateMany({
    where: { id: factor.id, OR: [{ lastStep: null }, { lastStep: { lt: step } }] },
    data: { lastStep: step },
  });
  return count > 0;
}

/** Turns the app off (confirmed or not); recovery codes go too when no other factor is left. */
export async function disableTotp(db: Db, personId: number): Promise<void> {
  await db.totpFactor.deleteMany({ where: { personId } });
  await dropRecoveryCodesIfNoFactor(db, personId);
}

/** Whether the person has a confirmed authenticator app. */
export async function totpEnabled(db: Db, personId: number): Promise<boolean> {
  return (await db.totpFactor.count({ where: { personId, confirmedAt: { not: null } } })) > 0;
}
