import { beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
let staff: string;
let user: string;
let userId: number;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  const u = await w.campusToken('User');
  user = u.token;
  userId = u.person_id;
});

const create = (prefix: string, fields: Record<string, unknown>, token: string | null = staff) => w.campus('POST', `/${prefix}/create`, { token, fields });

describe('create, read and delete for every kind', () => {
  it.each([
    ['courses', { Title: 'Algebra I', Code: 'MATH' }, 'algebra_i'],
    ['terms', { Title: 'Fall 2026', StartDate: '2026-09-01', EndDate: '2026-12-20' }, 'fall_2026'],
    ['locations', { Title: 'Room 101' }, 'room_101'],
    ['groups', { Name: 'Example School' }, 'example_school'],
    ['blog', { Title: 'My First Post!' }, 'my_first_post'],
    ['pages', { Title: 'About Us', LayoutClass: 'OneColumn' }, 'about_us'],
  ])('%s: creates with a generated handle, reads by handle and ID, deletes', async (prefix, fields, handle) => {
    const created = await create(prefix, fields);
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ success: true, data: { Handle: handle } });
    const id = created.json.data.ID;
    expect(typeof created.json.data.Created).toBe('number');
    const byHandle = await w.campus('GET', `/${prefix}/${handle}`, { token: staff });
    expect(byHandle.json).toMatchObject({ success: true, data: { ID: id } });
    expect((await w.campus('GET', `/${prefix}/${id}`, { token: staff })).json.data.Handle).toBe(handle);
    const deleted = await w.campus('POST', `/${prefix}/${handle}/delete`, { token: staff });
    expect(deleted.json).toMatchObject({ success: true, data: { ID: id } });
    const gone = await w.campus('GET', `/${prefix}/${handle}`, { token: staff });
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ success: false, message: 'Record not found' });
  });

  it('people: created at /people/create, read and deleted by ID', async () => {
    const created = await create('people', { FirstName: 'Ada', LastName: 'Lovelace', Gender: 'Female', BirthDate: '1815-12-10' });
    expect(created.json).toMatchObject({ success: true, data: { FirstName: 'Ada', LastName: 'Lovelace', BirthDate: '1815-12-10', Class: 'Emergence\\People\\Person' } });
    const id = created.json.data.ID;
    expect((await w.campus('GET', `/people/${id}`)).json.data.LastName).toBe('Lovelace');
    expect((await w.campus('POST', `/people/${id}/delete`, { token: staff })).json.success).toBe(true);
    expect((await w.campus('GET', `/people/${id}`)).status).toBe(404);
  });

  it('sections: need a course, get a code from it, link term and location', async () => {
    const course = (await create('courses', { Title: 'Biology', Code: 'Bio 101' })).json.data;
    const term = (await create('terms', { Title: 'Spring' })).json.data;
    const missing = await create('sections', { Title: 'Bio A' });
    expect(missing.json).toMatchObject({ success: false, validationErrors: { Course: 'Course must be selected' } });
    const s1 = await create('sections', { CourseID: course.ID, TermID: term.ID, Title: 'Bio A' });
    expect(s1.json.data).toMatchObject({ Code: 'BIO_101-001', Handle: 'bio_a', TermID: term.ID, Status: 'Live' });
    const s2 = await create('sections', { CourseID: course.ID, Title: 'Bio A' });
    expect(s2.json.data).toMatchObject({ Code: 'BIO_101-002', Handle: 'bio_a-2' });
    const withIncludes = await w.campus('GET', `/sections/bio_a?include=Course,Term`);
    expect(withIncludes.json.data.Course).toMatchObject({ ID: course.ID, Code: 'Bio 101' });
    expect(withIncludes.json.data.Term).toMatchObject({ ID: term.ID, Title: 'Spring' });
  });

  it('sections: a blank Code on edit keeps the section its own, as a blank Handle does (was a 500: the column holds no null)', async () => {
    const course = (await create('courses', { Title: 'Stoichiometry', Code: 'STOI' })).json.data;
    const section = (await create('sections', { CourseID: course.ID, Title: 'Stoi A', Code: 'CUSTOM' })).json.data;
    for (const fields of [{ Code: '' }, { Code: '  ' }, { Code: null }, { Code: '', Title: 'Stoi B' }]) {
      const edited = await w.campus('POST', `/sections/${section.ID}/edit`, { token: staff, fields, json: true });
      expect(edited.status).toBe(200);
      expect(edited.json).toMatchObject({ success: true, data: { ID: section.ID, Code: 'CUSTOM' } });
    }
    expect((await w.app.db.section.findUniqueOrThrow({ where: { ID: section.ID } })).Title).toBe('Stoi B');
  });

  it('accepts JSON bodies as well as form fields', async () => {
    const created = await w.campus('POST', '/locations/create', { token: staff, json: true, fields: { Title: 'Gym', Description: 'Big' } });
    expect(created.json).toMatchObject({ success: true, data: { Title: 'Gym', Handle: 'gym', Description: 'Big' } });
  });
});

