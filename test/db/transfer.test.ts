// `gateway export` / `gateway import`: every row of every model moves, byte for byte, from one
// database to another (SQLite to SQLite always; SQLite to PostgreSQL when TEST_DATABASE_URL is
// set), and the imported database serves on: keys work and new rows get new ids.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { runCli } from '../helpers/cli.ts';
import { testPostgresUrl } from '../helpers/postgres.ts';
import { openDb } from '../../src/db/client.ts';
import { transferModels } from '../../src/db/transfer.ts';
import { createDatabase, dropDatabase, withDatabase } from '../../src/db/postgres/admin.ts';

const w = useWorld();
let dir: string;
let dump: string;

// Each test runs the CLI (a process of 1-2 s) a few times; a loaded machine takes many times that.
const CLI_TEST_MS = 120_000;
const cli = (databaseUrl: string, args: string[]) => runCli({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }, args);

/** Every row of every model, in key order, with dates and bytes as comparable text. */
async function snapshot(databaseUrl: string): Promise<Record<string, unknown[]>> {
  const opened = openDb(databaseUrl);
  try {
    const out: Record<string, unknown[]> = {};
    for (const m of transferModels()) {
      const rows = await (opened.db as unknown as Record<string, { findMany(a: object): Promise<Record<string, unknown>[]> }>)[m.delegate]!.findMany({
        orderBy: m.key.map((k) => ({ [k]: 'asc' })),
      });
      out[m.name] = rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v])),
      );
    }
    return out;
  } finally {
    await opened.db.$disconnect();
    await opened.pool?.end();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-transfer-'));
  dump = path.join(dir, 'dump.jsonl');
  // Something in every corner: checks with pings (a body), a flip and its queued notification,
  // campus trees, memberships, tags and comments.
  const channel = await w.channel(w.alice, { kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
  const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', tags: 'nightly db', channels: channel.code } })).json;
  await w.ping(`/ping/${check.uuid}`, { method: 'POST', body: 'all good \u00e9\u0000\xff' });
  await w.ping(`/ping/${check.uuid}/fail`);
  const staff = await w.campusToken('Staff');
  const post = (p: string, fields: Record<string, unknown>) => w.campus('POST', p, { token: staff.token, fields, json: true });
  const parentTerm = (await post('/terms/create', { Title: 'Year 2026', StartDate: '2026-01-01', EndDate: '2026-12-31' })).json.data;
  await post('/terms/create', { Title: 'Spring 2026', ParentID: parentTerm.ID, StartDate: '2026-01-01', EndDate: '2026-06-30' });
  const campus = (await post('/locations/create', { Title: 'Main campus' })).json.data;
  const room = (await post('/locations/create', { Title: 'Room 101', ParentID: campus.ID })).json.data;
  const course = (await post('/courses/create', { Title: 'Algebra', Code: 'MATH-1' })).json.data;
  const section = (await post('/sections/create', { CourseID: course.ID, Title: 'Algebra A', Code: 'MATH-1-A', TermID: parentTerm.ID, LocationID: room.ID })).json.data;
  const student = (await post('/people/create', { FirstName: 'Ada', LastName: 'Lovelace', Username: 'ada', Email: 'ada@example.org' })).json.data;
  await post('/section-participants/create', { CourseSectionID: section.ID, PersonID: student.ID, Role: 'Student' });
  const school = (await post('/groups/create', { Name: 'School' })).json.data;
  await post('/groups/create', { Name: 'Class of 2030', ParentID: school.ID });
  await post(`/people/${student.ID}/edit`, { groupIDs: [school.ID] });
  const blog = (await post('/blog/create', { Title: 'Welcome', Visibility: 'Public', tags: ['news', 'school'] })).json.data;
  await post(`/blog/${blog.ID}/comment`, { Message: 'Nice!' });
}, 60_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

it('exports every model, and a copy imported into a new SQLite file is identical', async () => {
  const exported = await cli(w.databaseUrl, ['export', '--out', dump]);
  expect(exported.stderr).toMatch(/exported \d+ rows/);
  expect(exported.code).toBe(0);
  const source = await snapshot(w.databaseUrl);
  for (const model of ['Project', 'Check', 'Ping', 'Flip', 'Channel', 'CheckChannel', 'Notification', 'Person', 'Term', 'Location', 'Section', 'SectionParticipant', 'Group', 'GroupMember', 'Content', 'Tag', 'ContentTag', 'Comment', 'ContactPoint', 'CampusSession', 'Course']) {
    expect(source[model]?.length, model).toBeGreaterThan(0);
  }
  const copy = `file:${path.join(dir, 'copy.db')}`;
  const imported = await cli(copy, ['import', '--in', dump]);
  expect(imported.stdout).toMatch(/^imported \d+ rows: Project 2,/);
  expect(imported.code).toBe(0);
  expect(await snapshot(copy)).toEqual(source);
}, CLI_TEST_MS);

it('refuses a database that holds rows, a dump of another model and a file that is no dump', async () => {
  const again = await cli(w.databaseUrl, ['import', '--in', dump]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('import refused: the target database is not empty (Project has rows)');

  const empty = `file:${path.join(dir, 'empty.db')}`;
  const lines = readFileSync(dump, 'utf8').split('\n');
  const other = path.join(dir, 'other.jsonl');
  writeFileSync(other, [JSON.stringify({ ...JSON.parse(lines[0]!), model: '0000000000000000' }), ...lines.slice(1)].join('\n'));
  expect((await cli(empty, ['import', '--in', other])).stderr).toContain('import refused: the dump is of another version of the data model');
  writeFileSync(other, 'hello\n');
  expect((await cli(empty, ['import', '--in', other])).stderr).toContain('import refused: line 1: not JSON');
  writeFileSync(other, `${lines[0]}\n{"m":"Nope","r":{}}\n`);
  expect((await cli(empty, ['import', '--in', other])).stderr).toContain('import refused: line 2: not a row of a known model');
  // Nothing was loaded by the refused imports.
  expect((await snapshot(empty)).Project).toEqual([]);
}, CLI_TEST_MS);

const admin = testPostgresUrl();

describe.skipIf(!admin)(`into PostgreSQL${admin ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`, () => {
  // docs/operations.md, "Moving from SQLite to PostgreSQL": export, an empty database, import
  // (which creates the tables), start the gateway on it.
  it('moves every row into a new, empty database, and it serves: keys work, new rows get new ids', async () => {
    const name = `gateway_import_${randomBytes(4).toString('hex')}`;
    await createDatabase(admin!, name);
    const url = withDatabase(admin!, name);
    try {
      const imported = await cli(url, ['import', '--in', dump]);
      expect(imported.stderr + imported.stdout).toMatch(/^imported /);
      expect(imported.code).toBe(0);
      expect(await snapshot(url)).toEqual(await snapshot(w.databaseUrl));

      const served = await createWorld({ DATABASE_URL: url });
      try {
        const list = await served.api('GET', '/api/v3/checks/', { key: w.alice.api_key });
        expect(list.json.checks.map((c: { name: string }) => c.name)).toEqual(['backup']);
        const created = await served.api('POST', '/api/v3/checks/', { key: w.alice.api_key, body: { name: 'after the move' } });
        expect(created.status).toBe(201);
        const staff = await served.campusToken('Staff');
        const course = await served.campus('POST', '/courses/create', { token: staff.token, fields: { Title: 'Geometry', Code: 'MATH-2' } });
        expect(course.json.data.ID).toBeGreaterThan(1);
      } finally {
        await served.stop();
      }
    } finally {
      await dropDatabase(admin!, name);
    }
  }, CLI_TEST_MS);
});
