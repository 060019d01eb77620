// A Healthchecks SQLite database (its hc.sqlite), opened read-only: the instance may still run.
// Django keeps durations there as microseconds, datetimes as UTC text, UUIDs as 32 hex digits.
import Database from 'better-sqlite3';
import { SourceError, type HcInstance } from './model.ts';
import { readTables, type Row, type TableReader } from './tables.ts';

export async function readSqliteInstance(file: string): Promise<HcInstance> {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  } catch (err) {
    throw new SourceError(`cannot read the SQLite database ${file}: ${(err as Error).message}`);
  }
  const reader: TableReader = {
    async rows(table) {
      const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
      // Table names come from the importer's own list, never from the database or the user.
      return exists ? (db.prepare(`SELECT * FROM "${table}" ORDER BY 1`).all() as Row[]) : null;
    },
    async close() {
      db.close();
    },
  };
  try {
    return await readTables(reader, 'microseconds');
  } finally {
    await reader.close();
  }
}
