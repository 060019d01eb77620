// Recovery codes: ten single-use codes for when the authenticator app or the security key is
// lost. Shown once, stored as sha256 like every secret handed to a person (tokens.ts).
import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { hashSecret } from '../tokens.ts';

export const RECOVERY_CODE_COUNT = 10;
// Lower case without i, l, o, 0 and 1, which are misread when copied from paper. 31 symbols,
// 8 of them: about 40 bits, enough for a single-use code behind a sign-in throttle.
export const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const HALF = 4;

type Tx = Prisma.TransactionClient;

function newCode(): string {
  let code = '';
  for (let i = 0; i < HALF * 2; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, HALF)}-${code.slice(HALF)}`;
}

/**
 * The stored form of a code as typed: any case, with or without the dash, spaces around (and
 * inside, as when a code is read aloud in two halves); null when it cannot be one of ours.
 */
export function normalRecoveryCode(input: string): string | null {
  const bare = input.toLowerCase().replace(/[\s-]/g, '');
  if (bare.length !== HALF * 2 || [...bare].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return `${bare.slice(0, HALF)}-${bare.slice(HALF)}`;
}

/** Replaces a person's codes inside the caller's transaction; returns the new ones in clear. */
export async function replaceRecoveryCodes(tx: Tx, personId: number): Promise<string[]> {
  // Distinct within a batch, so that using one code can never burn a twin.
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  await tx.recoveryCode.deleteMany({ where: { personId } });
  await tx.recoveryCode.createMany({ data: [...codes].map((code) => ({ personId, codeHash: hashSecret(code) })) });
  return [...codes];
}

/** Ten fresh codes; the previous ones, used or not, stop working. */
export async function regenerateRecoveryCodes(db: Db, personId: number): Promise<string[]> {
  return db.$transaction((tx) => replaceRecoveryCodes(tx, personId));
}

/** Spends a code: true once per code; wrong, used and malformed codes are false. */
export async function useRecoveryCode(db: Db, personId: number, input: string, now: Date): Promise<boolean> {
  const code = normalRecoveryCode(input);
  if (!code) return false;
  // One compare-and-set: of two concurrent uses of the same code only one finds usedAt null.
  const { count } = await db.recoveryCode.updateMany({
    where: { personId, codeHash: hashSecret(code), usedAt: null },
    data: { usedAt: now },
  });
  return count > 0;
}

export async function remainingRecoveryCodes(db: Db, personId: number): Promise<number> {
  return db.recoveryCode.count({ where: { personId, usedAt: null } });
}

/**
 * Recovery codes stand in for a second factor; once the last factor is gone they go too, so
 * codes printed long ago do not come back to life when a new factor is added later.
 */
export async function dropRecoveryCodesIfNoFactor(db: Db | Tx, personId: number): Promise<void> {
  const totp = await db.totpFactor.count({ where: { personId, confirmedAt: { not: null } } });
  const keys = await db.securityKey.count({ where: { personId } });
  if (totp === 0 && keys === 0) await db.recoveryCode.deleteMany({ where: { personId } });
}
