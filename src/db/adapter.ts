// The driver adapter for DATABASE_URL. SQLite (better-sqlite3) is the embedded default.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';

export function sqliteFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) {
    throw new Error(`unsupported DATABASE_URL "${databaseUrl}": expected file:<path> (SQLite)`);
  }
  return databaseUrl.slice('file:'.length);
}

export function createAdapterFactory(databaseUrl: string) {
  const file = sqliteFilePath(databaseUrl);
  // The folder of the database file is created on first start (issue #2: data/ by default).
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return new PrismaBetterSqlite3({ url: file }, { timestampFormat: 'unixepoch-ms' });
}
