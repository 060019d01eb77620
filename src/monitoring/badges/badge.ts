// Badge signatures, URLs and summaries (Healthchecks' hc/lib/badges.py and badge views).
// Our URLs carry the project id; the signature is keyed by the stored badge-key hash
// (docs/decisions.md), so rotating the badge key revokes every published badge URL.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export { renderBadgeSvg } from './svg.ts';

export type BadgeFormat = 'svg' | 'json' | 'shields';
export type BadgeStatus = 'up' | 'late' | 'down';
export type BadgeUrls = { svg: string; svg3: string; json: string; json3: string; shields: string; shields3: string };
export interface BadgeSummary {
  status: BadgeStatus;
  total: number;
  grace: number;
  down: number;
}
type CheckStatus = 'new' | 'up' | 'grace' | 'down' | 'paused';

const FORMATS: readonly string[] = ['svg', 'json', 'shields'];
export const isBadgeFormat = (s: string): s is BadgeFormat => FORMATS.includes(s);

/** Django's base64_hmac (sha1 over a sha1-derived key), URL-safe without padding, 8 chars. */
export function badgeSignature(badgeKeyHash: string, tag: string): string {
  const key = createHash('sha1').update(badgeKeyHash).digest();
  return createHmac('sha1', key).update(tag).digest('base64url').slice(0, 8);
}

/** Healthchecks quotes the tag and its URL reverse escapes the "%" again ("a@b" → "a%2540b"). */
export const encodeTagSegment = (tag: string) => encodeURIComponent(encodeURIComponent(tag).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`));

/** The router decodes the path segment once; Healthchecks unquotes the tag once more. */
export function decodeTagSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function badgeUrls(siteRoot: string, projectId: string, badgeKeyHash: string, tag: string): BadgeUrls {
  const sig = badgeSignature(badgeKeyHash, tag);
  const url = (states: 2 | 3, fmt: BadgeFormat) => {
    const s = states === 2 ? `${sig}-2` : sig;
    return tag === '*' ? `${siteRoot}/badge/${projectId}/${s}.${fmt}` : `${siteRoot}/badge/${projectId}/${s}/${encodeTagSegment(tag)}.${fmt}`;
  };
  return { svg: url(2, 'svg'), svg3: url(3, 'svg'), json: url(2, 'json'), json3: url(3, 'json'), shields: url(2, 'shields'), shields3: url(3, 'shields') };
}

/** Two states iff the signature is 8 characters plus "-2"; extra characters are tolerated. */
export function verifyBadgeSignature(badgeKeyHash: string, tag: string, signature: string): { valid: boolean; states: 2 | 3 } {
  const states = signature.length === 10 && signature.endsWith('-2') ? 2 : 3;
  const expected = Buffer.from(badgeSignature(badgeKeyHash, tag));
  const given = Buffer.from(signature.slice(0, 8));
  const valid = given.length === expected.length && timingSafeEqual(given, expected);
  return { valid, states };
}

/** Healthchecks' badge loop: down wins; grace is "late" only on three-state badges. */
export function summarizeBadge(statuses: CheckStatus[], states: 2 | 3): BadgeSummary {
  let status: BadgeStatus = 'up';
  let grace = 0;
  let down = 0;
  for (const s of statuses) {
    if (s === 'down') {
      down++;
      status = 'down';
    } else if (s === 'grace') {
      grace++;
      if (status === 'up' && states === 3) status = 'late';
    }
  }
  return { status, total: statuses.length, grace, down };
}

/** Per-check badge (/b/<states>/...): any states value but 3 acts as two states. */
export function checkBadgeSummary(status: CheckStatus, states: number): BadgeSummary {
  if (status === 'down') return { status: 'down', total: 1, grace: 0, down: 1 };
  if (status === 'grace') return { status: states === 3 ? 'late' : 'up', total: 1, grace: 1, down: 0 };
  return { status: 'up', total: 1, grace: 0, down: 0 };
}

export const badgeJson = (s: BadgeSummary) => ({ status: s.status, total: s.total, grace: s.grace, down: s.down });

const SHIELDS_COLORS: Record<BadgeStatus, string> = { up: 'success', late: 'important', down: 'critical' };
export const shieldsJson = (label: string, status: BadgeStatus) => ({ schemaVersion: 1, label, message: status, color: SHIELDS_COLORS[status] });
