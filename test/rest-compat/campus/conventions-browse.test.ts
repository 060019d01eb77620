// Slate's browse conventions over REST (issue #12): the handlers' filters, `include=` with dot
// paths and computed fields, search qualifiers, sort direction, the envelope's defaults and
// tree order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchool, type School } from './conventions-fixture.ts';

let s: School;
beforeAll(async () => {
  s = await createSchool();
}, 60_000);
afterAll(() => s.w.stop());

const get = (path: string, token: string | null = s.staff) => s.w.campus('GET', path, { token });
const codes = (res: { json: { data: Array<{ Code: string }> } }) => res.json.data.map((r) => r.Code).sort();

describe('browse filters', () => {
  it('/sections?term= takes a handle or ID and matches the terms containing and inside it', async () => {
    const byHandle = await get('/sections?term=f2025', null);
    expect(codes(byHandle)).toEqual(['ELA-001', 'MATH-001']);
    // Slate adds the term it resolved, and echoes the condition.
    expect(byHandle.json).toMatchObject({ Term: { ID: s.ids.f2025, Handle: 'f2025' }, conditions: { TermID: { values: expect.arrayContaining([s.ids.f2025, s.ids.y2025]) } } });
    expect(codes(await get(`/sections?term=${s.ids.f2025}`))).toEqual(['ELA-001', 'MATH-001']);
    // The year holds both its own section and its child term's.
    expect(codes(await get('/sections?term=y2025'))).toEqual(['ELA-001', 'MATH-001']);
    expect(codes(await get('/sections?term=s2026'))).toEqual(['MATH-002']);
  });

  it('/sections?term=*current is the narrowest term covering today (Slate: only the starred spelling)', async () => {
    const res = await get('/sections?term=*current', null);
    expect(res.json.Term.Handle).toBe('f2025');
    expect(codes(res)).toEqual(['ELA-001', 'MATH-001']);
    expect(await get('/sections?term=current')).toMatchObject({ status: 404, json: { success: false, message: 'term not found' } });
  });

  it('answers 404 "<param> not found" for a term, course or location that does not exist', async () => {
    for (const param of ['term', 'course', 'location', 'enrolled_user']) {
      const res = await get(`/sections?${param}=nope`);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ success: false, message: `${param} not found` });
    }
  });

  it('/sections?course= by code, handle or ID; location= by handle', async () => {
    expect(codes(await get('/sections?course=MATH'))).toEqual(['MATH-001', 'MATH-002']);
    expect(codes(await get(`/sections?course=${s.handles.math}`))).toEqual(['MATH-001', 'MATH-002']);
    const both = await get(`/sections?course=${s.ids.ela}&term=y2025`);
    expect(codes(both)).toEqual(['ELA-001']);
    expect(Object.keys(both.json)).toEqual(expect.arrayContaining(['Term', 'Course']));
    expect(codes(await get('/sections?location=room_101'))).toEqual(['MATH-001']);
    // Slate filters on the location itself, not the rooms inside it.
    expect(codes(await get('/sections?location=campus'))).toEqual([]);
  });

  it('/sections?enrolled_user= takes a username, an ID or *current; others see only their own', async () => {
    expect(await get('/sections?enrolled_user=*current', null)).toMatchObject({ status: 401, json: { loginRequired: true } });
    const mine = await get('/sections?enrolled_user=*current', s.student.token);
    expect(codes(mine)).toEqual(['MATH-001']);
    expect(mine.json.EnrolledUser).toMatchObject({ ID: s.student.id });
    expect(codes(await get(`/sections?enrolled_user=${s.student.username}`))).toEqual(['MATH-001']);
    expect(codes(await get(`/sections?enrolled_user=${s.ids.teacher}`))).toEqual(['MATH-001']);
    expect(await get(`/sections?enrolled_user=${s.student.username}`, s.other.token)).toMatchObject({ status: 404, json: { message: 'enrolled_user not found' } });
    expect(codes(await get(`/sections?enrolled_user=${s.other.id}`, s.other.token))).toEqual([]);
  });

  it('/blog?AuthorID= lists one author\'s posts; anything but an ID matches none', async () => {
    const res = await get(`/blog?AuthorID=${s.student.id}`, null);
    expect(res.json.data.map((p: { Title: string }) => p.Title)).toEqual(['Student post']);
    expect(res.json.conditions).toEqual({ AuthorID: s.student.id });
    expect((await get('/blog?AuthorID=abc')).json.total).toBe(0);
    // Slate's empty(): 0 is no filter.
    expect((await get('/blog?AuthorID=0')).json.total).toBe(2);
  });

  it('/groups lists top-level groups unless parentGroup names one or is any; query= matches names', async () => {
    const names = async (path: string) => (await get(path)).json.data.map((g: { Name: string }) => g.Name);
    expect(await names('/groups')).toEqual(['School', 'Staff Room']);
    expect(await names(`/groups?parentGroup=${s.ids.school}`)).toEqual(['Clubs']);
    expect(await names('/groups?parentGroup=clubs')).toEqual(['Chess']);
    expect(await names('/groups?parentGroup=any')).toEqual(['School', 'Clubs', 'Chess', 'Staff Room']);
    expect(await names('/groups?parentGroup=any&query=oo')).toEqual(['School', 'Staff Room']);
    expect(await names('/groups?query=che')).toEqual([]);
    expect(await names('/groups?parentGroup=any&query=che')).toEqual(['Chess']);
  });
});

