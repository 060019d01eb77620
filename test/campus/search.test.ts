// Browse search (`?q=` and GraphQL `q:`) through the FTS5 trigram index: substring matching
// per word, every word required, case ignored, the input taken literally, and the index kept
// in step with writes by the migration's triggers.
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import { loadMigrationList } from '../../src/db/migrate.ts';
import { browseRecords } from '../../src/campus/service.ts';
import { KIND_LIST, KINDS } from '../../src/campus/kinds.ts';
import { hasSearchIndex, searchFields } from '../../src/campus/search.ts';
import { SEARCH_MAX_IDS } from '../../src/campus/limits.ts';
import { searchExpression } from '../../src/campus/postgres-search.ts';
import { postgresUnderTest } from '../helpers/postgres.ts';

const w = useWorld();
let staff: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  for (const [Title, Code] of [
    ['Algebra II', 'MATH2'],
    ['Algebra III', 'MATH3'],
    ['Linear Algebra', 'MATH5'],
    ['World History', 'HIST1'],
    ['Rock-n-Roll: 101 "Live" (OR) NEAR*', 'MUS1'],
    ['Discount 50% off_site', 'ECON1'],
  ]) {
    const res = await w.campus('POST', '/courses/create', { token: staff, fields: { Title, Code } });
    expect(res.json.success).toBe(true);
  }
});

