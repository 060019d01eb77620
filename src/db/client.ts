import { PrismaClient } from '../generated/prisma/client.ts';
import { createAdapterFactory } from './adapter.ts';
import { gateAdapterFactory, type StatementListener } from './gated-adapter.ts';

export type Db = PrismaClient;

export interface CreatedDb {
  db: Db;
  /** Calls `listener` with the SQL of every statement this client sends; returns an unsubscribe. */
  onStatement(listener: StatementListener): () => void;
}

export function openDb(databaseUrl: string): CreatedDb {
  // better-sqlite3 builds SQLite with its default limit of 32,766 bind parameters; Prisma
  // assumes SQLite's old 999 and would split a 1,000-ping batch into twelve INSERTs.
  const adapter = gateAdapterFactory(createAdapterFactory(databaseUrl), { maxBindValues: 32_766 });
  return { db: new PrismaClient({ adapter }), onStatement: (l) => adapter.onStatement(l) };
}

export function createDb(databaseUrl: string): Db {
  return openDb(databaseUrl).db;
}

/**
 * SQLite settings for a server: WAL lets readers proceed while a write commits, and a busy
 * timeout makes a second process (the CLI, another instance) wait instead of failing.
 */
export async function tuneSqlite(db: Db): Promise<void> {
  await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await db.$queryRawUnsafe('PRAGMA busy_timeout = 5000');
  await db.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
}
