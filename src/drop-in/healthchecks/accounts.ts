// Healthchecks' users as our accounts (campus people, src/identity/): auth.user and its
// accounts.profile. An address already an account here is the same person: the import adds
// memberships to it and leaves its password, level and factors as they are. A new account keeps
// its Django password hash until its first sign-in (identity/passwords.ts), its TOTP secret
// (Healthchecks' and ours are both RFC 6238, SHA1, 6 digits, 30 s), its WebAuthn credentials
// (valid while this server answers on the hostname Healthchecks used as its RP_ID), and its
// report settings (AccountProfile).
import { randomBytes } from 'node:crypto';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { AccountLevel } from '../../campus/kinds.ts';
import { EMAIL_CLASS } from '../../campus/lookup.ts';
import { isEmail, normalEmail, USERNAME_PATTERN } from '../../identity/accounts.ts';
import { djangoAlgorithm, isUsableDjangoHash, VERIFIABLE } from '../../identity/django-hashers.ts';
import { importedDjangoHash, needsRehash } from '../../identity/passwords.ts';
import type { HcCredential, HcProfile, HcUser } from './model.ts';
import type { Tally } from './tally.ts';

type Tx = Prisma.TransactionClient;

export interface AccountSource {
  user: HcUser;
  profile: HcProfile | null;
  credentials: HcCredential[];
}

/** Django's is_superuser and is_staff in Slate's levels; an inactive user cannot sign in. */
export function accountLevelOf(user: HcUser): AccountLevel {
  if (!user.isActive) return 'Disabled';
  if (user.isSuperuser) return 'Administrator';
  if (user.isStaff) return 'Staff';
  return 'User';
}

/** fido2's AttestedCredentialData: AAGUID (16), id length (2, big-endian), id, COSE public key. */
export function parseAttestedCredential(data: Buffer): { credentialId: string; publicKey: string } | null {
  if (data.length < 19) return null;
  const length = data.readUInt16BE(16);
  if (length === 0 || data.length <= 18 + length) return null;
  return { credentialId: data.subarray(18, 18 + length).toString('base64url'), publicKey: data.subarray(18 + length).toString('base64url') };
}

/** Why a user's password will not open their account here; null when it will. */
export function passwordWarning(user: HcUser): string | null {
  if (!isUsableDjangoHash(user.password)) return null;
  const algorithm = djangoAlgorithm(user.password);
  if (algorithm && VERIFIABLE.has(algorithm)) return null;
  return `${user.email || user.username}: the password hash (${algorithm ?? user.password.split('$', 1)[0]}) cannot be checked by this server; the account signs in with an emailed link and sets a new password`;
}

async function personByEmail(tx: Tx, email: string): Promise<number | null> {
  const typed = email.trim();
  const point = await tx.contactPoint.findFirst({ where: { Class: EMAIL_CLASS, Data: { in: [...new Set([normalEmail(typed), typed])] } }, select: { PersonID: true }, orderBy: { ID: 'asc' } });
  return point?.PersonID ?? null;
}