const codes = async (q: string) => {
  const res = await w.campus('GET', `/courses?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  expect(res.json.success).toBe(true);
  return (res.json.data as Array<{ Code: string }>).map((c) => c.Code).sort();
};

describe('matching', () => {
  it('finds a word by its start or anywhere inside it (Slate: LIKE %word%)', async () => {
    expect(await codes('alg')).toEqual(['MATH2', 'MATH3', 'MATH5']);
    expect(await codes('gebr')).toEqual(['MATH2', 'MATH3', 'MATH5']);
    expect(await codes('istor')).toEqual(['HIST1']);
    // Code and Handle are searched too.
    expect(await codes('math3')).toEqual(['MATH3']);
    expect(await codes('linear_algebra')).toEqual(['MATH5']);
  });

  it('requires every word, in any field and any order', async () => {
    expect(await codes('alg iii')).toEqual(['MATH3']);
    expect(await codes('iii alg')).toEqual(['MATH3']);
    expect(await codes('algebra math5')).toEqual(['MATH5']);
    expect(await codes('algebra history')).toEqual([]);
  });

  it('ignores case', async () => {
    expect(await codes('ALGEBRA')).toEqual(['MATH2', 'MATH3', 'MATH5']);
    expect(await codes('aLgEbRa Ii')).toEqual(['MATH2', 'MATH3']);
    expect(await codes('hist1')).toEqual(['HIST1']);
  });

  it('matches words of one or two characters as substrings too (too short for the index)', async () => {
    expect(await codes('II')).toEqual(['MATH2', 'MATH3']);
    expect(await codes('3')).toEqual(['MATH3']);
    expect(await codes('Algebra 5')).toEqual(['MATH5']);
    expect(await codes('w y')).toEqual(['HIST1']);
  });

  it('does not match a word across two fields', async () => {
    // Title "World History" and Code "HIST1" are stored apart: "historyhist" is in neither.
    expect(await codes('historyhist')).toEqual([]);
  });
});

describe("Slate's search syntax (quotes, qualifiers); anything else is taken literally", () => {
  it.each([
    ['"', 'Query was empty'],
    ['""', 'Query was empty'],
    ["'", 'Query was empty'],
    [':', 'Query was empty'],
    // A qualifier without a term is dropped, as Slate drops it.
    ['Roll:', 'Query was empty'],
    ['\u0000', 'Query was empty'],
    ['nope:x', 'Unknown search qualifier: nope'],
  ])('%s answers Slate\'s 200 with success false', async (q, message) => {
    const res = await w.campus('GET', `/courses?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: false, message });
  });

  it('reads qualifiers and quotes', async () => {
    expect(await codes('Title:Algebra')).toEqual(['MATH2', 'MATH3', 'MATH5']);
    expect(await codes('title:"Algebra II"')).toEqual(['MATH2', 'MATH3']);
    expect(await codes('code:math title:algebra')).toEqual(['MATH2', 'MATH3', 'MATH5']);
    // A term qualified to one field is not found in another.
    expect(await codes('title:math3')).toEqual([]);
    expect(await codes('"World History"')).toEqual(['HIST1']);
    expect(await codes('"History World"')).toEqual([]);
  });

  it.each([
    ['"Live"', ['MUS1']],
    ['"Live', ['MUS1']],
    ['alg*', []],
    ['NEAR*', ['MUS1']],
    ['NEAR(', []],
    ['NEAR(alg', []],
    ['(OR)', ['MUS1']],
    ['Algebra OR History', []],
    ['alg OR', []],
    ['AND', []],
    ['NOT', []],
    ['-Roll', ['MUS1']],
    ['-', ['ECON1', 'MUS1']],
    ['^alg', []],
    ['{Title}', []],
    ['50%', ['ECON1']],
    ['%', ['ECON1']],
    ['_site', ['ECON1']],
    ['off_', ['ECON1']],
    ['f_s', ['ECON1']],
    ['\\', []],
    // NUL separates words.
    ['alg\u0000ebra', ['MATH2', 'MATH3', 'MATH5']],
    ['alg\u0000iii', ['MATH3']],
    ['😀 alg', []],
    ['Algebra\u0301', []],
  ])('%s', async (q, expected) => {
    expect(await codes(q)).toEqual(expected);
  });

  it('answers GraphQL searches with syntax characters without errors', async () => {
    const search = async (q: string) => {
      const res = await fetch(`${w.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: 'query($q: String) { courses(q: $q) { totalCount nodes { code } } }', variables: { q } }),
      });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body.errors).toBeUndefined();
      return body.data.courses;
    };
    expect(await search('NEAR* "Live" -Roll: (OR)')).toEqual({ totalCount: 1, nodes: [{ code: 'MUS1' }] });
    // A lone surrogate (valid JSON, not valid UTF-16) finds nothing rather than failing.
    expect(await search('\ud800alg')).toEqual({ totalCount: 0, nodes: [] });
  });
});

describe('the index follows writes', () => {
  it('finds a record by its new title after an edit, and no longer by the old one', async () => {
    const id = (await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Quantum Basics', Code: 'PHYS9' } })).json.data.ID;
    expect(await codes('quantum')).toEqual(['PHYS9']);
    const edit = await w.campus('POST', `/courses/${id}/edit`, { token: staff, fields: { Title: 'Relativity Basics', Code: 'PHYS10' } });
    expect(edit.json.success).toBe(true);
    expect(await codes('phys9')).toEqual([]);
    expect(await codes('relativ')).toEqual(['PHYS10']);
    // The handle stays as it was made (Slate keeps handles), so the old title's word still finds it.
    expect(await codes('quantum_basics')).toEqual(['PHYS10']);
    // A field the index does not cover changes nothing.
    await w.campus('POST', `/courses/${id}/edit`, { token: staff, fields: { Description: 'gravity' } });
    expect(await codes('gravity')).toEqual([]);
    expect(await codes('relativ basics')).toEqual(['PHYS10']);
  });

  it('forgets a deleted record', async () => {
    const id = (await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Ephemeral Studies', Code: 'TMP1' } })).json.data.ID;
    expect(await codes('ephemeral')).toEqual(['TMP1']);
    const del = await w.campus('POST', `/courses/${id}/delete`, { token: staff });
    expect(del.json.success).toBe(true);
    expect(await codes('ephemeral')).toEqual([]);
  });

  it('keeps each kind to its own rows, and blog posts apart from pages', async () => {
    await w.campus('POST', '/people/create', { token: staff, fields: { FirstName: 'Ada', LastName: 'Zyxwvut', Username: 'azyx' } });
    await w.campus('POST', '/groups/create', { token: staff, fields: { Name: 'Zyxwvut Club' } });
    await w.campus('POST', '/blog/create', { token: staff, fields: { Title: 'Zyxwvut news' } });
    await w.campus('POST', '/pages/create', { token: staff, fields: { Title: 'Zyxwvut page' } });
    const found = async (prefix: string, q: string) => (await w.campus('GET', `/${prefix}?q=${q}`, { token: staff })).json.total;
    expect([await found('people', 'zyxw'), await found('groups', 'zyxw'), await found('blog', 'zyxw'), await found('pages', 'zyxw'), await found('courses', 'zyxw')]).toEqual([1, 1, 1, 1, 0]);
    expect(await found('people', 'AZYX')).toBe(1);
    // An edit through a username changes the person's index entry.
    await w.campus('POST', '/people/azyx/edit', { token: staff, fields: { Username: 'adaz' } });
    expect([await found('people', 'azyx'), await found('people', 'adaz')]).toEqual([0, 1]);
  });

  it('still applies visibility: a hidden course is found by Staff only', async () => {
    await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Secret Seminar', Code: 'SEC1', Status: 'Hidden' } });
    expect(await codes('secret')).toEqual([]);
    expect((await w.campus('GET', '/courses?q=secret', { token: staff })).json.total).toBe(1);
  });
});

const onPostgres = !!postgresUnderTest();

describe.skipIf(onPostgres)(`the SQLite migration${onPostgres ? ' (skipped: this pass runs on PostgreSQL)' : ''}`, () => {
  it('indexes the rows that exist when it runs', async () => {
    const { migrationDirectories } = await loadMigrationList();
    const at = migrationDirectories.findIndex((m) => m.path.endsWith('_campus_search'));
    const db = new Database(':memory:');
    try {
      for (const m of migrationDirectories.slice(0, at)) db.exec(m.migrationFile.content.value);
      db.prepare(`INSERT INTO "Course" ("Title", "Handle", "Code") VALUES ('Old Algebra', 'old_algebra', 'OLD1')`).run();
      db.prepare(`INSERT INTO "Person" ("FirstName", "LastName", "Username") VALUES ('Grace', 'Hopper', NULL)`).run();
      for (const m of migrationDirectories.slice(at)) db.exec(m.migrationFile.content.value);
      const match = (q: string) => db.prepare('SELECT rowid FROM "CampusSearch" WHERE "CampusSearch" MATCH ?').all(q).map((r) => Number((r as { rowid: number }).rowid));
      expect(match('"lgebr"')).toEqual([3 * 2 ** 32 + 1]);
      expect(match('"HOPP"')).toEqual([1 * 2 ** 32 + 1]);
    } finally {
      db.close();
    }
  });

  it('keeps insert, update and delete triggers on every searched table (a table rebuild drops them)', () => {
    const db = new Database(sqliteFilePath(w.databaseUrl), { readonly: true });
    try {
      const triggers = db.prepare("SELECT tbl_name AS tbl, name, sql FROM sqlite_master WHERE type = 'trigger'").all() as Array<{ tbl: string; name: string; sql: string }>;
      const models = new Map(KIND_LIST.filter(hasSearchIndex).map((k) => [k.model, k]));
      for (const [model, kind] of models) {
        const table = model[0]!.toUpperCase() + model.slice(1);
        for (const event of ['insert', 'update', 'delete']) {
          const trigger = triggers.find((t) => t.tbl === table && t.name === `${table}_search_${event}`);
          expect(trigger, `${table}_search_${event}`).toBeDefined();
          // The index covers exactly the kind's searched fields.
          if (event !== 'delete') for (const field of searchFields(kind)) expect(trigger!.sql).toContain(`"${field}"`);
        }
      }
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!onPostgres)(`the PostgreSQL migration${onPostgres ? '' : ' (skipped: this pass runs on SQLite)'}`, () => {
  type Tx = { $queryRawUnsafe<T>(sql: string, ...params: unknown[]): Promise<T> };
  /** One connection for statements that depend on each other (temporary views, SET LOCAL). */
  const onOneConnection = <T,>(work: (tx: Tx) => Promise<T>) => (w.app.db as unknown as { $transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R> }).$transaction(work);

  it('answers every searched table from its trigram index (the search spells the indexed expression exactly)', async () => {
    const tables = new Map(KIND_LIST.filter(hasSearchIndex).map((k) => [k.model[0]!.toUpperCase() + k.model.slice(1), k]));
    for (const [table, kind] of tables) {
      // PostgreSQL uses an expression index only for the very expression it indexes.
      const plan = await onOneConnection(async (tx) => {
        await tx.$queryRawUnsafe('SET LOCAL enable_seqscan = off');
        return tx.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(
          `EXPLAIN SELECT "ID" FROM "${table}" WHERE ${searchExpression(searchFields(kind))} LIKE lower($1) ESCAPE '\\'`,
          '%lgebr%',
        );
      });
      expect(plan.map((r) => r['QUERY PLAN']).join('\n'), table).toContain(`${table}_search_trgm`);
      const [row] = await w.app.db.$queryRawUnsafe<Array<{ def: string }>>(`SELECT indexdef AS def FROM pg_indexes WHERE indexname = $1`, `${table}_search_trgm`);
      const def = row!.def;
      for (const field of searchFields(kind)) expect(def).toContain(`"${field}"`);
    }
  });
});

describe('5,000 courses', () => {
  it('answers a 10-word search from the index and a broad one by scanning, with the same rules', async () => {
    const world = await createWorld();
    try {
      const subjects = ['Algebra', 'Biology', 'Chemistry', 'Drama', 'English', 'French', 'Geometry', 'History', 'Italian', 'Journalism'];
      const data = Array.from({ length: 5000 }, (_, i) => ({
        Title: `${subjects[i % 10]} level ${Math.floor(i / 10)} section ${i % 7} term ${i % 3}`,
        Code: `C${String(i).padStart(4, '0')}`,
        Handle: `c${i}`,
        Status: i % 50 === 0 ? 'Hidden' : 'Live',
      }));
      await world.app.db.course.createMany({ data });
      const deps = world.app.services.campus;
      const anonymous = { level: null, personId: null } as never;
      const search = (q: string) => browseRecords(deps, anonymous, KINDS.Course, { q, limit: 20 });
      const ten = 'algebra level 12 section 1 term 0 c01 evel ection';
      const cases = { ten, narrow: 'geometry 42', broad: 'level', short: 'c0 1' };
      const timings: Record<string, number> = {};
      for (const [name, q] of Object.entries(cases)) {
        await search(q);
        const runs: number[] = [];
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          await search(q);
          runs.push(performance.now() - started);
        }
        timings[name] = Number(runs.sort((a, b) => a - b)[2]!.toFixed(2));
      }
      // Figures for docs/performance.md, not an assertion (machines differ).
      console.log('search over 5,000 courses, median ms:', JSON.stringify(timings));

      const expected = (q: string) =>
        data
          .filter((c) => c.Status === 'Live' && q.split(' ').every((word) => [c.Title, c.Code, c.Handle].some((f) => f.toLowerCase().includes(word.toLowerCase()))))
          .map((c) => c.Code)
          .sort();
      // Pages of at most 1,000 (a browse never returns more).
      const everything = async (q: string) => {
        const codes: unknown[] = [];
        for (let offset = 0; ; offset += 1000) {
          const page = await browseRecords(deps, anonymous, KINDS.Course, { q, limit: 1000, offset });
          codes.push(...page.records.map((r) => r.Code));
          expect(page.total).toBe(expected(q).length);
          if (page.records.length < 1000) return codes.sort();
        }
      };
      for (const q of Object.values(cases)) expect(await everything(q), q).toEqual(expected(q));
      const unpaged = await browseRecords(deps, anonymous, KINDS.Course, { q: 'level' });
      expect([unpaged.records.length, unpaged.limit]).toEqual([1000, 1000]);
      // "level" matches every course: more than the index hands over as IDs, so browse scans.
      expect(expected('level').length).toBeGreaterThan(SEARCH_MAX_IDS);
      expect(expected(ten).length).toBeGreaterThan(0);
      const page = await browseRecords(deps, anonymous, KINDS.Course, { q: 'geometry', limit: 3, offset: 2, sort: 'Code', dir: 'DESC' });
      expect(page.records.map((r) => r.Code)).toEqual(expected('geometry').reverse().slice(2, 5));
      expect(page.total).toBe(expected('geometry').length);
    } finally {
      await world.stop();
    }
  }, 60_000);
});
