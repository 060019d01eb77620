// Record search, as Slate's browse `q` does it: every word must appear, case-insensitively, as
// a substring of one of the kind's searched fields (Slate: MySQL LIKE '%word%'). The lookup
// sits behind a port so each database answers it from an index (SQLite: FTS5 trigrams in
// sqlite-search.ts; PostgreSQL would use pg_trgm) instead of a LIKE scan per word.
import { InvalidRequestError, SEARCH_MAX_CHARS, SEARCH_MAX_WORDS } from './limits.ts';
import type { KindSpec } from './kinds.ts';

/** The fields a search looks in, where a kind has them. The search index covers exactly these. */
export const SEARCH_FIELDS = ['Title', 'Name', 'FirstName', 'LastName', 'Handle', 'Code', 'Username'];

export const searchFields = (kind: KindSpec): string[] => SEARCH_FIELDS.filter((f) => kind.fields.some((k) => k.name === f));

export interface RecordSearch {
  /**
   * IDs (ascending) of the kind's rows in whose searched fields every word appears as a
   * substring, ignoring case. Words are literals: no character in them is query syntax.
   * Visibility is not applied here; the caller filters and pages the rows. Returns at most
   * `limit + 1` IDs, so the caller can tell a search that matched more than `limit`.
   */
  ids(kind: KindSpec, words: string[], limit: number): Promise<number[]>;
}

/**
 * The distinct words of a search, bounded in text and count so one request's lookup stays
 * small (each word is one phrase of the index query; words too short for it are scanned).
 */
export function searchWords(q: string): string[] {
  const text = q.trim();
  if (text.length > SEARCH_MAX_CHARS) throw new InvalidRequestError(`Search text is too long: at most ${SEARCH_MAX_CHARS} characters`);
  // Matching ignores case, so "Math math" is one word.
  const byKey = new Map<string, string>();
  // NUL separates words: SQLite ends a LIKE pattern at it and FTS5 refuses it in a phrase.
  for (const word of text.split(/[\s\0]+/).filter(Boolean)) {
    const key = word.replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (!byKey.has(key)) byKey.set(key, word);
  }
  if (byKey.size > SEARCH_MAX_WORDS) throw new InvalidRequestError(`Search has too many words: at most ${SEARCH_MAX_WORDS}`);
  return [...byKey.values()];
}

/**
 * The same condition as a Prisma filter that scans: every word a case-insensitive substring of
 * one of the searched fields (SQLite's LIKE folds ASCII case). The fallback for a search too
 * broad to hand over as a list of IDs: it then matches most rows, and reading them is the cost.
 */
export function scanWhere(kind: KindSpec, words: string[]): Record<string, unknown>[] {
  const fields = searchFields(kind);
  return words.map((word) => ({ OR: fields.map((f) => ({ [f]: { contains: word } })) }));
}
