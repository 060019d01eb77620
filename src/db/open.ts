// Opening the database a server runs on: migrated first, then the Prisma client with its driver,
// tuned for a server, and (SQLite in a file) the background WAL checkpoints. Which database it is
// is decided here, in src/db/, and nowhere above.
import type { Logger } from 'pino';
import { openDb, tuneSqlite, type CreatedDb } from './client.ts';
import { migrate } from './migrate.ts';
import { sqliteFilePath } from './adapter.ts';
import { startCheckpointer } from './sqlite/checkpointer.ts';

export interface OpenedDatabase extends CreatedDb {
  /** Ends the checkpoints, the client and (PostgreSQL) the pool. */
  close(): Promise<void>;
}

export async function openDatabase(settings: { databaseUrl: string; pgPoolSize: number; pgQueryTimeoutMs: number }, log: Logger): Promise<OpenedDatabase> {
  await migrate(settings.databaseUrl);
  const opened = openDb(settings.databaseUrl, { poolSize: settings.pgPoolSize, queryTimeoutMs: settings.pgQueryTimeoutMs });
  const sqlite = opened.provider === 'sqlite';
  if (sqlite) await tuneSqlite(opened.db);
  const file = sqlite ? sqliteFilePath(settings.databaseUrl) : ':memory:';
  const checkpointer = file === ':memory:' ? null : startCheckpointer(file, log);
  return {
    ...opened,
    async close() {
      await checkpointer?.stop();
      await opened.db.$disconnect();
      await opened.pool?.end();
    },
  };
}
