// Bench databases, filled fast: the schema through the real migrations and a project through
// the domain, then checks inserted in bulk with better-sqlite3 (a million rows in seconds).
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { migrate } from '../../src/db/migrate.ts';
import { createDb } from '../../src/db/client.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';
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

/** Inserts `count` checks made by `shape(i)`; returns their UUIDs in order. */
export function seedChecks(databaseUrl: string, projectId: string, count: number, shape: (i: number) => SeededCheck = () => ({})): string[] {
  const db = new Database(sqliteFilePath(databaseUrl));
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    `INSERT INTO "Check" ("code", "uniqueKey", "badgeKey", "projectId", "name", "timeout", "grace", "status", "lastPing", "alertAfter", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const codes: string[] = [];
  const now = Date.now();
  const insertAll = db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const s = shape(i);
      const code = randomUUID();
      codes.push(code);
      insert.run(code, uniqueKeyFor(code), randomUUID(), projectId, `check ${i}`, s.timeout ?? 86400, s.grace ?? 3600, s.status ?? 'new', s.lastPing ?? null, s.alertAfter ?? null, now);
    }
  });
  insertAll();
  db.close();
  return codes;
}
