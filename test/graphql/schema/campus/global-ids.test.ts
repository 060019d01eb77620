// Campus arguments that name a record take the global `id` a query returned for it as well as
// Slate's ID (as an Int or a string of digits): `<kind>(id:)`, update/comment/delete<Kind>, the
// record arguments of the roster mutations (which also keep taking handles and usernames) and
// the `<field>Id` list filters. A global ID of another type, a malformed one, or one of a row
// that does not exist is answered exactly as a missing Slate ID is, and changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../../helpers/fixtures.ts';
import { campusGql, type GqlResult } from '../../../helpers/gql.ts';

const w = useWorld();
let staff: string;
let user: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});

type Result = GqlResult & { status: number; data?: any };
const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff) => campusGql(w, query, variables, token) as Promise<Result>;

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The data of a response that must have no errors. */
async function ok(query: string, variables: Record<string, unknown> = {}, token: string | null = staff) {
  const r = await q(query, variables, token);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data;
}

/** The one error of a response as [message, code]. */
const failure = (r: Result) => {
  expect(r.errors, JSON.stringify(r)).toHaveLength(1);
  return [r.errors![0]!.message, r.errors![0]!.extensions?.code];
};

/** A new record (`create<Kind>`): its Slate ID and its global id. */
async function create(kind: string, input: Record<string, unknown>, token = staff): Promise<{ databaseId: number; id: string }> {
  return (await ok(`mutation($i: ${kind}Input!) { r: create${kind}(input: $i) { databaseId id } }`, { i: input }, token)).r;
}

/**
 * Ids that name no course: another type's global id holding a course's own key (a term's, a
 * blog post's), ids of the right type with keys no row has or of the wrong shape, and strings
 * that are no global id at all (a course's handle included: `id` never takes a handle).
 */
const notACourse = (courseKey: number, handle: string) => [
  b64(`Term:${courseKey}`),
  b64(`BlogPost:${courseKey}`),
  b64('Course:999999'),
  b64('Course:0'),
  b64('Course:abc'),
  b64(`Course:${courseKey}:1`),
  b64('Course:99999999999'),
  'Course:1',
  'not a global id',
  '',
  '-1',
  handle,
];

describe('<kind>(id:)', () => {
  it('finds the record by its Slate ID (an Int or a string) and by its global id', async () => {
    const course = await create('Course', { title: 'Physics', code: 'PHY' });
    const read = 'query($id: ID) { course(id: $id) { id databaseId title } }';
    const expected = { id: course.id, databaseId: course.databaseId, title: 'Physics' };
    expect((await ok(read, { id: course.databaseId })).course).toEqual(expected);
    expect((await ok(read, { id: String(course.databaseId) })).course).toEqual(expected);
    expect((await ok(read, { id: course.id })).course).toEqual(expected);
    // The id a list returned works too, and so does an Int literal.
    const listed = (await ok('{ courses { nodes { id } } }')).courses.nodes.map((n: { id: string }) => n.id);
    expect(listed).toContain(course.id);
    expect((await ok(`{ course(id: ${course.databaseId}) { id } }`)).course).toEqual({ id: course.id });
  });

  it('answers another type’s id, a missing row’s and a malformed one as a missing Slate ID: null, no error', async () => {
    const course = await create('Course', { title: 'Chemistry', code: 'CHE' });
    await create('Term', { title: 'A term to collide with' });
    expect((await ok('{ course(handle: "chemistry") { id } }')).course).toEqual({ id: course.id });
    const read = 'query($id: ID) { course(id: $id) { title } }';
    expect(await q(read, { id: 999999 })).toMatchObject({ status: 200, data: { course: null } });
    for (const id of notACourse(course.databaseId, 'chemistry')) {
      const r = await q(read, { id });
      expect([r.errors, r.data], id).toEqual([undefined, { course: null }]);
    }
  });

  it('keeps each kind’s read rule: a Hidden record by its global id is refused as by its Slate ID', async () => {
    const hidden = await create('Course', { title: 'Secret', code: 'SEC', status: 'Hidden' });
    const read = 'query($id: ID) { course(id: $id) { title } }';
    const bySlateId = failure(await q(read, { id: hidden.databaseId }, null));
    expect(bySlateId).toEqual(['Login required', 'UNAUTHENTICATED']);
    expect(failure(await q(read, { id: hidden.id }, null))).toEqual(bySlateId);
    expect((await ok(read, { id: hidden.id })).course).toEqual({ title: 'Secret' });
  });

  it('tells blog posts from pages, which share a table and their keys', async () => {
    const post = await create('BlogPost', { title: 'A post' }, user);
    expect((await ok('query($id: ID) { blogPost(id: $id) { title } }', { id: post.id })).blogPost).toEqual({ title: 'A post' });
    expect((await ok('query($id: ID) { page(id: $id) { title } }', { id: post.id })).page).toBeNull();
    expect((await ok('query($id: ID) { page(id: $id) { title } }', { id: b64(`Page:${post.databaseId}`) })).page).toBeNull();
  });
});

