// The browser session's cookie: HttpOnly (no script reads it), SameSite=Lax (no cross-site
// subrequest carries it), Secure and `__Host-` prefixed when the site is https (SITE_ROOT),
// Path=/. And the CSRF rule for using it: a request may act on the cookie only when it comes
// from this site's own pages. Cross-origin requests are recognised by what browsers always send
// with them (Sec-Fetch-Site, Origin); a POST must also be JSON, which no HTML form can send and
// which a cross-origin script cannot send without a CORS preflight we do not grant with
// credentials. Requests that fail the rule are treated as if they had no cookie: they stay
// anonymous (or use their API key), so nothing is done on the person's behalf.
import type { IncomingHttpHeaders } from 'node:http';

const PLAIN_NAME = 'gateway_session';
const SECURE_NAME = '__Host-gateway_session';

export const sessionCookieName = (secure: boolean) => (secure ? SECURE_NAME : PLAIN_NAME);

type HeaderGet = (name: string) => string | null;

export const fromNodeHeaders =
  (headers: IncomingHttpHeaders): HeaderGet =>
  (name) => {
    const value = headers[name];
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  };

/** A cookie's value from a Cookie header (the first of that name), or null. */
export function cookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value && /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
    }
  }
  return null;
}

function sameSite(origin: string, header: HeaderGet, siteRoot: string): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage are never this site
  }
  return host === header('host') || host === new URL(siteRoot).host;
}

/** Whether this request may act on the session cookie (the CSRF rule above). */
export function cookieAllowed(method: string, header: HeaderGet, siteRoot: string): boolean {
  const fetchSite = header('sec-fetch-site');
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') return false;
  const origin = header('origin');
  if (origin && !sameSite(origin, header, siteRoot)) return false;
  if (method === 'GET' || method === 'HEAD') return true;
  const type = (header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type === 'application/graphql-response+json';
}

/** The session token a request may use: the cookie's value when the CSRF rule allows it. */
export function usableSessionToken(method: string, header: HeaderGet, siteRoot: string): string | null {
  const secure = siteRoot.startsWith('https:');
  const token = cookieValue(header('cookie'), sessionCookieName(secure));
  return token && cookieAllowed(method, header, siteRoot) ? token : null;
}

/**
 * The session token an upload may use (a multipart POST, which no rule above lets through: it
 * cannot be JSON). It must instead prove where it comes from, `Sec-Fetch-Site: same-origin` or a
 * same-site Origin; then the GET rule applies. GETs follow the GET rule.
 */
export function usableUploadSessionToken(method: string, header: HeaderGet, siteRoot: string): string | null {
  if (method === 'GET' || method === 'HEAD') return usableSessionToken('GET', header, siteRoot);
  const provenance = header('sec-fetch-site') === 'same-origin' || header('origin') !== null;
  return provenance ? usableSessionToken('GET', header, siteRoot) : null;
}

/** The Set-Cookie value that hands a browser its session (it ends with the session's absolute lifetime). */
export function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return `${sessionCookieName(secure)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName(secure)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}