/** Healthchecks' username when it is free and one of ours could be it; else one made from the address. */
async function freeUsername(tx: Tx, user: HcUser): Promise<string> {
  const taken = async (name: string) => (await tx.person.findFirst({ where: { Username: name }, select: { ID: true } })) !== null;
  if (USERNAME_PATTERN.test(user.username) && !(await taken(user.username))) return user.username;
  const base = (normalEmail(user.email).split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').replace(/^[^A-Za-z0-9]+/, '').slice(0, 24) || 'hc-user';
  for (let i = 1; ; i++) {
    const name = i === 1 && base.length >= 2 ? base : `${base}-${i === 1 ? randomBytes(2).toString('hex') : i}`;
    if (USERNAME_PATTERN.test(name) && !(await taken(name))) return name;
  }
}

export interface AccountOutcome {
  personId: number;
  created: boolean;
}

/**
 * The person a Healthchecks user is here: found by address, or created. `tally` counts what
 * changed (accounts, authenticator apps, security keys); `warn` takes what the operator must know.
 */
export async function ensureAccount(tx: Tx, source: AccountSource, tally: Tally, warn: (w: string) => void): Promise<AccountOutcome | null> {
  const { user, profile } = source;
  if (!isEmail(user.email)) {
    warn(`user ${user.username} has no usable email address (${JSON.stringify(user.email)}): not imported, nor their memberships`);
    return null;
  }
  const email = normalEmail(user.email);
  const storedHash = importedDjangoHash(user.password);
  let personId = await personByEmail(tx, email);
  const created = personId === null;
  if (personId === null) {
    const username = await freeUsername(tx, user);
    if (username !== user.username) warn(`${email}: the username ${user.username} is ${USERNAME_PATTERN.test(user.username) ? 'taken here' : 'not one of ours'}; the account is ${username} (sign-in by address works as before)`);
    const person = await tx.person.create({
      data: {
        Class: 'Emergence\\People\\User',
        Created: user.dateJoined ?? undefined,
        FirstName: user.firstName.trim() || (email.split('@')[0] ?? username),
        LastName: user.lastName.trim(),
        Username: username,
        PasswordHash: storedHash,
        AccountLevel: accountLevelOf(user),
      },
    });
    const point = await tx.contactPoint.create({ data: { Class: EMAIL_CLASS, PersonID: person.ID, Data: email } });
    await tx.person.update({ where: { ID: person.ID }, data: { PrimaryEmailID: point.ID } });
    personId = person.ID;
    tally.add('accounts', 'created');
  } else {
    const person = await tx.person.findUniqueOrThrow({ where: { ID: personId }, select: { PasswordHash: true } });
    // The old instance's password replaces a Django hash not yet upgraded here (it may have changed
    // there since); an account with a password of ours keeps it.
    const replace = storedHash !== null && (person.PasswordHash === null || needsRehash(person.PasswordHash)) && person.PasswordHash !== storedHash;
    if (replace) await tx.person.update({ where: { ID: personId }, data: { PasswordHash: storedHash } });
    tally.add('accounts', replace ? 'updated' : 'unchanged');
  }
  if (profile) await importProfile(tx, personId, profile, tally);
  for (const credential of source.credentials) await importCredential(tx, personId, credential, tally, warn);
  return { personId, created };
}

async function importProfile(tx: Tx, personId: number, profile: HcProfile, tally: Tally) {
  const settings = {
    reports: ['off', 'daily', 'weekly', 'monthly'].includes(profile.reports) ? profile.reports : 'monthly',
    nagPeriod: Math.round(profile.nagPeriod),
    tz: profile.tz,
    nextReportAt: profile.nextReportDate,
    nextNagAt: profile.nextNagDate,
  };
  const current = await tx.accountProfile.findUnique({ where: { personId } });
  if (!current) {
    await tx.accountProfile.create({ data: { personId, ...settings } });
    tally.add('report_settings', 'created');
  } else if (
    current.reports !== settings.reports ||
    current.nagPeriod !== settings.nagPeriod ||
    current.tz !== settings.tz ||
    current.nextReportAt?.getTime() !== settings.nextReportAt?.getTime() ||
    current.nextNagAt?.getTime() !== settings.nextNagAt?.getTime()
  ) {
    await tx.accountProfile.update({ where: { personId }, data: settings });
    tally.add('report_settings', 'updated');
  } else tally.add('report_settings', 'unchanged');

  if (profile.totp) {
    const secret = profile.totp.toUpperCase();
    const factor = await tx.totpFactor.findUnique({ where: { personId }, select: { secret: true } });
    // A person who set up an app here keeps it.
    if (!factor) {
      await tx.totpFactor.create({ data: { personId, secret, confirmedAt: profile.totpCreated ?? new Date(0), createdAt: profile.totpCreated ?? undefined } });
      tally.add('authenticator_apps', 'created');
    } else tally.add('authenticator_apps', 'unchanged');
  }
}

async function importCredential(tx: Tx, personId: number, credential: HcCredential, tally: Tally, warn: (w: string) => void) {
  const parsed = parseAttestedCredential(credential.data);
  if (!parsed) {
    warn(`security key "${credential.name}" (${credential.code}): its credential data cannot be read; not imported`);
    return;
  }
  const existing = await tx.securityKey.findUnique({ where: { credentialId: parsed.credentialId }, select: { personId: true } });
  if (existing) {
    if (existing.personId !== personId) warn(`security key "${credential.name}" (${credential.code}) is another account's here; not imported`);
    tally.add('security_keys', 'unchanged');
    return;
  }
  await tx.securityKey.create({ data: { personId, name: credential.name.slice(0, 100) || 'Security key', credentialId: parsed.credentialId, publicKey: parsed.publicKey, createdAt: credential.created } });
  tally.add('security_keys', 'created');
}

