// The one-click unsubscribe link of report and nag mails, signed as Healthchecks signs it:
// Django's TimestampSigner(salt="reports").sign(username) (hc/accounts/models.py
// reports_unsub_url), i.e. "<username>:<base62 seconds>:<signature>", the signature being
// URL-safe base64 (no padding) of HMAC-SHA256 keyed with sha256("reportssigner" + SECRET_KEY).
// So the link works without signing in, cannot be made for another account, and, with the old
// instance's SECRET_KEY, the links in mail Healthchecks already sent keep working.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const SALT = 'reports';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Django's b62_encode (non-negative integers). */
export function b62encode(n: number): string {
  if (n === 0) return '0';
  let out = '';
  for (let v = n; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out;
}

/** Django's b62_decode; null for a character outside the alphabet. */
export function b62decode(s: string): number | null {
  if (!s) return null;
  const sign = s.startsWith('-') ? -1 : 1;
  let value = 0;
  for (const c of sign < 0 ? s.slice(1) : s) {
    const digit = BASE62.indexOf(c);
    if (digit < 0) return null;
    value = value * 62 + digit;
  }
  return sign * value;
}

/** Django's Signer.signature: base64_hmac(salt + "signer", value, SECRET_KEY, "sha256"). */
function signature(value: string, secret: string): string {
  const key = createHash('sha256').update(`${SALT}signer${secret}`, 'utf8').digest();
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/** TimestampSigner(salt="reports").sign(username) at `now`. */
export function signUsername(username: string, secret: string, now: Date): string {
  const value = `${username}:${b62encode(Math.floor(now.getTime() / 1000))}`;
  return `${value}:${signature(value, secret)}`;
}

/** The username and signing time of a signed value; null when the signature does not match (a tampered or foreign link). */
export function unsignUsername(signed: string, secret: string): { username: string; signedAt: Date } | null {
  const cut = signed.lastIndexOf(':');
  if (cut < 0) return null;
  const value = signed.slice(0, cut);
  const given = Buffer.from(signed.slice(cut + 1), 'utf8');
  const expected = Buffer.from(signature(value, secret), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const stamp = value.lastIndexOf(':');
  if (stamp < 0) return null;
  const seconds = b62decode(value.slice(stamp + 1));
  if (seconds === null) return null;
  return { username: value.slice(0, stamp), signedAt: new Date(seconds * 1000) };
}

/** Healthchecks' path for it: /accounts/unsubscribe_reports/<signed>/ (Django's reverse leaves the colons as they are). */
export const unsubscribeUrl = (siteRoot: string, signed: string) => `${siteRoot}/accounts/unsubscribe_reports/${encodeURIComponent(signed).replaceAll('%3A', ':')}/`;
