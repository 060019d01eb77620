// RecordSearch on PostgreSQL: a pg_trgm GIN index per searched table on the lower-cased fields
// joined by a newline (migration 20261126050000_campus_search_trigram). pg_trgm answers
// LIKE '%word%' from that index for words of 3+ characters, so the same substring rule as
// SQLite's FTS5 trigram table holds without a second copy of the text; shorter words scan.
import type { Db } from '../db/client.ts';
import type { KindSpec } from './kinds.ts';
import { searchFields, type RecordSearch } from './search.ts';

const table = (kind: KindSpec) => kind.model[0]!.toUpperCase() + kind.model.slice(1);

/**
 * The indexed expression. It must be spelled exactly as in the migration's CREATE INDEX for
 * PostgreSQL to use the index (a test compares them); `||` and lower() are immutable, which an
 * index expression needs (concat_ws is not).
 */
export const searchExpression = (fields: string[]) => `lower(${fields.map((f) => `COALESCE("${f}", '')`).join(` || E'\\n' || `)})`;

/** A LIKE pattern for the word anywhere, its wildcards and the escape character taken literally. */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function postgresRecordSearch(db: Db): RecordSearch {
  return {
    // Only for indexed kinds (search.ts hasSearchIndex); the statement would scan any other table.
    async ids(kind, words, limit) {
      const expression = searchExpression(searchFields(kind));
      // lower() on both sides: the word folds exactly as the indexed text did (Unicode case,
      // as Slate's MySQL collation folds it).
      const conditions = words.map((_, i) => `${expression} LIKE lower($${i + 1}) ESCAPE '\\'`);
      const rows = await db.$queryRawUnsafe<Array<{ ID: number }>>(
        `SELECT "ID" FROM "${table(kind)}" WHERE ${conditions.join(' AND ')} ORDER BY "ID" LIMIT $${words.length + 1}`,
        ...words.map(likePattern),
        limit + 1,
      );
      return rows.map((r) => Number(r.ID));
    },
    contains: (field, term) => ({ [field]: { contains: term, mode: 'insensitive' } }),
  };
}