describe('validation', () => {
  it.each([
    ['people', { LastName: 'Lee' }, { FirstName: 'First name is required.' }],
    ['people', { FirstName: 'A', LastName: 'Lee' }, { FirstName: 'First name is required.' }],
    ['people', { FirstName: 'Ann', LastName: 'Lee', Gender: 'Other' }, { Gender: 'Gender is invalid.' }],
    ['people', { FirstName: 'Ann', LastName: 'Lee', BirthDate: '2001-02-30' }, { BirthDate: 'Birth Date is invalid.' }],
    ['courses', { Code: 'X' }, { Title: 'Title is missing.' }],
    ['courses', { Title: 'No code' }, { Code: 'Code is missing.' }],
    ['locations', {}, { Title: 'A title is required' }],
    ['groups', { Name: 'G', ParentID: 999999 }, { ParentID: 'Group 999999 does not exist.' }],
    ['terms', { Title: 'T', StarDate: 'soon' }, { StarDate: 'Star Date is invalid.' }],
    ['blog', { Title: 'Post', Status: 'Published' }, { Status: 'Status is invalid.' }],
    ['blog', { Title: 'Post', Handle: '123' }, { Handle: 'Handle can only contain letters, numbers, hyphens, and underscores' }],
    ['pages', { Title: 'Page', AuthorID: 999999 }, { AuthorID: 'Person 999999 does not exist.' }],
  ])('%s %j → %j, and nothing is stored', async (prefix, fields, errors) => {
    const res = await create(prefix, fields);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: false, validationErrors: errors });
  });

  it('refuses a duplicate handle and a duplicate course code', async () => {
    await create('terms', { Title: 'Unique', Handle: 'unique-term' });
    expect((await create('terms', { Title: 'Again', Handle: 'unique-term' })).json.validationErrors).toEqual({ Handle: 'Handle already registered' });
    await create('courses', { Title: 'C1', Code: 'DUP' });
    expect((await create('courses', { Title: 'C2', Code: 'DUP' })).json.validationErrors).toEqual({ Code: 'Code already registered' });
  });

  it('edits only the fields sent and validates them', async () => {
    const loc = (await create('locations', { Title: 'Lab' })).json.data;
    const edited = await w.campus('POST', `/locations/${loc.Handle}/edit`, { token: staff, fields: { Description: 'Science lab' } });
    expect(edited.json.data).toMatchObject({ Title: 'Lab', Description: 'Science lab', ModifierID: expect.any(Number) });
    const bad = await w.campus('POST', `/locations/${loc.Handle}/edit`, { token: staff, fields: { Title: '' } });
    expect(bad.json).toMatchObject({ success: false, validationErrors: { Title: 'A title is required' } });
    const self = await w.campus('POST', `/locations/${loc.Handle}/edit`, { token: staff, fields: { ParentID: loc.ID } });
    expect(self.json.validationErrors).toEqual({ ParentID: 'Location cannot be its own parent.' });
  });
});

