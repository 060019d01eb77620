import { PrismaClient } from '../generated/prisma/client.ts';
import { createAdapterFactory } from './adapter.ts';

export type Db = PrismaClient;

export function createDb(databaseUrl: string): Db {
  return new PrismaClient({ adapter: createAdapterFactory(databaseUrl) });
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
