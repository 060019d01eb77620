// Search qualifiers per kind (Slate's $searchConditions) as searchWhere turns `q` into a
// condition: bare words must all match, `mode:or` takes any, qualified words check their field,
// names resolve to records, and an unknown qualifier or an empty search is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../src/campus/kinds.ts';
import { searchWhere } from '../../src/campus/qualifiers.ts';
import type { Viewer } from '../../src/campus/auth.ts';
import { setPersonGroups, setSectionParticipant } from '../../src/campus/relationships.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { campusDeps, record, viewerAt } from '../helpers/campus.ts';

const w = useWorld();
let staff: Viewer;

beforeAll(async () => {
  // An Administrator: Staff may not make a Teacher (a level above their own).
  staff = await viewerAt(w, 'Administrator');
  const person = (FirstName: string, LastName: string, Username: string, extra: Record<string, unknown> = {}) =>
    record(w, staff, 'Person', { FirstName, LastName, Username, AccountLevel: 'Student', ...extra });
  await person('Ada', 'Lovelace', 'ada', { Gender: 'Female' });
  await person('Alan', 'Turing', 'aturing', { Gender: 'Male', AccountLevel: 'Teacher' });
  await person('Grace', 'Hopper', 'ghopper', { Gender: 'Female' });
  const school = await record(w, staff, 'Group', { Name: 'School' });
  const club = await record(w, staff, 'Group', { Name: 'Chess Club', ParentID: school.ID });
  await setPersonGroups(campusDeps(w), staff, 'ghopper', [club.ID]);
  const year = await record(w, staff, 'Term', { Title: 'Year 2026' });
  const fall = await record(w, staff, 'Term', { Title: 'Fall 2025', ParentID: year.ID });
  const math = await record(w, staff, 'Course', { Title: 'Algebra', Code: 'MATH-1' });
  const art = await record(w, staff, 'Course', { Title: 'Drawing', Code: 'ART-1' });
  const a = await record(w, staff, 'Section', { CourseID: math.ID, Title: 'Algebra A', Code: 'MATH-1-A', TermID: fall.ID });
  await record(w, staff, 'Section', { CourseID: art.ID, Title: 'Drawing A', Code: 'ART-1-A', TermID: year.ID });
  await setSectionParticipant(campusDeps(w), staff, a.ID, 'aturing', 'Teacher');
});

const people = async (q: string) => {
  const where = await searchWhere(campusDeps(w), KINDS.Person, q);
  return (await w.app.db.person.findMany({ where: { AND: [where, { Username: { in: ['ada', 'aturing', 'ghopper'] } }] }, orderBy: { Username: 'asc' } })).map((p) => p.Username);
};
const sections = async (q: string) => (await w.app.db.section.findMany({ where: await searchWhere(campusDeps(w), KINDS.Section, q), orderBy: { Code: 'asc' } })).map((s) => s.Code);

describe('people', () => {
  it('bare words must all match, in any searched field', async () => {
    expect(await people('ace')).toEqual(['ada', 'ghopper']);
    expect(await people('ada lovelace')).toEqual(['ada']);
    expect(await people('ada turing')).toEqual([]);
  });

  it('mode:or takes any word', async () => {
    expect(await people('mode:or ada turing')).toEqual(['ada', 'aturing']);
  });

  it('first:, last: and username: check only their field', async () => {
    expect(await people('first:ada')).toEqual(['ada']);
    expect(await people('last:ada')).toEqual([]);
    expect(await people('lastname:hopper')).toEqual(['ghopper']);
    expect(await people('username:turing')).toEqual(['aturing']);
  });

  it('gender: and level: match whole values, ignoring case; an unknown value matches nobody', async () => {
    expect(await people('gender:female')).toEqual(['ada', 'ghopper']);
    expect(await people('level:TEACHER')).toEqual(['aturing']);
    expect(await people('gender:fem')).toEqual([]);
  });

  it('group: members of the group and of every group inside it', async () => {
    expect(await people('group:school')).toEqual(['ghopper']);
    expect(await people('group:chess_club')).toEqual(['ghopper']);
    expect(await people('group:nowhere')).toEqual([]);
  });

  it('class: matches the classes a person row can have', async () => {
    expect(await people('class:user')).toEqual(['ada', 'aturing', 'ghopper']);
    expect(await people('class:course')).toEqual([]);
  });
});

describe('sections', () => {
  it('course:, teacher: and term: resolve names to records (term: with related terms)', async () => {
    expect(await sections('course:MATH-1')).toEqual(['MATH-1-A']);
    expect(await sections('teacher:aturing')).toEqual(['MATH-1-A']);
    expect(await sections('term:fall_2025')).toEqual(['ART-1-A', 'MATH-1-A']);
    expect(await sections('term:year_2026')).toEqual(['ART-1-A', 'MATH-1-A']);
  });

  it('id: takes a list of IDs; other text names nothing', async () => {
    const ids = (await w.app.db.section.findMany({ orderBy: { Code: 'asc' } })).map((s) => s.ID);
    expect(await sections(`id:${ids.join(',')}`)).toEqual(['ART-1-A', 'MATH-1-A']);
    expect(await sections('id:abc')).toEqual([]);
  });

  it('a qualifier of another kind is refused as Slate refuses it', async () => {
    await expect(searchWhere(campusDeps(w), KINDS.Section, 'first:ada')).rejects.toMatchObject({ code: 'VALIDATION', message: 'Unknown search qualifier: first' });
    await expect(searchWhere(campusDeps(w), KINDS.Course, 'teacher:aturing')).rejects.toMatchObject({ message: 'Unknown search qualifier: teacher' });
  });

  it('a search of no terms is "Query was empty"', async () => {
    await expect(searchWhere(campusDeps(w), KINDS.Section, '  ')).rejects.toMatchObject({ code: 'VALIDATION', message: 'Query was empty' });
    await expect(searchWhere(campusDeps(w), KINDS.Section, 'mode:or')).rejects.toMatchObject({ message: 'Query was empty' });
  });
});
