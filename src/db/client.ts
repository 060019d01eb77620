import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { PrismaClient as PostgresPrismaClient } from '../generated/prisma-pg/client.ts';
import Database from 'better-sqlite3';
import { createAdapterFactory, sqliteFilePath } from './adapter.ts';
import { gateAdapterFactory, type StatementListener } from './gated-adapter.ts';
import { providerOf, type Provider } from './provider.ts';
import type { DatabasePort } from './port.ts';
import { sqlitePort } from './sqlite/port.ts';
import { postgresPort } from './postgres/port.ts';
import { guardPool } from './postgres/connection-errors.ts';

/**
 * The Prisma client. Its type is the SQLite client's; on PostgreSQL it is the client generated
 * from the same models for PostgreSQL, with the same API (src/db/postgres/schema.ts).
 */
export type Db = PrismaClient;

export interface CreatedDb {
  db: Db;
  provider: Provider;
  /** PostgreSQL: the connection pool Prisma uses, for the hot paths' own SQL; SQLite: null. */
  pool: pg.Pool | null;
  /** Calls `listener` with the SQL of every statement this client sends; returns an unsubscribe. */
  onStatement(listener: StatementListener): () => void;
  /** SQLite: runs `work` on the driver's connection (better-sqlite3) with no Prisma statement between. */
  exclusive<T>(work: (connection: unknown, observe: StatementListener) => T): Promise<T>;
  /** Reports statements sent outside Prisma (the hot paths' own SQL) to the listeners. */
  observe: StatementListener;
  /** Error classification, savepoints and the health check, in this database's terms. */
  port: DatabasePort;
}

export interface OpenDbOptions {
  /** PostgreSQL: connections at most (config PG_POOL_SIZE); Prisma and the hot paths share them. */
  poolSize?: number;
  /** PostgreSQL: a statement unanswered this long fails (config PG_QUERY_TIMEOUT_MS). */
  queryTimeoutMs?: number;
}

export function openDb(databaseUrl: string, options: OpenDbOptions = {}): CreatedDb {
  const provider = providerOf(databaseUrl);
  if (provider === 'postgresql') {
    // A connection that dies, idle or checked out (server restart), must not crash the process.
    // A connection that cannot be made within 5 s fails (503 to the client) instead of waiting
    // for ever behind a database that accepts and never answers; so does a request waiting 5 s
    // for a free connection (the queue is bounded in time), and a statement unanswered for
    // queryTimeoutMs (a slow or stuck database frees the connection instead of holding it).
    const pool = guardPool(
      new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10, connectionTimeoutMillis: 5000, query_timeout: options.queryTimeoutMs ?? 30_000 }),
    );
    // PostgreSQL runs statements concurrently, one connection each: no gate, only counting.
    const adapter = gateAdapterFactory(createAdapterFactory(databaseUrl, pool), { serialize: false });
    const db = new PostgresPrismaClient({ adapter }) as unknown as Db;
    return {
      db,
      provider,
      pool,
      port: postgresPort(db),
      onStatement: (l) => adapter.onStatement(l),
      exclusive: () => Promise.reject(new Error('exclusive() is SQLite-only')),
      observe: (sql) => adapter.observe(sql),
    };
  }
  // better-sqlite3 builds SQLite with its default limit of 32,766 bind parameters; Prisma
  // assumes SQLite's old 999 and would split a 1,000-ping batch into twelve INSERTs.
  const file = sqliteFilePath(databaseUrl);
  const adapter = gateAdapterFactory(createAdapterFactory(databaseUrl), {
    maxBindValues: 32_766,
    // exclusive()'s fallback (gated-adapter.ts): a second connection can only share a file.
    openConnection: file === ':memory:' ? undefined : () => new Database(file, { timeout: 5000 }),
  });
  const db = new PrismaClient({ adapter });
  return {
    db,
    provider,
    pool: null,
    port: sqlitePort(db),
    onStatement: (l) => adapter.onStatement(l),
    exclusive: (w) => adapter.exclusive(w),
    observe: (sql) => adapter.observe(sql),
  };
}

export function createDb(databaseUrl: string): Db {
  return openDb(databaseUrl).db;
}

/**
 * For a process beside a running server (the CLI): on SQLite, wait up to 5 s for the server's
 * write to commit instead of failing at once; PostgreSQL runs writers side by side already.
 */
export async function waitForOtherWriters(opened: CreatedDb): Promise<void> {
  if (opened.provider === 'sqlite') await opened.db.$queryRawUnsafe('PRAGMA busy_timeout = 5000');
}

/**
 * SQLite settings for a server: WAL lets readers proceed while a write commits, and a busy
 * timeout makes a second process (the CLI, another instance) wait instead of failing.
 */
export async function tuneSqlite(db: Db): Promise<void> {
  await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await db.$queryRawUnsafe('PRAGMA busy_timeout = 5000');
  await db.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
  // A 64 MB page cache (the default is 2 MB): ping batches update checks all over the table.
  await db.$queryRawUnsafe('PRAGMA cache_size = -65536');
  // Checkpoints run on a worker thread (checkpointer.ts); here they would stall every request
  // for the fsync. The limit only matters if that worker stops.
  await db.$queryRawUnsafe('PRAGMA wal_autocheckpoint = 100000');
  // After a checkpoint the WAL is reused from its start; cut it back to 64 MB when it grew.
  await db.$queryRawUnsafe('PRAGMA journal_size_limit = 67108864');
}
