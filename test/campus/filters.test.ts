// Slate's browse filters as Prisma conditions: sections by term (related terms included), course,
// location and enrolled user; groups by parent or top level; posts by author; a name that
// names nothing is a 404 "<param> not found".
import { beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../src/campus/kinds.ts';
import { CURRENT, resolveFilters, type BrowseFilters } from '../../src/campus/filters.ts';
import type { CampusRecord } from '../../src/campus/lookup.ts';
import type { Viewer } from '../../src/campus/auth.ts';
import { setSectionParticipant } from '../../src/campus/relationships.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { anonymousViewer, campusDeps, record, viewerAt } from '../helpers/campus.ts';

const w = useWorld();
let staff: Viewer;
let student: Viewer;
const r: Record<string, CampusRecord> = {};

beforeAll(async () => {
  staff = await viewerAt(w, 'Staff');
  student = await viewerAt(w, 'Student');
  // The world's clock is 2026-01-05: Spring 2026 (inside Year 2026) is the current term.
  r.year = await record(w, staff, 'Term', { Title: 'Year 2026', StartDate: '2025-09-01', EndDate: '2026-06-30' });
  r.fall = await record(w, staff, 'Term', { Title: 'Fall 2025', ParentID: r.year.ID, StartDate: '2025-09-01', EndDate: '2025-12-20' });
  r.spring = await record(w, staff, 'Term', { Title: 'Spring 2026', ParentID: r.year.ID, StartDate: '2026-01-03', EndDate: '2026-06-30' });
  r.math = await record(w, staff, 'Course', { Title: 'Algebra', Code: 'MATH-1' });
  r.room = await record(w, staff, 'Location', { Title: 'Room 101' });
  r.a = await record(w, staff, 'Section', { CourseID: r.math.ID, Code: 'MATH-1-A', TermID: r.fall.ID, LocationID: r.room.ID });
  r.b = await record(w, staff, 'Section', { CourseID: r.math.ID, Code: 'MATH-1-B', TermID: r.spring.ID });
  r.c = await record(w, staff, 'Section', { CourseID: r.math.ID, Code: 'MATH-1-C', TermID: r.year.ID });
  await setSectionParticipant(campusDeps(w), staff, r.b.ID, student.personId!, 'Student');
  r.school = await record(w, staff, 'Group', { Name: 'School' });
  r.club = await record(w, staff, 'Group', { Name: 'Chess Club', ParentID: r.school.ID });
});

/** The codes of the sections `filters` select, sorted. */
async function sections(filters: BrowseFilters, viewer = staff) {
  const { where } = await resolveFilters(campusDeps(w), viewer, KINDS.Section, filters);
  return (await w.app.db.section.findMany({ where: { AND: where }, orderBy: { Code: 'asc' } })).map((s) => s.Code);
}

describe('section filters', () => {
  it('term: the term’s sections, those of the terms inside it and of the terms containing it', async () => {
    expect(await sections({ term: 'fall_2025' })).toEqual(['MATH-1-A', 'MATH-1-C']);
    expect(await sections({ term: String(r.year!.ID) })).toEqual(['MATH-1-A', 'MATH-1-B', 'MATH-1-C']);
  });

  it('term *current: the narrowest term covering today', async () => {
    const resolved = await resolveFilters(campusDeps(w), staff, KINDS.Section, { term: CURRENT });
    expect(resolved.objects.Term?.ID).toBe(r.spring!.ID);
    expect(resolved.conditions.TermID).toEqual({ values: expect.arrayContaining([r.spring!.ID, r.year!.ID]) });
    expect(await sections({ term: CURRENT })).toEqual(['MATH-1-B', 'MATH-1-C']);
  });

  it('course by Code, location by handle, echoed as conditions with the named records', async () => {
    const resolved = await resolveFilters(campusDeps(w), staff, KINDS.Section, { course: 'MATH-1', location: 'room_101' });
    expect(resolved.conditions).toEqual({ CourseID: r.math!.ID, LocationID: r.room!.ID });
    expect(Object.keys(resolved.objects).sort()).toEqual(['Course', 'Location']);
    expect(await sections({ course: 'MATH-1', location: 'room_101' })).toEqual(['MATH-1-A']);
  });

  it('a name that names nothing is "<param> not found"', async () => {
    for (const [f, message] of [[{ term: 'winter' }, 'term not found'], [{ course: 'ART-9' }, 'course not found'], [{ location: 'gym' }, 'location not found']] as const) {
      await expect(resolveFilters(campusDeps(w), staff, KINDS.Section, f)).rejects.toMatchObject({ code: 'NOT_FOUND', message });
    }
  });

  it('enrolled_user: one’s own sections; another’s only for Staff; a login is needed', async () => {
    expect(await sections({ enrolledUser: CURRENT }, student)).toEqual(['MATH-1-B']);
    expect(await sections({ enrolledUser: String(student.personId) }, staff)).toEqual(['MATH-1-B']);
    const other = await viewerAt(w, 'Student');
    await expect(resolveFilters(campusDeps(w), other, KINDS.Section, { enrolledUser: String(student.personId) })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'enrolled_user not found' });
    await expect(resolveFilters(campusDeps(w), anonymousViewer, KINDS.Section, { enrolledUser: CURRENT })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('group filters', () => {
  const groups = async (f: BrowseFilters) => {
    const { where, conditions } = await resolveFilters(campusDeps(w), staff, KINDS.Group, f);
    return { names: (await w.app.db.group.findMany({ where: { AND: where }, orderBy: { Name: 'asc' } })).map((g) => g.Name), conditions };
  };

  it('parentGroup by ID or handle; an unknown parent matches nothing', async () => {
    expect(await groups({ parentGroup: String(r.school!.ID) })).toEqual({ names: ['Chess Club'], conditions: { ParentID: r.school!.ID } });
    expect((await groups({ parentGroup: 'school' })).names).toEqual(['Chess Club']);
    expect(await groups({ parentGroup: 'no-such-group' })).toEqual({ names: [], conditions: { ParentID: null } });
  });

  it('topLevel: groups without a parent; query: names containing the text', async () => {
    expect((await groups({ topLevel: true })).names).toEqual(['School']);
    expect((await groups({ query: 'chess' })).names).toEqual(['Chess Club']);
    // No name holds NUL, and PostgreSQL would refuse to compare one: such a query finds nothing.
    expect((await groups({ query: 'chess\u0000' })).names).toEqual([]);
  });
});

describe('other kinds', () => {
  it('AuthorID compares as given: anything but an ID matches nobody', async () => {
    const author = await viewerAt(w, 'User');
    const post = await record(w, author, 'BlogPost', { Title: 'Hello' });
    const posts = async (author: string) => {
      const { where, conditions } = await resolveFilters(campusDeps(w), staff, KINDS.BlogPost, { author });
      return { ids: (await w.app.db.content.findMany({ where: { AND: where } })).map((c) => c.ID), conditions };
    };
    expect(await posts(String(author.personId))).toEqual({ ids: [post.ID], conditions: { AuthorID: author.personId } });
    expect(await posts('someone')).toEqual({ ids: [], conditions: { AuthorID: null } });
  });

  it('ignores filters of other kinds, as Slate ignores unknown parameters', async () => {
    expect(await resolveFilters(campusDeps(w), anonymousViewer, KINDS.Course, { term: 'nowhere', enrolledUser: CURRENT, parentGroup: 'x' })).toEqual({ where: [], conditions: {}, objects: {} });
  });

  it('activePeopleOnly leaves out Disabled people but keeps those without an account', async () => {
    const { where } = await resolveFilters(campusDeps(w), staff, KINDS.Person, { activePeopleOnly: true });
    const contact = await record(w, staff, 'Person', { FirstName: 'No', LastName: 'Account' });
    const gone = await record(w, staff, 'Person', { FirstName: 'Was', LastName: 'Here', Username: 'washere', AccountLevel: 'Disabled' });
    const ids = (await w.app.db.person.findMany({ where: { AND: where } })).map((p) => p.ID);
    expect(ids).toContain(contact.ID);
    expect(ids).not.toContain(gone.ID);
  });
});
