// Where badge keys live. A project's badge key is stored in clear: it is public by nature (every
// badge URL in a README carries it) and badge URLs in Healthchecks' form name it. Its sha256
// (badgeKeyHash) stays too: it signs the URLs issued before the key was stored. Importers (a
// Healthchecks instance's projects and checks) store the keys they bring through these functions.
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { conflict, notFound, validationError } from '../../shared/errors.ts';
import { hashKey, newBadgeKey } from '../projects/keys.ts';
import { saltedHmacKey } from './badge.ts';

type Client = Db | Prisma.TransactionClient;

/** Healthchecks' Project.badge_key is a CharField(max_length=150), unique. */
export const BADGE_KEY_MAX = 150;

/**
 * Django's salted_hmac key for a badge signature: sha1(badge_key + SECRET_KEY). It alone decides
 * a project's signatures, so an imported project keeps this (never the instance's SECRET_KEY,
 * which also signed its sessions and hashed its API keys).
 */
export const badgeSigningKeyOf = (badgeKey: string, secretKey: string): string => saltedHmacKey(badgeKey, secretKey).toString('hex');

export interface ProjectBadgeColumns {
  badgeKey: string;
  badgeKeyHash: string;
  badgeSigningKey: string | null;
}

/**
 * The Project columns for a badge key: pass them in `project.create`/`update` data. With the
 * SECRET_KEY of the Healthchecks instance the key came from, the project's badge URLs are signed
 * as that instance signed them whatever this installation's SECRET_KEY; without it (a new key,
 * or an import without the old secret), this installation's SECRET_KEY signs.
 */
export function projectBadgeColumns(badgeKey: string = newBadgeKey(), instanceSecretKey: string | null = null): ProjectBadgeColumns {
  if (badgeKey.length === 0 || badgeKey.length > BADGE_KEY_MAX) throw validationError(`badge key must be 1 to ${BADGE_KEY_MAX} characters`);
  return {
    badgeKey,
    badgeKeyHash: hashKey(badgeKey),
    badgeSigningKey: instanceSecretKey ? badgeSigningKeyOf(badgeKey, instanceSecretKey) : null,
  };
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

/**
 * Gives a project the badge key it had on a Healthchecks instance (the importer). Another
 * project holding the key is a conflict; the project's previous badge URLs stop working.
 */
export async function setProjectBadgeKey(db: Client, projectId: string, badgeKey: string, instanceSecretKey: string | null = null): Promise<void> {
  const data = projectBadgeColumns(badgeKey, instanceSecretKey);
  const holder = await db.project.findUnique({ where: { badgeKey }, select: { id: true } });
  if (holder && holder.id !== projectId) throw conflict(`badge key already used by project ${holder.id}`);
  try {
    const result = await db.project.updateMany({ where: { id: projectId }, data });
    if (result.count === 0) throw notFound(`project not found: ${projectId}`);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('badge key already used by another project');
    throw err;
  }
}

/** The stored badge key, made (once: the first writer wins) for a project made before keys were stored. */
export async function ensureProjectBadgeKey(db: Db, projectId: string): Promise<{ badgeKey: string; badgeSigningKey: string | null }> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { badgeKey: true, badgeSigningKey: true } });
  if (!project) throw notFound(`project not found: ${projectId}`);
  if (project.badgeKey !== null) return { badgeKey: project.badgeKey, badgeSigningKey: project.badgeSigningKey };
  // Only the key is new: badgeKeyHash keeps signing the URLs already handed out.
  await db.project.updateMany({ where: { id: projectId, badgeKey: null }, data: { badgeKey: newBadgeKey(), badgeSigningKey: null } });
  const now = await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { badgeKey: true, badgeSigningKey: true } });
  return { badgeKey: now.badgeKey!, badgeSigningKey: now.badgeSigningKey };
}

// Django's UUIDField as dumpdata writes it, and the only form Healthchecks' /b/ route matches.
const CHECK_BADGE_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A check badge key as stored: a UUID, lower case with dashes (upper case and bare hex accepted). */
export function checkBadgeKeyOf(value: string): string {
  const hex = value.trim().toLowerCase().replace(/-/g, '');
  const key = /^[0-9a-f]{32}$/.test(hex) ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : '';
  if (!CHECK_BADGE_KEY.test(key)) throw validationError('badge key must be a UUID');
  return key;
}

/** Gives a check the badge key it had on a Healthchecks instance (/b/<states>/<key>.<fmt>). */
export async function setCheckBadgeKey(db: Client, checkId: number, badgeKey: string): Promise<void> {
  const key = checkBadgeKeyOf(badgeKey);
  const holder = await db.check.findUnique({ where: { badgeKey: key }, select: { id: true, code: true } });
  if (holder && holder.id !== checkId) throw conflict(`badge key already used by check ${holder.code}`);
  try {
    const result = await db.check.updateMany({ where: { id: checkId }, data: { badgeKey: key } });
    if (result.count === 0) throw notFound(`check not found: ${checkId}`);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('badge key already used by another check');
    throw err;
  }
}
