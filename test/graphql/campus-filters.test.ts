// Slate's browse conventions over GraphQL (issue #12): the same domain filters as REST's as
// list arguments, the search qualifiers in `q`, tree order, the page cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusGql } from '../helpers/gql.ts';
import { createSchool, type School } from '../rest-compat/campus/conventions-fixture.ts';

let s: School;
beforeAll(async () => {
  s = await createSchool();
}, 60_000);
afterAll(() => s.w.stop());

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = s.staff) =>
  campusGql(s.w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;

const sectionCodes = async (args: string, token: string | null = s.staff) => {
  const r = await q(`{ sections(${args}) { totalCount nodes { code } } }`, {}, token);
  expect(r.errors).toBeUndefined();
  return r.data.sections.nodes.map((n: { code: string }) => n.code).sort();
};

describe('sections(term, course, location, enrolledUser)', () => {
  it('filters as REST does', async () => {
    expect(await sectionCodes('term: "f2025"', null)).toEqual(['ELA-001', 'MATH-001']);
    expect(await sectionCodes('term: "*current"', null)).toEqual(['ELA-001', 'MATH-001']);
    expect(await sectionCodes('term: "s2026"')).toEqual(['MATH-002']);
    expect(await sectionCodes('course: "MATH"')).toEqual(['MATH-001', 'MATH-002']);
    expect(await sectionCodes('course: "ELA", term: "y2025"')).toEqual(['ELA-001']);
    expect(await sectionCodes('location: "room_101"')).toEqual(['MATH-001']);
    expect(await sectionCodes('enrolledUser: "*current"', s.student.token)).toEqual(['MATH-001']);
    expect(await sectionCodes(`enrolledUser: "${s.student.username}"`)).toEqual(['MATH-001']);
  });

  it('answers NOT_FOUND for a name that resolves to nothing, and asks anonymous callers to log in for enrolledUser', async () => {
    const missing = await q('{ sections(term: "nope") { totalCount } }');
    expect(missing.errors![0]).toMatchObject({ message: 'term not found', extensions: { code: 'NOT_FOUND' } });
    expect((await q('{ sections(course: "nope") { totalCount } }')).errors![0]!.message).toBe('course not found');
    expect((await q('{ sections(enrolledUser: "*current") { totalCount } }', {}, null)).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect((await q(`{ sections(enrolledUser: "${s.student.username}") { totalCount } }`, {}, s.other.token)).errors![0]!.extensions.code).toBe('NOT_FOUND');
  });
});

describe('blogPosts(authorId) and groups(topLevel, parentId, query)', () => {
  it('filters posts by author and groups by place in the tree and name', async () => {
    const posts = await q('query($a: ID) { blogPosts(authorId: $a) { nodes { title } } }', { a: s.student.id }, null);
    expect(posts.data.blogPosts.nodes).toEqual([{ title: 'Student post' }]);
    const names = async (args: string) => (await q(`{ groups${args} { nodes { name } } }`)).data.groups.nodes.map((g: { name: string }) => g.name);
    // GraphQL lists every group unless asked for the top level (REST follows Slate's top-level default).
    expect(await names('')).toEqual(['School', 'Clubs', 'Chess', 'Staff Room']);
    expect(await names('(topLevel: true)')).toEqual(['School', 'Staff Room']);
    expect(await names(`(parentId: ${s.ids.clubs})`)).toEqual(['Chess']);
    expect(await names('(query: "oo")')).toEqual(['School', 'Staff Room']);
  });
});

describe('q with qualifiers', () => {
  it('reads first:, last:, group:, id: and mode:or; refuses an unknown qualifier', async () => {
    const people = async (search: string) => {
      const r = await q('query($q: String) { people(q: $q) { nodes { firstName } } }', { q: search });
      expect(r.errors).toBeUndefined();
      return r.data.people.nodes.map((p: { firstName: string }) => p.firstName).sort();
    };
    expect(await people('first:tia')).toEqual(['Tia']);
    expect(await people('last:teach')).toEqual(['Tia']);
    expect(await people('group:chess')).toEqual(['Service']);
    expect(await people(`id:${s.ids.teacher}`)).toEqual(['Tia']);
    expect(await people('first:tia mode:or first:service')).toHaveLength(4);
    const bad = await q('{ people(q: "x:1") { totalCount } }');
    expect(bad.errors![0]).toMatchObject({ message: 'Unknown search qualifier: x', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('order and page size', () => {
  it('lists terms in tree order without a sort, and never more than 1,000 records', async () => {
    const terms = await q('{ terms { nodes { handle } } }');
    expect(terms.data.terms.nodes.map((t: { handle: string }) => t.handle)).toEqual(['y2025', 'f2025', 'y2026', 's2026']);
    await s.w.app.db.course.createMany({ data: Array.from({ length: 1001 }, (_, i) => ({ Title: `Bulk ${i}`, Handle: `bulk_${i}`, Code: `B${i}` })) });
    const all = await q('{ courses { totalCount nodes { databaseId } } }');
    expect(all.data.courses.totalCount).toBe(1003);
    expect(all.data.courses.nodes).toHaveLength(1000);
    const rest = await q('{ courses(offset: 1000) { nodes { databaseId } } }');
    expect(rest.data.courses.nodes).toHaveLength(3);
  });
});

describe('sort and dir', () => {
  const codes = async (args: string) => {
    const r = await q(`{ sections(${args}) { nodes { code } } }`);
    expect(r.errors).toBeUndefined();
    return r.data.sections.nodes.map((n: { code: string }) => n.code);
  };

  it('sorts by a field in Slate spelling, ascending unless dir is DESC', async () => {
    expect(await codes('sort: "Code"')).toEqual(['ELA-001', 'MATH-001', 'MATH-002']);
    expect(await codes('sort: "Code", dir: ASC')).toEqual(['ELA-001', 'MATH-001', 'MATH-002']);
    expect(await codes('sort: "Code", dir: DESC')).toEqual(['MATH-002', 'MATH-001', 'ELA-001']);
    // Created in the order MATH-001, MATH-002, ELA-001.
    expect(await codes('sort: "ID", dir: DESC')).toEqual(['ELA-001', 'MATH-002', 'MATH-001']);
    const people = await q('{ people(sort: "FirstName", dir: DESC, first: 2) { totalCount nodes { firstName } } }');
    expect(people.data.people.nodes.map((p: { firstName: string }) => p.firstName)).toEqual(['Tia', 'Service']);
  });

  it('keeps the default order when only dir is given, and refuses an unknown field', async () => {
    expect(await codes('dir: DESC')).toEqual(['ELA-001', 'MATH-001', 'MATH-002']);
    const bad = await q('{ sections(sort: "Nope") { totalCount } }');
    expect(bad.errors![0]).toMatchObject({ message: 'Invalid sort field', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('lookups by code and email', () => {
  it('finds courses and sections by Code and people by an email address, as REST does', async () => {
    const r = await q(`{
      course(handle: "MATH") { code title }
      section(handle: "MATH-001") { handle code }
      titled: section(handle: "ELA-001") { title }
      person(handle: "tia@school.test") { username firstName }
    }`);
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      course: { code: 'MATH', title: 'Algebra' },
      section: { handle: s.handles.math1, code: 'MATH-001' },
      titled: { title: 'English A' },
      person: { username: 'tteach', firstName: 'Tia' },
    });
    // The same records REST serves at those paths.
    expect((await s.w.campus('GET', '/people/tia@school.test', { token: s.staff })).json.data.ID).toBe(s.ids.teacher);
    expect((await s.w.campus('GET', '/sections/MATH-001', { token: s.staff })).json.data.ID).toBe(s.ids.math1);
  });

  it('answers null for a code or email that names nothing', async () => {
    const r = await q('{ course(handle: "NOPE") { code } section(handle: "MATH-999") { code } person(handle: "nobody@school.test") { username } }');
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ course: null, section: null, person: null });
  });
});

describe('sections(location) naming nothing', () => {
  it('answers NOT_FOUND "location not found", as REST answers 404', async () => {
    const r = await q('{ sections(location: "nope") { totalCount } }');
    expect(r.errors![0]).toMatchObject({ message: 'location not found', extensions: { code: 'NOT_FOUND' } });
    expect(await s.w.campus('GET', '/sections?location=nope', { token: s.staff })).toMatchObject({ status: 404, json: { success: false, message: 'location not found' } });
  });
});

describe('q with title:', () => {
  it('matches the title only, on sections, courses, terms and posts', async () => {
    const list = async (field: string, search: string, pick: string) => {
      const r = await q(`query($q: String) { ${field}(q: $q) { nodes { ${pick} } } }`, { q: search });
      expect(r.errors).toBeUndefined();
      return r.data[field].nodes.map((n: Record<string, string>) => n[pick]).sort();
    };
    expect(await list('sections', 'title:english', 'code')).toEqual(['ELA-001']);
    // A bare term also matches codes; title: does not.
    expect(await list('sections', 'ela', 'code')).toEqual(['ELA-001']);
    expect(await list('sections', 'title:ela', 'code')).toEqual([]);
    expect(await list('courses', 'title:alg', 'code')).toEqual(['MATH']);
    expect(await list('courses', 'title:math', 'code')).toEqual([]);
    expect(await list('terms', 'title:fall', 'handle')).toEqual(['f2025']);
    expect(await list('blogPosts', 'title:"student post"', 'title')).toEqual(['Student post']);
  });
});

describe('tree order', () => {
  it('lists groups and locations in pre-order (Slate\'s Left), not creation order, unless sorted', async () => {
    const make = async (mutation: string, input: Record<string, unknown>) => {
      const r = await q(`mutation($i: ${mutation.replace('create', '')}Input!) { ${mutation}(input: $i) { handle } }`, { i: input });
      expect(r.errors).toBeUndefined();
      return r.data[mutation].handle as string;
    };
    // Created after Staff Room and after Room 101's sibling root, so ID order differs from tree order.
    await make('createGroup', { name: 'Debate', parentId: s.ids.clubs });
    await make('createLocation', { title: 'Annex' });
    await make('createLocation', { title: 'Room 102', parentId: s.ids.campus });
    const names = async (query: string, field: string, pick: string) => (await q(query)).data[field].nodes.map((n: Record<string, string>) => n[pick]);
    expect(await names('{ groups { nodes { name } } }', 'groups', 'name')).toEqual(['School', 'Clubs', 'Chess', 'Debate', 'Staff Room']);
    expect(await names('{ locations { nodes { title } } }', 'locations', 'title')).toEqual(['Campus', 'Room 101', 'Room 102', 'Annex']);
    expect(await names('{ groups(sort: "ID") { nodes { name } } }', 'groups', 'name')).toEqual(['School', 'Clubs', 'Chess', 'Staff Room', 'Debate']);
    expect(await names('{ locations(sort: "Title", dir: DESC) { nodes { title } } }', 'locations', 'title')).toEqual(['Room 102', 'Room 101', 'Campus', 'Annex']);
    // A page of the tree order, and the same order over REST.
    expect(await names('{ locations(first: 2, offset: 1) { nodes { title } } }', 'locations', 'title')).toEqual(['Room 101', 'Room 102']);
    const rest = await s.w.campus('GET', '/locations', { token: s.staff });
    expect(rest.json.data.map((l: { Title: string }) => l.Title)).toEqual(['Campus', 'Room 101', 'Room 102', 'Annex']);
  });
});
