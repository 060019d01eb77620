// Security keys and passkeys (WebAuthn) through @simplewebauthn/server. Each ceremony is two
// calls: begin hands the browser options with a fresh challenge, finish verifies what the
// authenticator signed. Challenges live in AccountToken, looked up by the hash of the challenge
// the browser echoes back, so several ceremonies (two tabs) can be in flight at once, and each
// is claimed once with a compare-and-set before verification: a replayed answer finds it used.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { Db } from '../../db/client.ts';
import { conflict, notFound, validationError } from '../../shared/errors.ts';
import { holdsNul, NUL_REFUSED } from '../../shared/stored-text.ts';
import { hashSecret } from '../tokens.ts';
import { dropRecoveryCodesIfNoFactor } from './recovery-codes.ts';

/** Who the credentials are for: `id` is the site's hostname, `origin` its scheme://host[:port]. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export interface SecurityKeyInfo {
  id: number;
  name: string;
  transports: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const KEY_NAME_MAX_LENGTH = 100;
const REGISTER = 'webauthn-register';
const AUTHENTICATE = 'webauthn-authenticate';
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const transportsOf = (stored: string) => stored.split(',').filter(Boolean);

function keyName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw validationError('give the security key a name');
  if (trimmed.length > KEY_NAME_MAX_LENGTH) throw validationError(`the name must be at most ${KEY_NAME_MAX_LENGTH} characters`);
  if (holdsNul(trimmed)) throw validationError(NUL_REFUSED('name'));
  return trimmed;
}

async function storeChallenge(db: Db, personId: number, purpose: string, challenge: string, rp: RelyingParty, now: Date): Promise<void> {
  // Finished and abandoned ceremonies are of no further use; keep the table small.
  await db.accountToken.deleteMany({ where: { personId, purpose, OR: [{ usedAt: { not: null } }, { expiresAt: { lte: now } }] } });
  await db.accountToken.create({
    data: {
      personId,
      purpose,
      tokenHash: hashSecret(challenge),
      // The relying party the ceremony began with, for whoever reads the table.
      data: JSON.stringify({ rpId: rp.id, origin: rp.origin }),
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    },
  });
}

/**
 * The challenge the answer was made for, claimed for good (even if verification then fails, so
 * no answer is tried twice against it); null when it is unknown, another person's, expired or used.
 */
