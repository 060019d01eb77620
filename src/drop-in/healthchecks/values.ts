// Django's stored values in JavaScript terms. dumpdata writes datetimes as ISO 8601 ("…Z", or
// an offset), durations as "[D ]HH:MM:SS[.ffffff]" (DurationField.value_to_string), UUIDs dashed,
// binary as base64. A database holds them its own way: SQLite keeps datetimes as
// "YYYY-MM-DD HH:MM:SS[.ffffff]" in UTC, durations as microseconds and UUIDs as 32 hex digits;
// PostgreSQL has its own types (read as Dates, seconds and dashed strings by the source).
import { SourceError } from './model.ts';

/** A datetime as Django stores or dumps it; naive ones are UTC (Healthchecks runs with USE_TZ). */
export function djangoDate(value: unknown, what: string): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value;
  if (typeof value !== 'string') throw new SourceError(`${what}: expected a date, found ${JSON.stringify(value)}`);
  let text = value.trim().replace(' ', 'T');
  if (!/(Z|[+-]\d\d:?\d\d)$/.test(text)) text += 'Z';
  // Microseconds are more than a Date holds: milliseconds, as dumpdata writes them.
  text = text.replace(/(\.\d{3})\d+/, '$1');
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new SourceError(`${what}: not a date: ${value}`);
  return date;
}

export function requiredDate(value: unknown, what: string): Date {
  const date = djangoDate(value, what);
  if (!date) throw new SourceError(`${what}: missing`);
  return date;
}

/**
 * A DurationField in seconds: dumpdata's "[-][D ]HH:MM:SS[.ffffff]" (or ISO 8601 "P…", as
 * DjangoJSONEncoder writes elsewhere), SQLite's microseconds, or seconds already.
 */
export function djangoDuration(value: unknown, what: string, unit: 'text' | 'microseconds' | 'seconds' = 'text'): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number' || typeof value === 'bigint') return unit === 'microseconds' ? Number(value) / 1e6 : Number(value);
  if (typeof value !== 'string') throw new SourceError(`${what}: expected a duration, found ${JSON.stringify(value)}`);
  const plain = /^(-?\d+) (\d\d):(\d\d):(\d\d(?:\.\d+)?)$|^(\d\d):(\d\d):(\d\d(?:\.\d+)?)$/.exec(value.trim());
  if (plain) {
    const [days, h, m, s] = plain[1] !== undefined ? [Number(plain[1]), plain[2], plain[3], plain[4]] : [0, plain[5], plain[6], plain[7]];
    return days * 86400 + Number(h) * 3600 + Number(m) * 60 + Number(s);
  }
  const iso = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value.trim());
  if (iso) {
    const seconds = Number(iso[2] ?? 0) * 86400 + Number(iso[3] ?? 0) * 3600 + Number(iso[4] ?? 0) * 60 + Number(iso[5] ?? 0);
    return iso[1] ? -seconds : seconds;
  }
  throw new SourceError(`${what}: not a duration: ${value}`);
}

/** A UUID as Django keeps it (dashed, or 32 hex digits in SQLite): dashed, lower case. */
export function djangoUuid(value: unknown, what: string): string;
export function djangoUuid(value: unknown, what: string, nullable: true): string | null;
export function djangoUuid(value: unknown, what: string, nullable = false): string | null {
  if ((value === null || value === undefined || value === '') && nullable) return null;
  const hex = typeof value === 'string' ? value.trim().toLowerCase().replace(/-/g, '') : '';
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new SourceError(`${what}: not a UUID: ${JSON.stringify(value)}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A BinaryField: base64 in dumpdata, bytes in a database. */
export function djangoBinary(value: unknown, what: string): Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof value === 'string') return Buffer.from(value, 'base64');
  throw new SourceError(`${what}: expected binary data, found ${typeof value}`);
}

export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
export const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
/** SQLite keeps booleans as 0 and 1. */
export const flag = (value: unknown): boolean => value === true || value === 1 || value === '1' || value === 't';

export function integer(value: unknown, what: string): number {
  const n = typeof value === 'bigint' ? Number(value) : Number(value);
  if (!Number.isInteger(n)) throw new SourceError(`${what}: not an integer: ${JSON.stringify(value)}`);
  return n;
}

export const nullableInteger = (value: unknown, what: string): number | null => (value === null || value === undefined ? null : integer(value, what));
