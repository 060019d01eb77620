// Where the importer reads a Healthchecks instance: a `manage.py dumpdata` file, or the
// instance's database itself (an SQLite file, or PostgreSQL). The database drivers load only
// when a database is read.
import { readFile } from 'node:fs/promises';
import { readDumpdata } from './dumpdata.ts';
import { SourceError, type HcInstance } from './model.ts';

export type Source = { file: string } | { database: string };

/** The SQLite file a database URL names (sqlite:///abs/path, sqlite:rel/path, file:path, or a bare path); null for PostgreSQL. */
export function sqliteFileOf(url: string): string | null {
  if (/^postgres(ql)?:\/\//i.test(url)) return null;
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(url);
  const file = m ? m[1]! : url;
  if (!file) throw new SourceError(`not a database URL: ${url} (give postgresql://… or the path of the SQLite file)`);
  return file;
}

export async function readInstance(source: Source): Promise<HcInstance> {
  if ('file' in source) {
    let text: string;
    try {
      text = await readFile(source.file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new SourceError(`cannot read ${source.file}: ${code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message}`);
    }
    return readDumpdata(text);
  }
  const file = sqliteFileOf(source.database);
  if (file !== null) return (await import('./sqlite-source.ts')).readSqliteInstance(file);
  return (await import('./postgres-source.ts')).readPostgresInstance(source.database);
}
