// Badge signatures, URLs and summaries (Healthchecks' hc/lib/badges.py and badge views).
// Our URLs carry the project id; the signature is keyed by the stored badge-key hash
// (docs/decisions.md), so rotating the badge key revokes every published badge URL.
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

/**
 * Django's base64_hmac(salt=badge_key, value=tag, key=SECRET_KEY, "sha1"): HMAC keyed by
 * sha1(salt + secret), URL-safe base64 without padding. We have no secret, so the salt is
 * the whole key material. Healthchecks publishes the first 8 characters.
 */
export function badgeSignature(badgeKeyHash: string, tag: string): string {
  const key = createHash('sha1').update(badgeKeyHash).digest();
  return createHmac('sha1', key).update(tag).digest('base64url').slice(0, 8);
}

/** get_badge_url: 2-state URLs carry "-2"; "*" (all checks) has no tag segment. */
export function badgeUrls(siteRoot: string, projectId: string, badgeKeyHash: string, tag: string): BadgeUrls {
  const sig = badgeSignature(badgeKeyHash, tag);
  const url = (states: 2 | 3, fmt: BadgeFormat) => {
    const s = states === 2 ? `${sig}-2` : sig;
    return tag === '*' ? `${siteRoot}/badge/${projectId}/${s}.${fmt}` : `${siteRoot}/badge/${projectId}/${s}/${encodeTagSegment(tag)}.${fmt}`;
  };
  return { svg: url(2, 'svg'), svg3: url(3, 'svg'), json: url(2, 'json'), json3: url(3, 'json'), shields: url(2, 'shields'), shields3: url(3, 'shields') };
}

// Healthchecks routes the signature as a Django slug; anything else never reaches the view.
const SLUG = /^[-a-zA-Z0-9_]+$/;

/**
 * Two states iff exactly 8 characters plus "-2"; check_signature compares only the first
 * 8 characters, so extra trailing characters are tolerated (and make the badge 3-state).
 */
export function verifyBadgeSignature(badgeKeyHash: string, tag: string, signature: string): { valid: boolean; states: 2 | 3 } {
  const states = signature.length === 10 && signature.endsWith('-2') ? 2 : 3;
  const expected = Buffer.from(badgeSignature(badgeKeyHash, tag));
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
