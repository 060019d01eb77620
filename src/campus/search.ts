// Record search, as Slate's browse `q` does it: every word must appear, case-insensitively, as
// a substring of one of the kind's searched fields (Slate: MySQL LIKE '%word%'); qualifiers
// (`first:`, `group:` ...) are in qualifiers.ts, the syntax in search-string.ts. The lookup
// sits behind a port so each database answers it from an index (SQLite: FTS5 trigrams in
// sqlite-search.ts; PostgreSQL: pg_trgm, postgres-search.ts) instead of a LIKE scan per word.
import type { KindSpec } from './kinds.ts';

/** The fields a search looks in, where a kind has them. The search index covers exactly these. */
export const SEARCH_FIELDS = ['Title', 'Name', 'FirstName', 'LastName', 'Handle', 'Code', 'Username'];

/**
 * The tables the search migrations index (SQLite: FTS5 triggers; PostgreSQL: a trigram index).
 * Departments and schedules are not: they are few, so their searches scan with LIKE
 * (`containsAny`) instead of needing a migration of the index.
 */
export const INDEXED_MODELS: ReadonlySet<KindSpec['model']> = new Set(['person', 'section', 'course', 'content', 'group', 'location', 'term']);
export const hasSearchIndex = (kind: KindSpec) => INDEXED_MODELS.has(kind.model);

export const searchFields = (kind: KindSpec): string[] => SEARCH_FIELDS.filter((f) => kind.fields.some((k) => k.name === f));

export interface RecordSearch {
  /**
   * IDs (ascending) of the kind's rows in whose searched fields every word appears as a
   * substring, ignoring case. Words are literals: no character in them is query syntax.
   * Visibility is not applied here; the caller filters and pages the rows. Returns at most
   * `limit + 1` IDs, so the caller can tell a search that matched more than `limit`.
   * Only for kinds with an index (hasSearchIndex); the others are searched with `contains`.
   */
  ids(kind: KindSpec, words: string[], limit: number): Promise<number[]>;
  /**
   * A Prisma condition that scans: `term` is a substring of `field`, ignoring case as `ids`
   * does. Each database spells it differently (SQLite's LIKE folds case by itself; Prisma's
   * `contains` on PostgreSQL is case-sensitive unless asked), so the port says it. `term` holds
   * no NUL: the search parser splits words at it, and other callers find nothing without asking.
   */
  contains(field: string, term: string): Record<string, unknown>;
}

/** A term as a condition that scans: a case-insensitive substring of one of `fields`. */
export const containsAny = (search: RecordSearch, fields: string[], term: string): Record<string, unknown> => ({ OR: fields.map((f) => search.contains(f, term)) });