async function claimChallenge(db: Db, personId: number, purpose: string, response: { response?: { clientDataJSON?: unknown } }, now: Date): Promise<string | null> {
  let challenge: unknown;
  try {
    challenge = decodeClientDataJSON(response.response!.clientDataJSON as string).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== 'string' || !challenge) return null;
  const { count } = await db.accountToken.updateMany({
    where: { tokenHash: hashSecret(challenge), personId, purpose, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return count > 0 ? challenge : null;
}

/** Options for navigator.credentials.create(); the person's keys are excluded so none registers twice. */
export async function beginKeyRegistration(db: Db, person: { ID: number; Username: string | null }, rp: RelyingParty, now: Date): Promise<PublicKeyCredentialCreationOptionsJSON> {
  if (!person.Username) throw validationError('only an account with a username can register a security key');
  const keys = await db.securityKey.findMany({ where: { personId: person.ID }, select: { credentialId: true, transports: true } });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: person.Username,
    userDisplayName: person.Username,
    // Stable per person, so registering the same passkey again replaces it on the device
    // instead of leaving two entries for one account.
    userID: isoUint8Array.fromUTF8String(`person:${person.ID}`),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: keys.map((k) => ({ id: k.credentialId, transports: transportsOf(k.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await storeChallenge(db, person.ID, REGISTER, options.challenge, rp, now);
  return options;
}

/** Verifies the new credential against its challenge and stores it as a security key. */
export async function finishKeyRegistration(db: Db, personId: number, name: string, response: RegistrationResponseJSON, rp: RelyingParty, now: Date): Promise<{ id: number; name: string }> {
  // The name first: a typing slip must not use up the challenge.
  const label = keyName(name);
  const challenge = await claimChallenge(db, personId, REGISTER, response, now);
  if (!challenge) throw validationError('the security key request has expired or was already used; start again');
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // 'preferred', not 'required': keys without a PIN or fingerprint are second factors too.
      requireUserVerification: false,
    });
  } catch (error) {
    throw validationError(`the security key's answer could not be verified: ${(error as Error).message}`);
  }
  if (!verification.verified) throw validationError("the security key's answer could not be verified");
  const { credential } = verification.registrationInfo;
  if (await db.securityKey.findUnique({ where: { credentialId: credential.id }, select: { id: true } })) {
    throw conflict('this security key is already registered');
  }
  const transports = (credential.transports ?? response.response.transports ?? []).filter((t) => TRANSPORTS.has(t));
  const key = await db.securityKey.create({
    data: {
      personId,
      name: label,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: transports.join(','),
    },
  });
  return { id: key.id, name: key.name };
}

/** Options for navigator.credentials.get(), allowing only the person's keys. */
export async function beginKeyAuthentication(db: Db, personId: number, rp: RelyingParty, now: Date): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const keys = await db.securityKey.findMany({ where: { personId }, select: { credentialId: true, transports: true } });
  // An empty allow list would invite any passkey on the device; there is nothing to ask for.
  if (keys.length === 0) throw conflict('no security key is registered');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: keys.map((k) => ({ id: k.credentialId, transports: transportsOf(k.transports) })),
    timeout: CHALLENGE_TTL_MS,
    userVerification: 'preferred',
  });
  await storeChallenge(db, personId, AUTHENTICATE, options.challenge, rp, now);
  return options;
}

/** Whether the answer is a valid signature by one of the person's keys over a live challenge. */
export async function finishKeyAuthentication(db: Db, personId: number, response: AuthenticationResponseJSON, rp: RelyingParty, now: Date): Promise<boolean> {
  const challenge = await claimChallenge(db, personId, AUTHENTICATE, response, now);
  if (!challenge || typeof response.id !== 'string') return false;
  const key = await db.securityKey.findFirst({ where: { personId, credentialId: response.id } });
  if (!key) return false;
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: key.credentialId, publicKey: isoBase64URL.toBuffer(key.publicKey), counter: key.counter, transports: transportsOf(key.transports) },
      requireUserVerification: false,
    });
  } catch {
    // Wrong origin, bad signature, a counter gone backwards (a cloned key): a refusal, not an error.
    return false;
  }
  if (!verification.verified) return false;
  // Compare-and-set on the counter: an answer verified against a counter another sign-in has
  // since moved must not move it back.
  const { count } = await db.securityKey.updateMany({
    where: { id: key.id, counter: key.counter },
    data: { counter: verification.authenticationInfo.newCounter, lastUsedAt: now },
  });
  return count > 0;
}

export async function listSecurityKeys(db: Db, personId: number): Promise<SecurityKeyInfo[]> {
  const keys = await db.securityKey.findMany({ where: { personId }, orderBy: { id: 'asc' } });
  return keys.map((k) => ({ id: k.id, name: k.name, transports: transportsOf(k.transports), createdAt: k.createdAt, lastUsedAt: k.lastUsedAt }));
}

export async function renameSecurityKey(db: Db, personId: number, id: number, name: string): Promise<{ id: number; name: string }> {
  const label = keyName(name);
  // personId in the filter: another person's key is not found rather than forbidden.
  const { count } = await db.securityKey.updateMany({ where: { id, personId }, data: { name: label } });
  if (count === 0) throw notFound('security key not found');
  return { id, name: label };
}

/** Removes a key; recovery codes go too when it was the last second factor. */
export async function removeSecurityKey(db: Db, personId: number, id: number): Promise<void> {
  const { count } = await db.securityKey.deleteMany({ where: { id, personId } });
  if (count === 0) throw notFound('security key not found');
  await dropRecoveryCodesIfNoFactor(db, personId);
}