describe('access', () => {
  it('asks anonymous writers to log in (401) and refuses users below Staff (403)', async () => {
    const anon = await create('courses', { Title: 'X', Code: 'ANON' }, null);
    expect(anon.status).toBe(401);
    expect(anon.json).toMatchObject({ success: false, loginRequired: true });
    const low = await create('courses', { Title: 'X', Code: 'LOW' }, user);
    expect(low.status).toBe(403);
    expect(low.json).toEqual({ success: false, message: 'You do not have authorization to access this resource' });
    expect((await w.campus('GET', '/courses/LOW')).status).toBe(404);
  });

  it('lets a User write blog posts, edit their own, but not others’', async () => {
    const mine = await create('blog', { Title: 'User post' }, user);
    expect(mine.json.data).toMatchObject({ AuthorID: userId, Status: 'Live', Published: expect.any(Number) });
    expect((await w.campus('POST', `/blog/${mine.json.data.Handle}/edit`, { token: user, fields: { Title: 'Edited' } })).json.success).toBe(true);
    const staffPost = (await create('blog', { Title: 'Staff post' })).json.data;
    expect((await w.campus('POST', `/blog/${staffPost.Handle}/edit`, { token: user, fields: { Title: 'Hijack' } })).status).toBe(403);
    expect((await create('pages', { Title: 'User page' }, user)).status).toBe(403);
  });

  it('shows anonymous callers only live, public content', async () => {
    const hidden = (await create('blog', { Title: 'Secret', Status: 'Hidden' })).json.data;
    const priv = (await create('blog', { Title: 'Members only', Visibility: 'Private' })).json.data;
    expect((await w.campus('GET', `/blog/${hidden.Handle}`)).status).toBe(401);
    expect((await w.campus('GET', `/blog/${hidden.Handle}`, { token: user })).status).toBe(403);
    expect((await w.campus('GET', `/blog/${hidden.Handle}`, { token: staff })).status).toBe(200);
    expect((await w.campus('GET', `/blog/${priv.Handle}`)).status).toBe(401);
    expect((await w.campus('GET', `/blog/${priv.Handle}`, { token: user })).status).toBe(200);
    const list = (await w.campus('GET', '/blog')).json.data.map((p: any) => p.Title);
    expect(list).not.toContain('Secret');
    expect(list).not.toContain('Members only');
  });

  it('applies Slate’s browse levels: terms and groups need Staff, people need a login', async () => {
    expect((await w.campus('GET', '/terms')).status).toBe(401);
    expect((await w.campus('GET', '/terms', { token: user })).status).toBe(403);
    expect((await w.campus('GET', '/terms', { token: staff })).status).toBe(200);
    expect((await w.campus('GET', '/groups', { token: user })).status).toBe(403);
    const people = await w.campus('GET', '/people', { token: user });
    expect(people.json.data.map((p: any) => p.ID)).toEqual([userId]);
    expect(people.json.data[0]).not.toHaveProperty('BirthDate', undefined);
    expect((await w.campus('GET', '/courses')).status).toBe(200);
  });

  it('hides Staff-only person fields from others', async () => {
    const p = (await create('people', { FirstName: 'Bob', LastName: 'Stone', BirthDate: '2010-01-01' })).json.data;
    expect((await w.campus('GET', `/people/${p.ID}`)).json.data).not.toHaveProperty('BirthDate');
    expect((await w.campus('GET', `/people/${p.ID}`, { token: staff })).json.data.BirthDate).toBe('2010-01-01');
  });

  it('treats an unknown session token as anonymous, as Slate does', async () => {
    const res = await w.campus('GET', '/courses', { token: 'f'.repeat(32) });
    expect(res.status).toBe(200);
    expect((await w.campus('GET', '/terms', { token: 'f'.repeat(32) })).status).toBe(401);
  });
});

describe('browse', () => {
  it('pages, sorts and searches', async () => {
    const world = await createWorld();
    try {
      const t = (await world.campusToken('Staff')).token;
      for (const code of ['C3', 'C1', 'C2']) await world.campus('POST', '/courses/create', { token: t, fields: { Title: `Course ${code}`, Code: code } });
      const all = await world.campus('GET', '/courses');
      expect(all.json).toMatchObject({ success: true, total: 3, limit: false, offset: false });
      expect(all.json.data.map((c: any) => c.Code)).toEqual(['C1', 'C2', 'C3']);
      const page = await world.campus('GET', '/courses?limit=1&offset=1&sort=Code&dir=DESC');
      expect(page.json).toMatchObject({ total: 3, limit: 1, offset: 1 });
      expect(page.json.data.map((c: any) => c.Code)).toEqual(['C2']);
      expect((await world.campus('GET', '/courses?q=C3')).json.data.map((c: any) => c.Code)).toEqual(['C3']);
      expect((await world.campus('GET', '/courses?sort=Nope')).json).toEqual({ success: false, message: 'Invalid sort field' });
    } finally {
      await world.stop();
    }
  });
});