describe('include=', () => {
  it('nests dot paths and adds computed fields', async () => {
    const res = await get('/sections/MATH-001?include=Location.Parent,Course,recordURL,recordTitle,StudentsCount,Teachers', null);
    expect(res.json.data).toMatchObject({
      Code: 'MATH-001',
      Location: { Title: 'Room 101', Parent: { Title: 'Campus' } },
      Course: { Code: 'MATH' },
      recordURL: `/sections/${s.handles.math1}`,
      // An untitled section is named for its course and teachers (Slate's getTitle).
      recordTitle: 'Algebra\u00a0· Teach',
      StudentsCount: 1,
      Teachers: [{ LastName: 'Teach' }],
    });
    const titled = await get('/sections?include=recordTitle,StudentsCount&course=ELA');
    expect(titled.json.data[0]).toMatchObject({ recordTitle: 'English A', StudentsCount: 0 });
  });

  it('loads a nested include once for records that share it', async () => {
    const res = await get('/sections?include=Course.Sections&course=MATH');
    expect(res.json.data.map((x: any) => x.Course.Sections.map((y: any) => y.Code))).toEqual([
      ['MATH-001', 'MATH-002'],
      ['MATH-001', 'MATH-002'],
    ]);
  });

  it('group FullPath and Population (members of the group and the groups inside it)', async () => {
    const res = await get('/groups?parentGroup=any&include=FullPath,Population,recordURL');
    const byName = Object.fromEntries(res.json.data.map((g: any) => [g.Name, g]));
    expect(byName.Chess).toMatchObject({ FullPath: 'School/Clubs/Chess', Population: 1, recordURL: '/groups/chess' });
    expect(byName.School).toMatchObject({ FullPath: 'School', Population: 2 });
    expect(byName['Staff Room'].Population).toBe(0);
  });

  it('person groupIDs and recordTitle; content tags; * includes every field at its level', async () => {
    const person = await get(`/people/${s.student.id}?include=groupIDs,recordTitle,recordURL`);
    expect(person.json.data).toMatchObject({ groupIDs: [s.ids.chess], recordTitle: `${s.student.username} (User)`, recordURL: `/people/${s.student.username}` });
    // The account level is Staff-only: others get the name.
    expect((await get(`/people/${s.student.id}?include=recordTitle`, s.other.token)).json.data.recordTitle).toBe('Service Account');
    const post = await get(`/blog/${s.handles.post1}?include=tags`, null);
    expect(post.json.data.tags.map((t: { Title: string }) => t.Title)).toEqual(['news', 'chess']);
    const room = await get('/locations/room_101?include=*');
    expect(room.json.data).toMatchObject({ Parent: { Title: 'Campus' }, recordURL: '/locations/room_101', recordTitle: 'Room 101' });
  });

  it('ignores names a kind does not declare, and cuts paths past five levels', async () => {
    const res = await get('/locations/room_101?include=Nope,__proto__,Parent.Parent.Parent.Parent.Parent.Parent.Parent');
    expect(res.status).toBe(200);
    expect(res.json.data).not.toHaveProperty('Nope');
    expect(res.json.data.Parent).toMatchObject({ Title: 'Campus', Parent: null });
  });
});

