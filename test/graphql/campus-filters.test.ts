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
    const posts = await q('query($a: Int) { blogPosts(authorId: $a) { nodes { title } } }', { a: s.student.id }, null);
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
    const all = await q('{ courses { totalCount nodes { id } } }');
    expect(all.data.courses.totalCount).toBe(1003);
    expect(all.data.courses.nodes).toHaveLength(1000);
    const rest = await q('{ courses(offset: 1000) { nodes { id } } }');
    expect(rest.data.courses.nodes).toHaveLength(3);
  });
});