describe('update, comment and delete', () => {
  it('take the global id and change the stored record; Slate’s ID keeps working', async () => {
    const course = await create('Course', { title: 'Biology', code: 'BIO' });
    const updated = await ok('mutation($id: ID!) { updateCourse(id: $id, input: { description: "Cells" }) { id description } }', { id: course.id });
    expect(updated.updateCourse).toEqual({ id: course.id, description: 'Cells' });
    expect(await w.app.db.course.findUnique({ where: { ID: course.databaseId } })).toMatchObject({ Description: 'Cells' });
    const renamed = await ok('mutation($id: ID!) { updateCourse(id: $id, input: { title: "Biology I" }) { title } }', { id: String(course.databaseId) });
    expect(renamed.updateCourse).toEqual({ title: 'Biology I' });
    const comment = await ok('mutation($id: ID!) { commentCourse(id: $id, message: "Lab on Friday") { message } }', { id: course.id });
    expect(comment.commentCourse).toEqual({ message: 'Lab on Friday' });
    expect(await w.app.db.comment.count({ where: { ContextClass: 'Slate\\Courses\\Course', ContextID: course.databaseId } })).toBe(1);
    expect((await ok('mutation($id: ID!) { deleteCourse(id: $id) { id databaseId } }', { id: course.id })).deleteCourse).toEqual(course);
    expect(await w.app.db.course.findUnique({ where: { ID: course.databaseId } })).toBeNull();
    expect(await w.app.db.comment.count({ where: { ContextID: course.databaseId, ContextClass: 'Slate\\Courses\\Course' } })).toBe(0);

    const term = await create('Term', { title: 'Fall' });
    expect((await ok('mutation($id: ID!) { updateTerm(id: $id, input: { title: "Autumn" }) { title } }', { id: term.id })).updateTerm).toEqual({ title: 'Autumn' });
    expect((await ok('mutation($id: ID!) { deleteTerm(id: $id) { databaseId } }', { id: term.databaseId })).deleteTerm).toEqual({ databaseId: term.databaseId });
  });

  it('answer another type’s id, a missing row’s and a malformed one as a missing Slate ID, and change nothing', async () => {
    const course = await create('Course', { title: 'Geology', code: 'GEO' });
    const ops = [
      'updateCourse(id: $id, input: { title: "Changed" }) { title }',
      'commentCourse(id: $id, message: "Hello") { message }',
      'deleteCourse(id: $id) { title }',
    ];
    const missing = failure(await q(`mutation($id: ID!) { ${ops[0]} }`, { id: 999999 }));
    expect(missing).toEqual(['Record not found', 'NOT_FOUND']);
    for (const id of notACourse(course.databaseId, 'geology')) {
      for (const op of ops) expect(failure(await q(`mutation($id: ID!) { ${op} }`, { id })), `${op} ${id}`).toEqual(missing);
    }
    expect(await w.app.db.course.findUnique({ where: { ID: course.databaseId } })).toMatchObject({ Title: 'Geology' });
    expect(await w.app.db.comment.count({ where: { ContextClass: 'Slate\\Courses\\Course', ContextID: course.databaseId } })).toBe(0);
  });

  it('check who may write before looking, as for a Slate ID', async () => {
    const course = await create('Course', { title: 'Music', code: 'MUS' });
    // Anonymous comments are refused before the record is looked up, whatever the id.
    const anonymous = failure(await q('mutation($id: ID!) { commentCourse(id: $id, message: "Hi") { message } }', { id: 999999 }, null));
    for (const id of [course.id, b64(`Term:${course.databaseId}`), 'garbage']) {
      expect(failure(await q('mutation($id: ID!) { commentCourse(id: $id, message: "Hi") { message } }', { id }, null))).toEqual(anonymous);
    }
    // A User may not edit courses: the same refusal by either key.
    const byNumber = failure(await q('mutation($id: ID!) { updateCourse(id: $id, input: { title: "X" }) { title } }', { id: course.databaseId }, user));
    expect(byNumber[1]).toBe('FORBIDDEN');
    expect(failure(await q('mutation($id: ID!) { updateCourse(id: $id, input: { title: "X" }) { title } }', { id: course.id }, user))).toEqual(byNumber);
    expect(await w.app.db.course.findUnique({ where: { ID: course.databaseId } })).toMatchObject({ Title: 'Music' });
  });
});

