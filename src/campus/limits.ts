// Bounds on what one campus request may ask for, and the error for a request (not a record)
// that asks for too much or is malformed. Both transports get the same limits.
import { DomainError } from '../shared/errors.ts';

/**
 * A malformed or oversized request, as opposed to a record that fails validation: REST
 * answers 400 (Slate's "bad request params"), GraphQL a VALIDATION error.
 */
export class InvalidRequestError extends DomainError {
  constructor(message: string) {
    super('VALIDATION', message);
    this.name = 'InvalidRequestError';
  }
}

/** Largest ID, reference or count: the database's Int columns are 32-bit signed. */
export const MAX_INT = 2 ** 31 - 1;

/** Search text: characters after trimming, and distinct words (each word is a phrase of the index query). */
export const SEARCH_MAX_CHARS = 200;
export const SEARCH_MAX_WORDS = 10;
/**
 * Matches a search hands to the browse query as a list of IDs. A list costs about 8 µs an ID
 * (twice: page and count) and SQLite takes at most 32,766 bind values; a search matching more
 * is broad, and browse scans with LIKE instead, which then costs little more than the list.
 */
export const SEARCH_MAX_IDS = 1_000;

/**
 * Most records one browse returns. Slate's browse has no default limit (`limit: false`, blog
 * posts 25); we keep that, but a page never holds more than this: a larger `limit` is served as
 * this many, and a browse without one that matches more says so by printing this `limit`.
 */
export const BROWSE_MAX_LIMIT = 1000;

/** Items in one list: /save and /destroy `data`, a record's `tags` and `groupIDs`. */
export const MAX_LIST_ITEMS = 1000;

/**
 * Longest identifier a request may name a record by (ID, Handle, Code, Username, email):
 * Slate's columns are VARCHAR(255), so a longer one can name nothing.
 */
export const IDENT_MAX_CHARS = 255;

/** Longest browse filter value (`term`, `course`, `query`, ...): the bound the search text has. */
export const FILTER_MAX_CHARS = SEARCH_MAX_CHARS;

/** Longest comment: Slate's Message column is a TEXT (64 KiB). */
export const COMMENT_MAX_CHARS = 65_535;

/** Refuses text longer than `max` characters, naming the parameter. */
export function requireShortText(name: string, value: string | undefined | null, max: number): void {
  if (typeof value === 'string' && value.length > max) throw new InvalidRequestError(`${name} is too long: at most ${max} characters`);
}

/** An ID given as an integer or a string of digits, or null when it is neither or out of range. */
export function parseId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= MAX_INT ? value : null;
  if (typeof value === 'string' && /^\d+$/.test(value)) {
    const n = Number(value);
    return n <= MAX_INT ? n : null;
  }
  return null;
}
