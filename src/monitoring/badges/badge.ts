// Badge signatures, URLs and summaries (Healthchecks' hc/lib/badges.py and badge views).
// A signature is Django's base64_hmac(salt=badge_key, value=tag, key=SECRET_KEY, "sha1")[:8]:
// HMAC-SHA1 of the tag keyed by sha1(badge_key + SECRET_KEY). That derived key is the one input
// here (a Buffer), so a project imported with another instance's key signs as it did (keys.ts).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { encodeTagSegment } from './tag-segment.ts';

export { renderBadgeSvg } from './svg.ts';
export { decodeTagSegment, encodeTagSegment, isTagSegment } from './tag-segment.ts';

export type BadgeFormat = 'svg' | 'json' | 'shields';
import type { BadgeStatus } from './svg.ts';

export type { BadgeStatus };
export type BadgeUrls = { svg: string; svg3: string; json: string; json3: string; shields: string; shields3: string };
export interface BadgeSummary {
  status: BadgeStatus;
  total: number;
  grace: number;
  down: number;
}
export type CheckBadgeSummary = { status: BadgeStatus; total: 1; grace: 0 | 1; down: 0 | 1 };
type CheckStatus = 'new' | 'up' | 'grace' | 'down' | 'paused';

const FORMATS: readonly string[] = ['svg', 'json', 'shields'];
export const isBadgeFormat = (s: string): s is BadgeFormat => FORMATS.includes(s);

/** salted_hmac's key: sha1(salt + secret), both as UTF-8 (Django's force_bytes). */
export function saltedHmacKey(salt: string, secret: string): Buffer {
  return createHash('sha1').update(Buffer.concat([Buffer.from(salt, 'utf8'), Buffer.from(secret, 'utf8')])).digest();
}

/** The key of a project's Healthchecks-form signatures: its imported one, or sha1(badge key + SECRET_KEY). */
export const projectSigningKey = (badgeKey: string, storedSigningKey: string | null, secretKey: string): Buffer =>
  storedSigningKey ? Buffer.from(storedSigningKey, 'hex') : saltedHmacKey(badgeKey, secretKey);

/**
 * The key of the URLs issued before badge keys were stored (/badge/<project id>/...): the badge
 * key's sha256 was the whole salt and there was no secret.
 */
export const legacySigningKey = (badgeKeyHash: string): Buffer => saltedHmacKey(badgeKeyHash, '');

/** base64_hmac(...)[:8]: HMAC-SHA1 of the tag, URL-safe base64 without padding, 8 characters. */
export function badgeSignature(signingKey: Buffer, tag: string): string {
  return createHmac('sha1', signingKey).update(tag, 'utf8').digest('base64url').slice(0, 8);
}

/**
 * get_badge_url: /badge/<badge key>/<signature>[-2][/<tag>].<fmt>; 2-state URLs carry "-2";
 * "*" (all checks) has no tag segment. `urlKey` is the badge key (or, for the old form, the project id).
 */
export function badgeUrls(siteRoot: string, urlKey: string, signingKey: Buffer, tag: string): BadgeUrls {
  const sig = badgeSignature(signingKey, tag);
  const url = (states: 2 | 3, fmt: BadgeFormat) => {
    const s = states === 2 ? `${sig}-2` : sig;
    return tag === '*' ? `${siteRoot}/badge/${urlKey}/${s}.${fmt}` : `${siteRoot}/badge/${urlKey}/${s}/${encodeTagSegment(tag)}.${fmt}`;
  };
  return { svg: url(2, 'svg'), svg3: url(3, 'svg'), json: url(2, 'json'), json3: url(3, 'json'), shields: url(2, 'shields'), shields3: url(3, 'shields') };
}

// Healthchecks routes the signature as a Django slug; anything else never reaches the view.
const SLUG = /^[-a-zA-Z0-9_]+$/;

/**
 * Two states iff exactly 8 characters plus "-2"; check_signature compares only the first
 * 8 characters, so extra trailing characters are tolerated (and make the badge 3-state).
 */
export function verifyBadgeSignature(signingKey: Buffer, tag: string, signature: string): { valid: boolean; states: 2 | 3 } {
  const states = signature.length === 10 && signature.endsWith('-2') ? 2 : 3;
  const expected = Buffer.from(badgeSignature(signingKey, tag));
  const given = Buffer.from(signature.slice(0, 8));
  const valid = SLUG.test(signature) && given.length === expected.length && timingSafeEqual(given, expected);
  return { valid, states };
}

/**
 * Healthchecks' badge loop: down wins; grace is "late" only on three-state badges;
 * new/paused count as up. For svg it stops at the first down (only the status is drawn,
 * which cannot change after a down), so the counts differ from json's but nobody sees them.
 */
export function summarizeBadge(statuses: CheckStatus[], states: 2 | 3, fmt: BadgeFormat = 'json'): BadgeSummary {
  let status: BadgeStatus = 'up';
  let total = 0;
  let grace = 0;
  let down = 0;
  for (const s of statuses) {
    total++;
    if (s === 'down') {
      down++;
      status = 'down';
      if (fmt === 'svg') break;
    } else if (s === 'grace') {
      grace++;
      if (status === 'up' && states === 3) status = 'late';
    }
  }
  return { status, total, grace, down };
}

/** check_badge (/b/<states>/...): any states value but 3 acts as two states. */
export function checkBadgeSummary(status: CheckStatus, states: number): CheckBadgeSummary {
  if (status === 'down') return { status: 'down', total: 1, grace: 0, down: 1 };
  if (status === 'grace') return { status: states === 3 ? 'late' : 'up', total: 1, grace: 1, down: 0 };
  return { status: 'up', total: 1, grace: 0, down: 0 };
}

export const badgeJson = (s: BadgeSummary) => ({ status: s.status, total: s.total, grace: s.grace, down: s.down });

const SHIELDS_COLORS: Record<BadgeStatus, string> = { up: 'success', late: 'important', down: 'critical' };
export const shieldsJson = (label: string, status: BadgeStatus) => ({ schemaVersion: 1, label, message: status, color: SHIELDS_COLORS[status] });
