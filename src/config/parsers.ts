// How one environment variable's text becomes a value. Each parser returns the value or throws
// InvalidValue with what was expected; the caller names the variable and quotes the value.
import type { RateRule } from '../http/rate-limit.ts';
import { parseTrustedProxies } from '../http/client-address.ts';

export class InvalidValue extends Error {}

export type Parse<T> = (raw: string) => T;

const TRUE = /^(true|1|yes|on)$/i;
const FALSE = /^(false|0|no|off)$/i;
/**
 * One boolean spelling for every switch: Healthchecks' envbool writes True and False, older
 * settings here said on and off; both, and yes/no and 1/0, in any case, mean the same.
 */
export const bool: Parse<boolean> = (raw) => {
  if (TRUE.test(raw.trim())) return true;
  if (FALSE.test(raw.trim())) return false;
  throw new InvalidValue('expected True or False (also on/off, yes/no, 1/0)');
};

export const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parse<number> =>
  (raw) => {
    const n = Number(raw.trim());
    if (!/^-?\d+$/.test(raw.trim()) || n < min || n > max) {
      throw new InvalidValue(max === Number.MAX_SAFE_INTEGER ? `expected a whole number of at least ${min}` : `expected a whole number from ${min} to ${max}`);
    }
    return n;
  };

export const text: Parse<string> = (raw) => raw;

/** One of `values`, in any case (LOG_LEVEL=INFO is info). */
export const oneOf =
  <const T extends string>(values: readonly T[]): Parse<T> =>
  (raw) => {
    const v = raw.trim().toLowerCase();
    const found = values.find((x) => x === v);
    if (found === undefined) throw new InvalidValue(`expected one of ${values.join(', ')}`);
    return found;
  };

/** An absolute http(s) URL without query or fragment, returned as written (no trailing-slash rewrite here). */
export const httpUrl =
  (example: string): Parse<string> =>
  (raw) => {
    const expected = `expected an http:// or https:// URL such as ${example}`;
    let u: URL;
    try {
      u = new URL(raw.trim());
    } catch {
      throw new InvalidValue(expected);
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) throw new InvalidValue(expected);
    if (u.search || u.hash) throw new InvalidValue(`${expected}, without ? or #`);
    return raw.trim();
  };

export const databaseUrl: Parse<string> = (raw) => {
  if (raw.startsWith('file:') && raw.length > 'file:'.length) return raw;
  if (/^postgres(ql)?:\/\/[^/]/.test(raw)) return raw;
  throw new InvalidValue('expected file:<path> (SQLite) or postgresql://user:password@host:5432/database');
};

export const redisUrl: Parse<string> = (raw) => {
  if (/^rediss?:\/\/[^/]/.test(raw)) return raw;
  throw new InvalidValue('expected redis://[user:password@]host[:port][/db] or rediss://…');
};

/** Redis pub/sub channel names are `<prefix>:<topic>`; a pattern character would match other channels. */
export const channelPrefix: Parse<string> = (raw) => {
  if (/^[^\s*?[\]]+$/.test(raw)) return raw;
  throw new InvalidValue('expected a prefix without spaces or *?[] (e.g. gateway:events:staging)');
};

/** Healthchecks' PING_BODY_LIMIT: bytes, or "none" for no limit. */
export const bodyLimit: Parse<number | null> = (raw) => {
  if (/^none$/i.test(raw.trim())) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  throw new InvalidValue('expected a number of bytes, or none');
};

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
/**
 * A rate limit as "<requests>/<window>", the window in seconds or with a unit: "20/1h",
 * "100/10m", "1000/60"; "off" (or "0") lifts that one limit (null).
 */
export const rateRule: Parse<RateRule | null> = (raw) => {
  if (/^(off|0)$/i.test(raw.trim())) return null;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*([smh]?)\s*$/.exec(raw);
  const limit = Number(m?.[1]);
  const windowMs = Number(m?.[2]) * UNIT_MS[(m?.[3] || 's') as keyof typeof UNIT_MS];
  if (!m || !(limit >= 1) || !(windowMs >= 1000)) throw new InvalidValue('expected <requests>/<seconds> such as 1000/60 or 20/1h, or off');
  return { limit, windowMs };
};

/**
 * INTEGRATION_BASE_URLS: a JSON object from kind to base URL (scheme, host, port and an optional
 * path; no query or fragment). `kindOf` names the kind a key stands for (a name or Healthchecks'
 * code), or says why it cannot be one.
 */
export const baseUrls =
  (kindOf: (key: string) => { kind: string } | { refused: string }): Parse<Record<string, string>> =>
  (raw) => {
    const expected = 'expected a JSON object from channel kind to base URL, such as {"ntfy": "https://ntfy.example.org"}';
    let doc: unknown;
    try {
      doc = JSON.parse(raw);
    } catch {
      throw new InvalidValue(expected);
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new InvalidValue(expected);
    const out: Record<string, string> = {};
    for (const [key, url] of Object.entries(doc)) {
      const found = kindOf(key);
      if ('refused' in found) throw new InvalidValue(found.refused);
      if (typeof url !== 'string') throw new InvalidValue(`the base URL for ${key} must be a string`);
      try {
        out[found.kind] = httpUrl('https://proxy.example.org')(url);
      } catch (err) {
        throw new InvalidValue(`the base URL for ${key}: ${(err as Error).message}`);
      }
    }
    return out;
  };

/** TRUSTED_PROXIES: comma-separated IPv4/IPv6 addresses and CIDR blocks. */
export const trustedProxyList: Parse<string[]> = (raw) => {
  try {
    return parseTrustedProxies(raw);
  } catch (err) {
    throw new InvalidValue(`expected comma-separated addresses and CIDR blocks such as 127.0.0.1,10.0.0.0/8,::1: ${(err as Error).message}`);
  }
};
