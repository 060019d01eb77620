// The driver adapter for DATABASE_URL: SQLite (better-sqlite3) is the embedded default;
// PostgreSQL goes through `pg` (a pool shared with the hot paths' own SQL).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { providerOf } from './provider.ts';
import { redactUrl } from '../shared/redact-url.ts';
import { SqliteAdapterFactory } from './sqlite/driver-adapter/index.ts';

export function sqliteFilePath(databaseUrl: string): string {
  if (providerOf(databaseUrl) !== 'sqlite') {
    throw new Error(`not an SQLite DATABASE_URL: "${redactUrl(databaseUrl)}"`);
  }
  return databaseUrl.slice('file:'.length);
}

export function createAdapterFactory(databaseUrl: string, pool?: pg.Pool) {
  if (providerOf(databaseUrl) === 'postgresql') return new PrismaPg(pool ?? { connectionString: databaseUrl });
  const file = sqliteFilePath(databaseUrl);
  // The folder of the database file is created on first start (issue #2: data/ by default).
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return new SqliteAdapterFactory(file, { timestampFormat: 'unixepoch-ms' });
}
