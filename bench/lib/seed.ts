// Bench databases, filled fast: the schema through the real migrations and a project through
// the domain, then checks inserted in bulk, a million rows in seconds: with better-sqlite3 on
// SQLite, with multi-row INSERTs of arrays (`unnest`) through pg on PostgreSQL.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.ts';
import { createDb } from '../../src/db/client.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import { providerOf } from '../../src/db/provider.ts';
import { uniqueKeyFor } from '../../src/monitoring/checks/derived.ts';
import { createProject, type CreatedProject } from '../../src/monitoring/projects/service.ts';

export interface SeededCheck {
  /** Milliseconds since the epoch, or null. */
  alertAfter?: number | null;
  status?: string;
  lastPing?: number | null;
  timeout?: number;
  grace?: number;
}

export async function seedProject(databaseUrl: string): Promise<CreatedProject> {
  await migrate(databaseUrl);
  const db = createDb(databaseUrl);
  try {
    return await createProject(db, { name: 'bench' });
  } finally {
    await db.$disconnect();
  }
}

/** One seeded row, in the column order of INSERT_COLUMNS. */
function row(projectId: string, i: number, s: SeededCheck, now: number, name: string) {
  const code = randomUUID();
  return [code, uniqueKeyFor(code), randomUUID(), projectId, `${name}${i}`, s.timeout ?? 86400, s.grace ?? 3600, s.status ?? 'new', s.lastPing ?? null, s.alertAfter ?? null, now] as const;
}

const INSERT_COLUMNS = '"code", "uniqueKey", "badgeKey", "projectId", "name", "timeout", "grace", "status", "lastPing", "alertAfter", "createdAt"';

/** Inserts `count` checks made by `shape(i)`, named `<name><i>`; returns their UUIDs in order. */
export async function seedChecks(databaseUrl: string, projectId: string, count: number, shape: (i: number) => SeededCheck = () => ({}), name = 'check '): Promise<string[]> {
  return providerOf(databaseUrl) === 'postgresql' ? seedPostgres(databaseUrl, projectId, count, shape, name) : seedSqlite(databaseUrl, projectId, count, shape, name);
}

function seedSqlite(databaseUrl: string, projectId: string, count: number, shape: (i: number) => SeededCheck, name: string): string[] {
  const db = new Database(sqliteFilePath(databaseUrl));
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(`INSERT INTO "Check" (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const codes: string[] = [];
  const now = Date.now();
  const insertAll = db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const r = row(projectId, i, shape(i), now, name);
      codes.push(r[0]);
      insert.run(...r);
    }
  });
  insertAll();
  db.close();
  return codes;
}

// Timestamps go as ISO text: the columns are `timestamp without time zone` holding UTC.
const PG_INSERT = `INSERT INTO "Check" (${INSERT_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::timestamp[], $10::timestamp[], $11::timestamp[])`;
const PG_CHUNK = 20_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function seedPostgres(databaseUrl: string, projectId: string, count: number, shape: (i: number) => SeededCheck, name: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const codes: string[] = [];
  const now = Date.now();
  try {
    await client.query('BEGIN');
    // Each chunk is built while the server inserts the one before.
    let inserting: Promise<unknown> = Promise.resolve();
    for (let from = 0; from < count; from += PG_CHUNK) {
      const columns: unknown[][] = Array.from({ length: 11 }, () => []);
      for (let i = from; i < Math.min(count, from + PG_CHUNK); i++) {
        const r = row(projectId, i, shape(i), now, name);
        codes.push(r[0]);
        r.forEach((v, k) => columns[k]!.push(k >= 8 ? iso(v as number | null) : v));
      }
      await inserting;
      inserting = client.query(PG_INSERT, columns);
    }
    await inserting;
    await client.query('COMMIT');
    // After a large seed, the table as in a database that has lived a while: vacuumed (hint
    // bits and visibility map set), statistics fresh (the planner knows the alertAfter index is
    // selective), its pages written out. Otherwise autovacuum and a checkpoint do this during
    // the first seconds of the run, and the figures measure them. Small seeds skip it: it would
    // eat into the seconds before their checks go down.
    if (count >= 100_000) {
      await client.query('VACUUM (ANALYZE) "Check"');
      await client.query('CHECKPOINT').catch(() => undefined); // needs a superuser (pg_checkpoint on 15)
    }
  } finally {
    await client.end();
  }
  return codes;
}