describe('roster arguments', () => {
  it('setSectionParticipant, removeSectionParticipant, setGroupMember and setPersonGroups take global ids, handles still', async () => {
    const course = await create('Course', { title: 'Drama', code: 'DRA' });
    const section = await create('Section', { courseId: course.databaseId, title: 'Drama 1' });
    const person = await create('Person', { firstName: 'Ada', lastName: 'Roster', username: 'aroster' });
    const group = await create('Group', { name: 'Chess Club' });
    const other = await create('Group', { name: 'Debate' });

    const enrolled = await ok('mutation($s: ID!, $p: ID!) { setSectionParticipant(section: $s, person: $p, role: Student) { role section { id } person { id } } }', { s: section.id, p: person.id });
    expect(enrolled.setSectionParticipant).toEqual({ role: 'Student', section: { id: section.id }, person: { id: person.id } });
    expect(await w.app.db.sectionParticipant.count({ where: { CourseSectionID: section.databaseId, PersonID: person.databaseId } })).toBe(1);
    expect((await ok('mutation($s: ID!, $p: ID!) { removeSectionParticipant(section: $s, person: $p) }', { s: section.id, p: 'aroster' })).removeSectionParticipant).toBe(true);
    expect(await w.app.db.sectionParticipant.count({ where: { CourseSectionID: section.databaseId } })).toBe(0);

    const member = await ok('mutation($g: ID!, $p: ID!) { setGroupMember(group: $g, person: $p, role: Owner) { role group { id } } }', { g: group.id, p: person.databaseId });
    expect(member.setGroupMember).toEqual({ role: 'Owner', group: { id: group.id } });
    const groups = await ok('mutation($p: ID!, $g: [ID!]!) { setPersonGroups(person: $p, groups: $g) }', { p: person.id, g: [other.id, group.databaseId] });
    expect([...groups.setPersonGroups].sort()).toEqual([group.databaseId, other.databaseId].sort());
    expect((await w.app.db.groupMember.findMany({ where: { PersonID: person.databaseId }, orderBy: { GroupID: 'asc' } })).map((m) => m.GroupID)).toEqual([group.databaseId, other.databaseId].sort());
  });

  it('answer another type’s id as a handle no record has: not found, naming what was sent, nothing changed', async () => {
    const course = await create('Course', { title: 'Art', code: 'ART' });
    const section = await create('Section', { courseId: course.databaseId, title: 'Art 1' });
    const person = await create('Person', { firstName: 'Bo', lastName: 'Roster', username: 'broster' });
    const enrol = 'mutation($s: ID!, $p: ID!) { setSectionParticipant(section: $s, person: $p, role: Student) { role } }';
    expect(failure(await q(enrol, { s: 'no-such-section', p: person.id }))).toEqual(['course section not found: no-such-section', 'NOT_FOUND']);
    for (const s of [course.id, b64('Section:abc'), person.id]) {
      expect(failure(await q(enrol, { s, p: person.id }))).toEqual([`course section not found: ${s}`, 'NOT_FOUND']);
    }
    expect(failure(await q(enrol, { s: section.id, p: section.id }))).toEqual([`person not found: ${section.id}`, 'NOT_FOUND']);
    const join = 'mutation($g: ID!, $p: ID!) { setGroupMember(group: $g, person: $p) { role } }';
    expect(failure(await q(join, { g: course.id, p: person.id }))).toEqual([`group not found: ${course.id}`, 'NOT_FOUND']);
    expect(await w.app.db.sectionParticipant.count({ where: { PersonID: person.databaseId } })).toBe(0);
    expect(await w.app.db.groupMember.count({ where: { PersonID: person.databaseId } })).toBe(0);
  });
});

describe('<field>Id list filters', () => {
  it('take the referenced record’s global id; another type’s or a malformed one matches nothing', async () => {
    const course = await create('Course', { title: 'History', code: 'HIS' });
    await create('Section', { courseId: course.databaseId, title: 'History 1' });
    await create('Section', { courseId: course.databaseId, title: 'History 2' });
    const list = 'query($c: ID) { sections(courseId: $c) { totalCount nodes { title } } }';
    const byNumber = (await ok(list, { c: course.databaseId })).sections;
    expect(byNumber.totalCount).toBe(2);
    expect((await ok(list, { c: course.id })).sections).toEqual(byNumber);
    expect((await ok(list, { c: String(course.databaseId) })).sections).toEqual(byNumber);
    expect((await ok(list, { c: 999999 })).sections).toEqual({ totalCount: 0, nodes: [] });
    for (const c of notACourse(course.databaseId, 'history')) expect((await ok(list, { c })).sections, c).toEqual({ totalCount: 0, nodes: [] });
  });
});
