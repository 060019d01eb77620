// `include[]=` as well as `include=` (issue #12): Slate reads `$_GET['include']`, which PHP makes
// a list for `include[]=` keys, and JSON::translateObjects explodes only a string on commas.
// Also: the dynamic fields Slate has and we do not are ignored, as unknown names are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { includeParam } from '../../../rest-compat/campus/include.ts';
import { createSchool, type School } from './conventions-fixture.ts';

describe('includeParam (PHP $_GET["include"])', () => {
  const of = (qs: string) => includeParam(new URLSearchParams(qs));

  it('reads a string, a list, or nothing', () => {
    expect(of('')).toBeNull();
    expect(of('limit=5')).toBeNull();
    expect(of('include=Course,Term')).toBe('Course,Term');
    expect(of('include[]=Course&include[]=Term')).toEqual(['Course', 'Term']);
    // Percent-encoded brackets decode to the same key, as PHP decodes them.
    expect(of('include%5B%5D=Course&include%5B%5D=Term')).toEqual(['Course', 'Term']);
    // A list item is one name: commas are not split.
    expect(of('include[]=Course,Term')).toEqual(['Course,Term']);
  });

  it('follows parse_str: the last key wins, explicit indexes overwrite in place, [] goes after the largest', () => {
    expect(of('include=Course&include=Term')).toBe('Term');
    expect(of('include=Course&include[]=Term')).toEqual(['Term']);
    expect(of('include[]=Course&include=Term')).toBe('Term');
    expect(of('include[0]=Course&include[]=Term&include[0]=Location')).toEqual(['Location', 'Term']);
    expect(of('include[5]=Course&include[]=Term')).toEqual(['Course', 'Term']);
    expect(of('include[x]=Course&include[]=Term')).toEqual(['Course', 'Term']);
    // Other keys that merely start with "include" are other parameters.
    expect(of('includes=Course&include[a][b]=Term&included[]=Term')).toBeNull();
  });
});

describe('include[]= over HTTP', () => {
  let s: School;
  beforeAll(async () => {
    s = await createSchool();
  }, 60_000);
  afterAll(() => s.w.stop());
  const get = (path: string, token: string | null = s.staff) => s.w.campus('GET', path, { token });

  it('includes each listed name, dot paths nested, on a record and on a browse', async () => {
    const one = await get('/sections/MATH-001?include[]=Location.Parent&include[]=StudentsCount&include[]=recordURL', null);
    expect(one.json.data).toMatchObject({ Code: 'MATH-001', Location: { Title: 'Room 101', Parent: { Title: 'Campus' } }, StudentsCount: 1, recordURL: `/sections/${s.handles.math1}` });
    const list = await get('/groups?parentGroup=any&include[]=FullPath&include[]=Population');
    expect(list.json.data.map((g: any) => [g.FullPath, g.Population])).toEqual([
      ['School', 2],
      ['School/Clubs', 1],
      ['School/Clubs/Chess', 1],
      ['Staff Room', 0],
    ]);
    // Same answer as the comma-separated form.
    expect((await get('/groups?parentGroup=any&include=FullPath,Population')).json.data).toEqual(list.json.data);
  });

  it('reads a list item as one name, as Slate does, and lets the last include key win', async () => {
    const joined = await get('/sections/MATH-001?include[]=Course,Term');
    expect(joined.json.data).not.toHaveProperty('Course');
    expect(joined.json.data).not.toHaveProperty('Term');
    const last = await get('/sections/MATH-001?include=Course&include[]=Term');
    expect(last.json.data).toHaveProperty('Term.Handle', 'f2025');
    expect(last.json.data).not.toHaveProperty('Course');
  });

  it('works on the extra routes: members, students, participants', async () => {
    const members = await get('/groups/chess/members?include[]=groupIDs');
    expect(members.json.data).toEqual([expect.objectContaining({ ID: s.student.id, groupIDs: [s.ids.chess] })]);
    const students = await get('/sections/MATH-001/students?include[]=recordURL');
    expect(students.json.data).toEqual([expect.objectContaining({ ID: s.student.id, recordURL: `/people/${s.student.username}` })]);
    const participants = await get('/section-participants?course_section=MATH-001&role=Student&include[]=Person&include[]=Section');
    expect(participants.json.data).toEqual([expect.objectContaining({ Person: expect.objectContaining({ ID: s.student.id }), Section: expect.objectContaining({ Code: 'MATH-001' }) })]);
    const without = await get('/section-participants?course_section=MATH-001&role=Student');
    expect(without.json.data[0]).not.toHaveProperty('Person');
  });

  it('ignores the dynamic fields Slate has and we do not (Creator, Modifier, availableActions ...)', async () => {
    const plain = (await get('/sections/MATH-001')).json.data;
    // (Schedule is ours now: /schedules, Section.Schedule; a section has no Department of its own.)
    for (const name of ['Creator', 'Modifier', 'availableActions', 'validationErrors', 'PrimaryPhoto', 'Department']) {
      const res = await get(`/sections/MATH-001?include=${name}`);
      expect(res.status).toBe(200);
      expect(res.json.data).toEqual(plain);
      expect((await get(`/sections/MATH-001?include[]=${name}`)).json.data).toEqual(plain);
    }
    // (Wards and Guardians are ours now: test/rest-compat/campus/person-relationships.test.ts.)
    // (PrimaryPhoto and Photos are ours now: test/rest-compat/campus/media.test.ts.)
    const person = await get(`/people/${s.ids.teacher}?include=Creator,CurrentCourseSections`);
    expect(person.json.data).toEqual((await get(`/people/${s.ids.teacher}`)).json.data);
  });
});
