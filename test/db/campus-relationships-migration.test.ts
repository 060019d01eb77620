// The migration that made departments and schedules kinds of their own: a course's DepartmentID
// and a section's ScheduleID were stored as given before, pointing at nothing. Upgrading keeps
// every such id and gives it a record (titled by it), on SQLite and PostgreSQL, and new records
// are numbered after them. Rebuilding the tables on SQLite keeps their search triggers.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrationList } from '../../src/db/migrate.ts';
import { applyPostgresMigrations, applySqliteMigrations, type Migration } from '../../src/db/migration-applier.ts';
import { createDatabase, dropDatabase, withDatabase } from '../../src/db/postgres/admin.ts';
import { testPostgresUrl } from '../helpers/postgres.ts';

const MIGRATION = '_campus_relationships';
const split = async (provider: 'sqlite' | 'postgresql'): Promise<[Migration[], Migration[]]> => {
  const all = (await loadMigrationList(provider)).migrationDirectories.map((d) => ({ name: d.path, sql: d.migrationFile.content.value }));
  const at = all.findIndex((m) => m.name.endsWith(MIGRATION));
  expect(at).toBeGreaterThan(0);
  return [all.slice(0, at), all.slice(at)];
};
const BEFORE = [
  `INSERT INTO "Course" ("Title", "Handle", "Code", "DepartmentID") VALUES ('Algebra', 'algebra', 'ALG', 7), ('Geometry', 'geometry', 'GEO', 7), ('Art', 'art', 'ART', NULL)`,
  `INSERT INTO "Section" ("CourseID", "Handle", "Code", "ScheduleID") VALUES (1, 'alg-001', 'ALG-001', 3)`,
];
const AFTER = {
  departments: [{ ID: 7, Title: 'Department 7', Handle: 'department_7' }],
  schedules: [{ ID: 3, Title: 'Schedule 3', Handle: 'schedule_3' }],
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-campus-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('upgrading to departments and schedules', () => {
  it('on SQLite: each stored id becomes a record, nothing dangles, new ids follow', async () => {
    const [before, rest] = await split('sqlite');
    const file = path.join(dir, 'upgrade.sqlite');
    applySqliteMigrations(file, before);
    const db = new Database(file);
    try {
      for (const sql of BEFORE) db.exec(sql);
      db.close();
      applySqliteMigrations(file, [...before, ...rest]);
      const after = new Database(file);
      try {
        expect(after.prepare('SELECT "ID", "Title", "Handle" FROM "Department"').all()).toEqual(AFTER.departments);
        expect(after.prepare('SELECT "ID", "Title", "Handle" FROM "Schedule"').all()).toEqual(AFTER.schedules);
        expect(after.prepare('SELECT "Code", "DepartmentID" FROM "Course" ORDER BY "ID"').all()).toEqual([
          { Code: 'ALG', DepartmentID: 7 }, { Code: 'GEO', DepartmentID: 7 }, { Code: 'ART', DepartmentID: null },
        ]);
        expect(after.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
        // Course and Section were rebuilt: their search triggers still keep the index in step.
        after.prepare(`INSERT INTO "Course" ("Title", "Handle", "Code") VALUES ('Biology', 'biology', 'BIO')`).run();
        after.prepare(`UPDATE "Section" SET "Title" = 'Morning algebra' WHERE "ID" = 1`).run();
        const found = (word: string) => after.prepare(`SELECT "rowid" FROM "CampusSearch" WHERE "Body" MATCH ?`).all(`"${word}"`).length;
        expect([found('Algebra'), found('Biology'), found('Morning')]).toEqual([2, 1, 1]);
        after.prepare(`INSERT INTO "Department" ("Title", "Handle") VALUES ('Science', 'science')`).run();
        expect(after.prepare(`SELECT "ID" FROM "Department" WHERE "Handle" = 'science'`).get()).toEqual({ ID: 8 });
      } finally {
        after.close();
      }
    } finally {
      if (db.open) db.close();
    }
  });

  const admin = testPostgresUrl();
  it.skipIf(!admin)('on PostgreSQL: the same, and the sequences move past the kept ids (skipped without TEST_DATABASE_URL)', async () => {
    const [before, rest] = await split('postgresql');
    const name = `gateway_campus_migration_${Date.now()}`;
    await createDatabase(admin!, name);
    const client = new pg.Client({ connectionString: withDatabase(admin!, name) });
    await client.connect();
    try {
      await applyPostgresMigrations(client, before);
      for (const sql of BEFORE) await client.query(sql);
      await applyPostgresMigrations(client, rest);
      expect((await client.query('SELECT "ID", "Title", "Handle" FROM "Department"')).rows).toEqual(AFTER.departments);
      expect((await client.query('SELECT "ID", "Title", "Handle" FROM "Schedule"')).rows).toEqual(AFTER.schedules);
      const { rows } = await client.query(`INSERT INTO "Department" ("Title", "Handle") VALUES ('Science', 'science') RETURNING "ID"`);
      expect(rows).toEqual([{ ID: 8 }]);
      const schedule = await client.query(`INSERT INTO "Schedule" ("Title", "Handle") VALUES ('A block', 'ablock') RETURNING "ID"`);
      expect(schedule.rows).toEqual([{ ID: 4 }]);
    } finally {
      await client.end();
      await dropDatabase(admin!, name);
    }
  });
});
