// Every table of a test world's database as a row count and a digest of all its rows, to prove
// that a request changed nothing (fuzz suite, fault tests). Read on a connection of its own,
// outside the app: it sees exactly what the app committed. Test databases hold at most a few
// thousand rows, so hashing them whole is cheap and catches any update, which counts and
// max(id) would miss.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import { providerOf } from '../../src/db/provider.ts';

export type Snapshot = Record<string, string>;

export interface Snapshotter {
  snapshot(): Promise<Snapshot>;
  close(): Promise<void>;
}

export async function openSnapshotter(databaseUrl: string): Promise<Snapshotter> {
  return providerOf(databaseUrl) === 'postgresql' ? postgresSnapshotter(databaseUrl) : sqliteSnapshotter(databaseUrl);
}

/** Tables whose digests differ between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
}

/** SQLite: a read-only connection to the file (WAL lets it read while the app writes). */
function sqliteSnapshotter(databaseUrl: string): Snapshotter {
  const db = new Database(sqliteFilePath(databaseUrl), { readonly: true, fileMustExist: true });
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_prisma%'").all() as Array<{ name: string }>).map(
    (t) => t.name,
  );
  const statements = tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`)] as const);
  return {
    async snapshot() {
      const out: Snapshot = {};
      for (const [t, stmt] of statements) {
        const hash = createHash('sha1');
        let rows = 0;
        for (const row of stmt.raw().iterate() as IterableIterator<unknown[]>) {
          rows++;
          for (const v of row) hash.update(Buffer.isBuffer(v) ? v : `${typeof v}:${String(v)}`).update('\u0000');
          hash.update('\n');
        }
        out[t] = `${rows} rows, ${hash.digest('hex')}`;
      }
      return out;
    },
    close: async () => void db.close(),
  };
}

/**
 * PostgreSQL: a client of its own. Rows are digested in the order of their text form, since an
 * update moves a row in the heap and `SELECT *` order would change with nothing else.
 */
async function postgresSnapshotter(databaseUrl: string): Promise<Snapshotter> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY 1",
  );
  const tables = rows.map((r) => r.name);
  const query = tables
    .map((t) => `SELECT ${client.escapeLiteral(t)} AS name, count(*)::int AS n, md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) AS h FROM "${t}" r`)
    .join(' UNION ALL ');
  return {
    async snapshot() {
      const out: Snapshot = {};
      if (!tables.length) return out;
      for (const r of (await client.query<{ name: string; n: number; h: string }>(query)).rows) out[r.name] = `${r.n} rows, ${r.h}`;
      return out;
    },
    close: () => client.end(),
  };
}

/**
 * Where stored text holds NUL, as "table.column" (each once). Only SQLite can store one; on
 * PostgreSQL the answer is always empty, since its text refuses NUL.
 */
export function textHoldingNul(databaseUrl: string): string[] {
  if (providerOf(databaseUrl) === 'postgresql') return [];
  const db = new Database(sqliteFilePath(databaseUrl), { readonly: true, fileMustExist: true });
  try {
    const found = new Set<string>();
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_prisma%'").all() as Array<{ name: string }>;
    for (const { name } of tables) {
      const stmt = db.prepare(`SELECT * FROM "${name}"`);
      const columns = stmt.columns().map((c) => c.name);
      for (const row of stmt.raw().iterate() as IterableIterator<unknown[]>) {
        row.forEach((v, i) => {
          if (typeof v === 'string' && v.includes('\u0000')) found.add(`${name}.${columns[i]}`);
        });
      }
    }
    return [...found];
  } finally {
    db.close();
  }
}
