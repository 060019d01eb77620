import { beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { campusGql } from '../helpers/gql.ts';

const w = useWorld();
let staff: string;
let user: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff) => campusGql(w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;

describe('campus records over GraphQL', () => {
  it('creates, reads by handle, updates and deletes with the same rules as REST', async () => {
    const created = await q('mutation($i: CourseInput!) { createCourse(input: $i) { databaseId handle code status title } }', { i: { title: 'Physics', code: 'PHY' } });
    expect(created.data.createCourse).toMatchObject({ handle: 'physics', code: 'PHY', status: 'Live' });
    const id = created.data.createCourse.databaseId;
    expect((await q('{ course(handle: "physics") { databaseId title } }', {}, null)).data.course).toEqual({ databaseId: id, title: 'Physics' });
    const updated = await q('mutation($id: ID!) { updateCourse(id: $id, input: { description: "Forces" }) { description title modifierId } }', { id });
    expect(updated.data.updateCourse).toMatchObject({ description: 'Forces', title: 'Physics', modifierId: expect.any(Number) });
    expect((await q('mutation($id: ID!) { deleteCourse(id: $id) { databaseId } }', { id })).data.deleteCourse.databaseId).toBe(id);
    expect((await q('{ course(handle: "physics") { databaseId } }')).data.course).toBeNull();
    expect(await w.app.db.course.count({ where: { ID: id } })).toBe(0);
  });

  it('reports validation errors per field under extensions.validationErrors', async () => {
    const r = await q('mutation { createSection(input: { title: "No course" }) { databaseId } }');
    expect(r.errors![0]).toMatchObject({ message: 'Course must be selected', extensions: { code: 'BAD_USER_INPUT', validationErrors: { Course: 'Course must be selected' } } });
    const t = await q('mutation { createTerm(input: { title: "T", starDate: "2026-02-30" }) { databaseId } }');
    expect(t.errors![0]!.extensions.validationErrors).toEqual({ StarDate: 'Star Date is invalid.' });
  });

  it('applies the access rules: anonymous writers must log in, users cannot write courses', async () => {
    const anon = await q('mutation { createCourse(input: { title: "X", code: "X1" }) { databaseId } }', {}, null);
    expect(anon.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    const low = await q('mutation { createCourse(input: { title: "X", code: "X2" }) { databaseId } }', {}, user);
    expect(low.errors![0]).toMatchObject({ message: 'You do not have authorization to access this resource', extensions: { code: 'FORBIDDEN' } });
    const post = await q('mutation { createBlogPost(input: { title: "Hello" }) { handle author { firstName } } }', {}, user);
    expect(post.data.createBlogPost).toMatchObject({ handle: 'hello', author: { firstName: 'Service' } });
    expect((await q('{ terms { totalCount } }', {}, null)).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('logs in and manages participants and memberships', async () => {
    await q('mutation { createPerson(input: { firstName: "Gail", lastName: "Graph", username: "ggraph", password: "longpassword", accountLevel: "Staff" }) { databaseId } }');
    const session = await q('mutation { login(username: "ggraph", password: "longpassword") { token personId } }', {}, null);
    const token = session.data.login.token;
    const course = (await q('mutation { createCourse(input: { title: "Drama", code: "DRA" }) { databaseId } }', {}, token)).data.createCourse;
    const section = (await q('mutation($c: Int!) { createSection(input: { courseId: $c, title: "Drama 1" }) { handle code } }', { c: course.databaseId }, token)).data.createSection;
    expect(section.code).toBe('DRA-001');
    const set = await q('mutation($s: ID!) { setSectionParticipant(section: $s, person: "ggraph", role: Teacher) { role person { lastName } } }', { s: section.handle }, token);
    expect(set.data.setSectionParticipant).toEqual({ role: 'Teacher', person: { lastName: 'Graph' } });
    const read = await q('query($h: String) { section(handle: $h) { course { code } instructors { username } students { databaseId } } }', { h: section.handle }, token);
    expect(read.data.section).toEqual({ course: { code: 'DRA' }, instructors: [{ username: 'ggraph' }], students: [] });
    const group = (await q('mutation { createGroup(input: { name: "Drama Club" }) { handle } }', {}, token)).data.createGroup;
    await q('mutation($g: ID!) { setPersonGroups(person: "ggraph", groups: [$g]) }', { g: group.handle }, token);
    const me = await q('{ person(handle: "ggraph") { groups { name } groupMemberships { role } } }', {}, token);
    expect(me.data.person).toEqual({ groups: [{ name: 'Drama Club' }], groupMemberships: [{ role: 'Member' }] });
  });

  it('hides Staff-only person fields from other callers', async () => {
    await q('mutation { createPerson(input: { firstName: "Hana", lastName: "Hidden", username: "hhidden", birthDate: "2012-03-04" }) { databaseId } }');
    expect((await q('{ person(handle: "hhidden") { birthDate } }', {}, user)).data.person.birthDate).toBeNull();
    expect((await q('{ person(handle: "hhidden") { birthDate } }')).data.person.birthDate).toBe('2012-03-04');
  });
});

describe('campus relationships are batched', () => {
  it('runs the same SQL count for 2 and for 8 sections, people and posts', async () => {
    // Statement counts cover the query's plan only: the rate limiter's once-a-minute
    // credential check (src/http/limits.ts) is not part of it.
    const world = await createWorld({ RATE_LIMITS: 'off' });
    const statements: string[] = [];
    // Every statement the server's own client sends, on either database.
    const stop = world.app.onStatement((sql) => statements.push(sql));
    try {
      const token = (await world.campusToken('Staff')).token;
      const call = async (query: string, variables: Record<string, unknown> = {}) => {
        const res = await fetch(`${world.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Token ${token}` }, body: JSON.stringify({ query, variables }) });
        const json = (await res.json()) as { data?: any; errors?: unknown };
        if (json.errors) throw new Error(JSON.stringify(json.errors));
        return json.data;
      };
      const term = (await call('mutation { createTerm(input: { title: "Year" }) { databaseId } }')).createTerm.databaseId;
      const group = (await call('mutation { createGroup(input: { name: "All" }) { handle } }')).createGroup.handle;
      async function seed(n: number, tag: string) {
        const course = (await call('mutation($i: CourseInput!) { createCourse(input: $i) { databaseId } }', { i: { title: `Course ${tag}`, code: tag } })).createCourse.databaseId;
        for (let i = 0; i < n; i++) {
          const section = (await call('mutation($c: Int!, $t: Int!, $title: String!) { createSection(input: { courseId: $c, termId: $t, title: $title }) { handle } }', { c: course, t: term, title: `${tag} ${i}` })).createSection.handle;
          const person = (await call('mutation($f: String!) { createPerson(input: { firstName: $f, lastName: "Multi" }) { databaseId } }', { f: `${tag}x${i}` })).createPerson.databaseId;
          await call('mutation($s: ID!, $p: ID!) { setSectionParticipant(section: $s, person: $p, role: Teacher) { databaseId } }', { s: section, p: String(person) });
          await call('mutation($p: ID!, $g: ID!) { setPersonGroups(person: $p, groups: [$g]) }', { p: String(person), g: group });
          await call('mutation($a: String!) { createBlogPost(input: { title: $a }) { databaseId } }', { a: `${tag} post ${i}` });
        }
      }
      await seed(2, 'SMALL');
      await seed(8, 'LARGE');
      const nested = `query($q: String) {
        sections(q: $q) { nodes { code course { title } term { title } instructors { lastName } students { lastName } } }
        people(q: $q) { nodes { firstName groups { name } } }
        blogPosts(q: $q) { nodes { title author { firstName } } }
      }`;
      const count = async (tag: string) => {
        statements.length = 0;
        const data = await call(nested, { q: tag });
        return { n: statements.length, sections: data.sections.nodes.length, people: data.people.nodes.length, posts: data.blogPosts.nodes.length };
      };
      const small = await count('SMALL');
      const large = await count('LARGE');
      expect(small).toMatchObject({ sections: 2, people: 2, posts: 2 });
      expect(large).toMatchObject({ sections: 8, people: 8, posts: 8 });
      expect(large.n).toBe(small.n);
    } finally {
      stop();
      await world.stop();
    }
  });
});

describe('campus list filters', () => {
  it('filters sections by course through the typed codegen operation', async () => {
    const { print } = await import('graphql');
    const { SectionRosterDocument, CreateCourseDocument } = await import('../../src/generated/graphql/graphql.ts');
    const a = (await q(print(CreateCourseDocument), { input: { title: 'Filter A', code: 'FA' } })).data.createCourse;
    const b = (await q(print(CreateCourseDocument), { input: { title: 'Filter B', code: 'FB' } })).data.createCourse;
    for (const c of [a, a, b]) await q('mutation($c: Int!) { createSection(input: { courseId: $c }) { databaseId } }', { c: c.databaseId });
    const roster = await q(print(SectionRosterDocument), { courseId: a.databaseId, first: 10 }, null);
    expect(roster.data.sections.totalCount).toBe(2);
    expect(roster.data.sections.nodes.map((n: any) => n.code)).toEqual(['FA-001', 'FA-002']);
    expect(roster.data.sections.nodes[0].course.title).toBe('Filter A');
  });
});
