// RecordSearch on SQLite: the FTS5 table CampusSearch (migration 20261123144000_campus_search),
// kept in step with the record tables by triggers. Its trigram tokenizer indexes every
// 3-character substring, so a quoted word of 3+ characters matches exactly where
// LIKE '%word%' did (case folded), read from the index instead of a scan of the table.
import type { Db } from '../db/client.ts';
import type { KindSpec } from './kinds.ts';
import type { RecordSearch } from './search.ts';

/**
 * Each table's slot: a row's key in the index is slot * 2^32 + ID (IDs are 32-bit), so one
 * index serves every table and a kind's rows are one rowid range. Must match the migration.
 */
const SLOTS: Partial<Record<KindSpec['model'], number>> = { person: 1, section: 2, course: 3, content: 4, group: 5, location: 6, term: 7 };
const SLOT_SIZE = 2 ** 32;

/** The trigram tokenizer cannot look up fewer than 3 characters (it matches no row). */
const TRIGRAM = 3;

/** An FTS5 phrase: inside double quotes nothing is syntax, and a quote is written twice. */
const ftsPhrase = (word: string) => `"${word.replace(/"/g, '""')}"`;

/** A LIKE pattern for the word anywhere, its wildcards and the escape character taken literally. */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function sqliteRecordSearch(db: Db): RecordSearch {
  return {
    async ids(kind, words, limit) {
      const slot = SLOTS[kind.model];
      // Kinds without an index (search.ts INDEXED_MODELS) never get here: their search scans.
      if (slot === undefined) throw new Error(`no search index for ${kind.model}`);
      const low = slot * SLOT_SIZE;
      const indexed = words.filter((w) => [...w].length >= TRIGRAM);
      // Words of 1 or 2 characters: a LIKE over the kind's rows in the index (one column,
      // fields joined by a newline no word contains); after a MATCH only the matched rows are
      // read. A query of short words only reads the kind's rows once, as the bounds allow.
      const short = words.filter((w) => [...w].length < TRIGRAM);
      const conditions = ['rowid > ?', 'rowid < ?'];
      const params: unknown[] = [low, low + SLOT_SIZE];
      if (indexed.length) {
        conditions.push('CampusSearch MATCH ?');
        params.push(indexed.map(ftsPhrase).join(' AND '));
      }
      for (const word of short) {
        conditions.push(`Body LIKE ? ESCAPE '\\'`);
        params.push(likePattern(word));
      }
      const rows = await db.$queryRawUnsafe<Array<{ rowid: number | bigint }>>(
        `SELECT rowid FROM CampusSearch WHERE ${conditions.join(' AND ')} ORDER BY rowid LIMIT ?`,
        ...params,
        limit + 1,
      );
      return rows.map((r) => Number(r.rowid) - low);
    },
    // SQLite's LIKE, which Prisma's `contains` becomes, already ignores (ASCII) case.
    contains: (field, term) => ({ [field]: { contains: term } }),
  };
}