describe('search qualifiers in q', () => {
  const people = async (q: string) => {
    const res = await get(`/people?q=${encodeURIComponent(q)}`);
    expect(res.json.success, JSON.stringify(res.json)).toBe(true);
    expect(res.json.query).toBe(q);
    return res.json.data.map((p: { LastName: string; FirstName: string }) => `${p.FirstName} ${p.LastName}`).sort();
  };

  it('first:, last:, id:, group: on people; mode:or', async () => {
    expect(await people('first:tia')).toEqual(['Tia Teach']);
    expect(await people('last:teach')).toEqual(['Tia Teach']);
    // A term qualified to a field must be in that field.
    expect(await people('last:tia')).toEqual([]);
    expect(await people(`id:${s.ids.teacher},${s.student.id}`)).toEqual(['Service Account', 'Tia Teach']);
    // Members of the group and of the groups inside it.
    expect(await people('group:school')).toEqual(['Service Account', 'Tia Teach']);
    expect(await people('group:chess')).toEqual(['Service Account']);
    expect(await people('group:nope')).toEqual([]);
    expect(await people('first:tia mode:or last:nobody')).toEqual(['Tia Teach']);
    expect(await people('first:tia last:nobody')).toEqual([]);
  });

  it('title:, course:, teacher:, term: on sections; title: on content', async () => {
    const sections = async (q: string) => codes(await get(`/sections?q=${encodeURIComponent(q)}`));
    expect(await sections('title:english')).toEqual(['ELA-001']);
    expect(await sections('course:MATH')).toEqual(['MATH-001', 'MATH-002']);
    expect(await sections('teacher:tteach')).toEqual(['MATH-001']);
    expect(await sections('term:f2025')).toEqual(['ELA-001', 'MATH-001']);
    expect(await sections('code:ela')).toEqual(['ELA-001']);
    const posts = await get(`/blog?q=${encodeURIComponent('title:"Student post"')}`);
    expect(posts.json.data.map((p: { Title: string }) => p.Title)).toEqual(['Student post']);
  });

  it('answers an unknown qualifier with Slate\'s 200 and message', async () => {
    const res = await get('/people?q=x:1');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: false, message: 'Unknown search qualifier: x' });
    // Qualifiers are read case-insensitively, and reported lower-cased as Slate does.
    expect((await get('/sections?q=Nope:1')).json.message).toBe('Unknown search qualifier: nope');
    expect((await get('/sections?q=TITLE:english')).json.total).toBe(1);
  });

  it('keeps the bounds: 200 characters, 10 terms', async () => {
    expect((await get(`/people?q=${'a'.repeat(201)}`)).status).toBe(400);
    expect((await get(`/people?q=${encodeURIComponent(Array.from({ length: 11 }, (_, i) => `first:w${i}`).join(' '))}`)).status).toBe(400);
  });
});

describe('sort, dir and the envelope', () => {
  it('dir=desc in any case sorts descending; asc or none ascending', async () => {
    const order = async (dir: string) => (await get(`/courses?sort=Code${dir}`)).json.data.map((c: { Code: string }) => c.Code);
    expect(await order('&dir=desc')).toEqual(['MATH', 'ELA']);
    expect(await order('&dir=DESC')).toEqual(['MATH', 'ELA']);
    expect(await order('&dir=Desc')).toEqual(['MATH', 'ELA']);
    expect(await order('&dir=asc')).toEqual(['ELA', 'MATH']);
    expect(await order('')).toEqual(['ELA', 'MATH']);
  });

  it('prints limit and offset as Slate does: false when not given, the offset as given', async () => {
    expect((await get('/courses')).json).toMatchObject({ conditions: [], total: 2, limit: false, offset: false });
    // An offset without a limit is echoed but skips nothing (Slate applies it only with a limit).
    const offsetOnly = await get('/courses?offset=1');
    expect(offsetOnly.json).toMatchObject({ limit: false, offset: 1 });
    expect(offsetOnly.json.data).toHaveLength(2);
    expect((await get('/courses?limit=1')).json).toMatchObject({ limit: 1, offset: false });
  });

  it('lists terms, locations and groups in tree (pre-)order when no sort is given', async () => {
    const handles = async (path: string) => (await get(path)).json.data.map((r: { Handle: string }) => r.Handle);
    expect(await handles('/terms')).toEqual(['y2025', 'f2025', 'y2026', 's2026']);
    expect(await handles('/locations')).toEqual(['campus', 'room_101']);
    expect(await handles('/groups?parentGroup=any')).toEqual(['school', 'clubs', 'chess', 'staff_room']);
    // Paging follows the same order; an explicit sort replaces it.
    expect(await handles('/terms?limit=2&offset=1')).toEqual(['f2025', 'y2026']);
    expect(await handles('/terms?sort=Title')).toEqual(['f2025', 's2026', 'y2025', 'y2026']);
  });
});