describe('relationships and deletes', () => {
  it('cascades nested groups and memberships, refuses to orphan sections', async () => {
    const parent = (await create('groups', { Name: 'Parents' })).json.data;
    const child = (await create('groups', { Name: 'Child', ParentID: parent.ID })).json.data;
    const person = (await create('people', { FirstName: 'Gus', LastName: 'Grey', groupIDs: `${child.Handle}` })).json.data;
    const withGroups = await w.campus('GET', `/people/${person.ID}?include=Groups`, { token: staff });
    expect(withGroups.json.data.Groups.map((g: any) => g.Name)).toEqual(['Child']);
    await w.campus('POST', `/groups/${parent.Handle}/delete`, { token: staff });
    expect((await w.campus('GET', `/groups/${child.Handle}`, { token: staff })).status).toBe(404);
    expect(await w.app.db.groupMember.count({ where: { PersonID: person.ID } })).toBe(0);

    const course = (await create('courses', { Title: 'Chem', Code: 'CHEM' })).json.data;
    await create('sections', { CourseID: course.ID });
    const refused = await w.campus('POST', `/courses/${course.Handle}/delete`, { token: staff });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ success: false, message: 'Cannot delete this course: 1 course section still refer to it' });
    expect((await w.campus('GET', `/courses/${course.Handle}`)).status).toBe(200);
  });

  it('lists instructors and students of a section through participants', async () => {
    const course = (await create('courses', { Title: 'Art', Code: 'ART' })).json.data;
    const section = (await create('sections', { CourseID: course.ID, Title: 'Art 1' })).json.data;
    const teacher = (await create('people', { FirstName: 'Tia', LastName: 'Teach' })).json.data;
    const student = (await create('people', { FirstName: 'Sam', LastName: 'Study' })).json.data;
    for (const [p, role] of [[teacher, 'Teacher'], [student, 'Student']] as const) {
      const r = await w.campus('POST', '/section-participants/create', { token: staff, fields: { CourseSectionID: section.ID, PersonID: p.ID, Role: role } });
      expect(r.json).toMatchObject({ success: true, data: { Role: role } });
    }
    const bad = await w.campus('POST', '/section-participants/create', { token: staff, fields: { CourseSectionID: section.ID, PersonID: student.ID, Role: 'Boss' } });
    expect(bad.json.success).toBe(false);
    const got = await w.campus('GET', `/sections/${section.Handle}?include=Teachers,Students,Participants`);
    expect(got.json.data.Teachers.map((p: any) => p.LastName)).toEqual(['Teach']);
    expect(got.json.data.Students.map((p: any) => p.LastName)).toEqual(['Study']);
    expect(got.json.data.Participants).toHaveLength(2);
    // Deleting the person removes their participation too.
    await w.campus('POST', `/people/${student.ID}/delete`, { token: staff });
    expect(await w.app.db.sectionParticipant.count({ where: { CourseSectionID: section.ID } })).toBe(1);
  });

  it('blog posts link to a context record, which then cannot be deleted', async () => {
    const course = (await create('courses', { Title: 'Music', Code: 'MUS' })).json.data;
    const section = (await create('sections', { CourseID: course.ID })).json.data;
    const post = await create('blog', { Title: 'Section news', ContextClass: 'Slate\\Courses\\Section', ContextID: section.ID });
    expect(post.json.data).toMatchObject({ ContextClass: 'Slate\\Courses\\Section', ContextID: section.ID });
    const bad = await create('blog', { Title: 'Nowhere', ContextClass: 'Slate\\Courses\\Section', ContextID: 999999 });
    expect(bad.json.validationErrors).toEqual({ ContextID: 'Section 999999 does not exist.' });
    expect((await w.campus('POST', `/sections/${section.Handle}/delete`, { token: staff })).status).toBe(409);
  });
});

describe('batch save and destroy', () => {
  it('saves several records, reporting failures per record', async () => {
    const res = await w.campus('POST', '/locations/save', { token: staff, json: true, fields: { data: [{ Title: 'Hall' }, { Description: 'no title' }] } });
    expect(res.json).toMatchObject({ success: true, data: [{ Title: 'Hall' }], failed: [{ record: { Description: 'no title' }, validationErrors: { Title: 'A title is required' } }], message: 'A title is required' });
    const id = res.json.data[0].ID;
    const destroyed = await w.campus('POST', '/locations/destroy', { token: staff, json: true, fields: { data: [id, { ID: 999999 }] } });
    expect(destroyed.json).toMatchObject({ success: false, data: [{ ID: id }], failed: [{ record: { ID: 999999 }, errors: 'ID not found' }] });
    expect((await w.campus('POST', '/locations/save', { token: staff, json: true, fields: {} })).json).toEqual({ success: false, message: 'Save expects "data" field as array of record deltas' });
  });
});

describe('login', () => {
  it('logs in with Slate form fields and the token authenticates requests', async () => {
    await create('people', { FirstName: 'Lou', LastName: 'Login', Username: 'llogin', Password: 'correct horse', AccountLevel: 'Staff' });
    const bad = await w.campus('POST', '/login', { fields: { '_LOGIN[username]': 'llogin', '_LOGIN[password]': 'wrong' } });
    expect(bad.status).toBe(401);
    expect(bad.json.error).toBe('The username or password you entered was incorrect.');
    const ok = await w.campus('POST', '/login', { fields: { '_LOGIN[username]': 'llogin', '_LOGIN[password]': 'correct horse', '_LOGIN[returnMethod]': 'POST' } });
    expect(ok.json).toMatchObject({ success: true, data: { Class: 'UserSession', Handle: expect.stringMatching(/^[a-f][0-9a-f]{31}$/) } });
    const token = ok.json.data.Handle;
    expect((await w.campus('GET', '/terms', { token })).status).toBe(200);
    const row = await w.app.db.person.findUniqueOrThrow({ where: { Username: 'llogin' } });
    expect(row.PasswordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify((await w.campus('GET', `/people/${row.ID}`, { token })).json)).not.toContain('scrypt');
    await w.campus('POST', '/login/logout', { token });
    expect((await w.campus('GET', '/terms', { token })).status).toBe(401);
  });
});
