// A person's second factors at a glance, for the sign-in flow (ask for a second step or not)
// and the account screen. The factor modules are re-exported so callers import one path.
import type { Db } from '../../db/client.ts';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { regenerateRecoveryCodes, remainingRecoveryCodes } from './recovery-codes.ts';
import { totpEnabled } from './totp.ts';
import { finishKeyRegistration, type RelyingParty } from './webauthn.ts';

export * from './recovery-codes.ts';
export * from './totp.ts';
export * from './webauthn.ts';

export interface SecondFactors {
  /** An authenticator app is set up and confirmed (a setup in progress does not count). */
  totp: boolean;
  securityKeys: number;
  recoveryCodesLeft: number;
}

export async function secondFactorsOf(db: Db, personId: number): Promise<SecondFactors> {
  const [totp, securityKeys, recoveryCodesLeft] = await Promise.all([
    totpEnabled(db, personId),
    db.securityKey.count({ where: { personId } }),
    remainingRecoveryCodes(db, personId),
  ]);
  return { totp, securityKeys, recoveryCodesLeft };
}

/** Whether signing in needs a second step. Recovery codes alone do not count: they replace a factor. */
export async function hasSecondFactor(db: Db, personId: number): Promise<boolean> {
  const { totp, securityKeys } = await secondFactorsOf(db, personId);
  return totp || securityKeys > 0;
}

/**
 * Registers a security key from the browser's answer. A first factor, or one added after the
 * recovery codes ran out, comes with ten new codes to fall back on (shown once); else null.
 */
export async function addSecurityKey(db: Db, personId: number, name: string, response: RegistrationResponseJSON, rp: RelyingParty, now: Date) {
  const saved = await finishKeyRegistration(db, personId, name, response, rp, now);
  const recoveryCodes = (await remainingRecoveryCodes(db, personId)) === 0 ? await regenerateRecoveryCodes(db, personId) : null;
  return { ...saved, recoveryCodes };
}
