// Slate's routes and request conventions over REST (issue #12): the create and edit forms for
// a JSON client, members and students, the participants browse, GET /login, lookups by code
// and email, form arrays, /save's 400 and 404, unknown tokens, "Page not found", the page cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchool, type School } from './conventions-fixture.ts';

let s: School;
beforeAll(async () => {
  s = await createSchool();
}, 60_000);
afterAll(() => s.w.stop());

const call = (method: string, path: string, token: string | null = s.staff, fields?: Record<string, unknown>, json = false) => s.w.campus(method, path, { token, fields, json });
const raw = async (method: string, path: string, body?: string, token: string | null = s.staff) => {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (token) headers.Authorization = `Token ${token}`;
  const res = await fetch(s.w.url + path, { method, headers, body });
  return { status: res.status, json: await res.json().catch(() => undefined) };
};

describe('GET /create and GET /<h>/edit', () => {
  it('answers the empty record with defaults, success false, after the write check', async () => {
    const res = await call('GET', '/courses/create');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: false,
      data: { ID: null, Class: 'Slate\\Courses\\Course', Created: 'CURRENT_TIMESTAMP', CreatorID: null, RevisionID: null, Modified: null, ModifierID: null, Title: null, Handle: null, Code: null, Status: 'Live', Description: null, Prerequisites: null, DepartmentID: null },
    });
    expect((await call('GET', '/blog/create')).json.data).toMatchObject({ Visibility: 'Public', Status: 'Live' });
    expect((await call('GET', '/courses/create', null)).status).toBe(401);
    expect((await call('GET', '/courses/create', s.other.token)).status).toBe(403);
    // A User may write blog posts.
    expect((await call('GET', '/blog/create', s.other.token)).json.success).toBe(false);
    expect(await s.w.app.db.course.count()).toBe(2);
  });

  it('answers the record being edited, success false, for those who may edit it', async () => {
    const res = await call('GET', '/courses/MATH/edit?include=recordURL');
    expect(res.json).toMatchObject({ success: false, data: { Code: 'MATH', Title: 'Algebra', recordURL: `/courses/${s.handles.math}` } });
    expect((await call('GET', `/blog/${s.handles.post1}/edit`, s.student.token)).json.data.Title).toBe('Student post');
    expect((await call('GET', `/blog/${s.handles.post1}/edit`, s.other.token)).status).toBe(403);
    expect((await call('GET', '/courses/nope/edit')).status).toBe(404);
  });

  it('GET /<h>/delete checks write access before the confirmation', async () => {
    expect((await call('GET', '/courses/MATH/delete', s.other.token)).status).toBe(403);
    expect((await call('GET', '/courses/MATH/delete')).json.question).toBe('Are you sure you want to delete this course?');
  });
});

describe('members, students, participants', () => {
  it('/groups/<h>/members lists the people of the group and the groups inside it, with the group', async () => {
    const res = await call('GET', `/groups/school/members`, s.student.token);
    expect(res.json.success).toBe(true);
    expect(res.json.group).toMatchObject({ Handle: 'school' });
    expect(res.json.data.map((p: { ID: number }) => p.ID).sort()).toEqual([s.ids.teacher, s.student.id].sort());
    expect((await call('GET', '/groups/chess/members')).json.data.map((p: { ID: number }) => p.ID)).toEqual([s.student.id]);
    expect((await call('GET', '/groups/school/members', null)).status).toBe(401);
    expect((await call('GET', '/groups/nope/members')).status).toBe(404);
  });

  it('/sections/<h>/students: Staff or an enrolled student; past participations only with inactive=1', async () => {
    const res = await call('GET', '/sections/MATH-001/students');
    expect(res.json).toEqual({ data: [expect.objectContaining({ ID: s.student.id })] });
    expect((await call('GET', '/sections/MATH-001/students', s.student.token)).json.data).toHaveLength(1);
    expect(await call('GET', '/sections/MATH-001/students', s.other.token)).toMatchObject({ status: 403, json: { success: false, message: 'You do not have authorization to access this resource' } });
    expect((await call('GET', '/sections/MATH-001/students', null)).status).toBe(401);
    await s.w.app.db.sectionParticipant.updateMany({ where: { PersonID: s.student.id }, data: { EndDate: new Date('2025-12-31T00:00:00Z') } });
    try {
      expect((await call('GET', '/sections/MATH-001/students')).json.data).toEqual([]);
      expect((await call('GET', '/sections/MATH-001/students?inactive=1')).json.data).toHaveLength(1);
    } finally {
      await s.w.app.db.sectionParticipant.updateMany({ where: { PersonID: s.student.id }, data: { EndDate: null } });
    }
  });

  it('/section-participants browses participations (Staff), by section, term, student and role', async () => {
    const all = await call('GET', '/section-participants');
    expect(all.json).toMatchObject({ success: true, total: 2, limit: false, offset: false });
    const teachers = await call('GET', '/section-participants?course_section=MATH-001&role=Teacher&include=Person');
    expect(teachers.json.data).toEqual([expect.objectContaining({ Role: 'Teacher', PersonID: s.ids.teacher, Person: expect.objectContaining({ LastName: 'Teach' }) })]);
    expect((await call('GET', `/section-participants?student=${s.student.username}`)).json.total).toBe(1);
    expect((await call('GET', '/section-participants?term=y2025')).json.total).toBe(2);
    expect((await call('GET', '/section-participants?term=y2026')).json.total).toBe(0);
    expect(await call('GET', '/section-participants?course_section=nope')).toMatchObject({ status: 404, json: { message: 'course_section not found' } });
    expect((await call('GET', '/section-participants', s.student.token)).status).toBe(403);
  });
});

describe('login and tokens', () => {
  it('GET /login answers the session, or a login-required 401', async () => {
    const anon = await call('GET', '/login', null);
    expect(anon.status).toBe(401);
    expect(anon.json).toMatchObject({ success: false, loginRequired: true, requestContainer: '_LOGIN' });
    const mine = await call('GET', '/login', s.student.token);
    expect(mine.json).toMatchObject({ success: true, data: { Class: 'UserSession', Handle: s.student.token, PersonID: s.student.id, Created: expect.any(Number) } });
  });

  it('treats an unknown token as anonymous: public reads work, writes ask for a login', async () => {
    const bogus = 'a'.repeat(32);
    expect((await call('GET', '/courses', bogus)).status).toBe(200);
    expect(await call('POST', '/courses/create', bogus, { Title: 'X', Code: 'X' })).toMatchObject({ status: 401, json: { loginRequired: true } });
    expect((await call('GET', '/login', bogus)).status).toBe(401);
  });

  it('logs in with the nested _LOGIN form fields', async () => {
    await call('POST', '/people/create', s.staff, { FirstName: 'Lee', LastName: 'Login', Username: 'llee', Password: 'long enough' });
    const ok = await call('POST', '/login', null, { '_LOGIN[username]': 'llee', '_LOGIN[password]': 'long enough', '_LOGIN[returnMethod]': 'POST' });
    expect(ok.json.success).toBe(true);
  });

  it('logs in with an email address as the username, as User::getByUsername allows', async () => {
    await call('POST', '/people/create', s.staff, { FirstName: 'Em', LastName: 'Mail', Username: 'emmail', Password: 'long enough', Email: 'em@school.test' });
    const ok = await call('POST', '/login', null, { '_LOGIN[username]': 'em@school.test', '_LOGIN[password]': 'long enough', '_LOGIN[returnMethod]': 'POST' });
    expect(ok.status).toBe(200);
    const person = await s.w.app.db.person.findFirstOrThrow({ where: { Username: 'emmail' } });
    expect(ok.json).toMatchObject({ success: true, data: { PersonID: person.ID } });
    expect((await call('GET', '/login', ok.json.data.Handle)).json.data.PersonID).toBe(person.ID);
    // The GraphQL login is the same login.
    const gql = await fetch(s.w.url + '/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { login(username: "em@school.test", password: "long enough") { personId } }' }),
    });
    expect((await gql.json()).data).toEqual({ login: { personId: person.ID } });
    // The password still has to match, and an unknown address is an unknown name.
    for (const [username, password] of [['em@school.test', 'wrong password'], ['nobody@school.test', 'long enough']]) {
      const denied = await call('POST', '/login', null, { '_LOGIN[username]': username, '_LOGIN[password]': password });
      expect(denied).toMatchObject({ status: 401, json: { error: 'The username or password you entered was incorrect.' } });
    }
  });

  it('takes the token from a POSTed form field _session, after the header and before ?_session=', async () => {
    const before = await s.w.app.db.course.count();
    const viaForm = await raw('POST', '/courses/create', `_session=${s.staff}&Title=Posted+token&Code=PT1`, null);
    expect(viaForm).toMatchObject({ status: 200, json: { success: true, data: { Code: 'PT1' } } });
    // A bad token in the form wins over a good one in the query string (Slate's order).
    const formFirst = await raw('POST', `/courses/create?_session=${s.staff}`, `_session=${'b'.repeat(32)}&Title=Nope&Code=PT2`, null);
    expect(formFirst).toMatchObject({ status: 401, json: { loginRequired: true } });
    // The header wins over both.
    const headerFirst = await raw('POST', '/courses/create', `_session=${'b'.repeat(32)}&Title=Header+token&Code=PT3`, s.staff);
    expect(headerFirst.json.data.Code).toBe('PT3');
    // A JSON body's _session is not a form field (PHP's $_POST holds forms only).
    const json = await fetch(s.w.url + '/courses/create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ _session: s.staff, Title: 'JSON', Code: 'PT4' }) });
    expect(json.status).toBe(401);
    expect(await s.w.app.db.course.count()).toBe(before + 2);
  });
});

describe('/save and /destroy items the caller may not write', () => {
  it('fail with "Write access denied" (Slate), and nothing changes', async () => {
    const before = await s.w.app.db.course.findMany({ orderBy: { ID: 'asc' } });
    const save = await call('POST', '/courses/save', s.other.token, { data: [{ Title: 'Not mine', Code: 'NM1' }, { ID: s.ids.math, Title: 'Renamed' }] }, true);
    expect(save.json).toEqual({
      success: false,
      data: [],
      failed: [
        { record: { Title: 'Not mine', Code: 'NM1' }, errors: 'Write access denied' },
        { record: { ID: s.ids.math, Title: 'Renamed' }, errors: 'Write access denied' },
      ],
      message: 'Write access denied',
    });
    const destroy = await call('POST', '/courses/destroy', s.other.token, { data: [s.ids.math] }, true);
    expect(destroy.json).toEqual({ success: false, data: [], failed: [{ record: s.ids.math, errors: 'Write access denied' }] });
    expect(await s.w.app.db.course.findMany({ orderBy: { ID: 'asc' } })).toEqual(before);
  });
});

describe('Disabled people', () => {
  it('answer 404 "profile not found" on their own routes and leave the browse unless status=*', async () => {
    const made = await call('POST', '/people/create', s.staff, { FirstName: 'Dee', LastName: 'Gone', Username: 'dgone', AccountLevel: 'Disabled' });
    const id = made.json.data.ID as number;
    const profileNotFound = { status: 404, json: { success: false, message: 'profile not found' } };
    for (const path of ['/people/dgone', `/people/${id}`, '/people/json/dgone', '/people/dgone/edit', '/people/dgone/delete', '/people/dgone/comment', '/people/dgone/courses']) {
      expect(await call('GET', path), path).toMatchObject(profileNotFound);
    }
    expect(await call('POST', '/people/dgone/edit', s.staff, { FirstName: 'Changed' })).toMatchObject(profileNotFound);
    expect(await call('POST', '/people/dgone/delete', s.staff, {})).toMatchObject(profileNotFound);
    expect(await s.w.app.db.person.findUniqueOrThrow({ where: { ID: id } })).toMatchObject({ FirstName: 'Dee', AccountLevel: 'Disabled' });

    const listed = async (query: string) => ((await call('GET', `/people?limit=0${query}`)).json.data as Array<{ ID: number }>).map((p) => p.ID);
    expect(await listed('')).not.toContain(id);
    expect(await listed('')).toContain(s.ids.teacher);
    expect(await listed('&status=*')).toContain(id);
    // A REST rule (Slate's people handler): GraphQL shows Staff every person, the Disabled too.
    const gql = await fetch(s.w.url + '/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${s.staff}` },
      body: JSON.stringify({ query: `{ people { nodes { databaseId } } person(handle: "dgone") { accountLevel } }` }),
    });
    const { data } = await gql.json();
    expect(data.people.nodes.map((p: { databaseId: number }) => p.databaseId)).toContain(id);
    expect(data.person).toEqual({ accountLevel: 'Disabled' });

    // Staff re-enable a person through /save, by ID (as in Slate); then the profile is back.
    const saved = await call('POST', '/people/save', s.staff, { data: [{ ID: id, AccountLevel: 'User' }] }, true);
    expect(saved.json).toMatchObject({ success: true, data: [{ ID: id, AccountLevel: 'User' }] });
    expect((await call('GET', '/people/dgone')).json.data.ID).toBe(id);
    expect(await listed('')).toContain(id);
  });
});

describe('Slate\'s /logout and /users', () => {
  it('/logout ends the session as /login/logout does', async () => {
    const login = async () => (await call('POST', '/login', null, { '_LOGIN[username]': 'llee2', '_LOGIN[password]': 'long enough', '_LOGIN[returnMethod]': 'POST' })).json.data.Handle as string;
    await call('POST', '/people/create', s.staff, { FirstName: 'Lee', LastName: 'Out', Username: 'llee2', Password: 'long enough' });
    const token = await login();
    expect((await call('GET', '/login', token)).status).toBe(200);
    expect(await call('GET', '/logout', token)).toMatchObject({ status: 200, json: { success: true } });
    expect((await call('GET', '/login', token)).status).toBe(401);
    const again = await login();
    expect((await call('POST', '/logout', again, {})).json).toEqual({ success: true });
    expect((await call('GET', '/login', again)).status).toBe(401);
  });

  it('/users/… redirects (302) to the same path and query under /people', async () => {
    for (const [from, to] of [['/users/tteach', '/people/tteach'], ['/users?limit=1', '/people?limit=1'], ['/users/json/tteach?include=groupIDs', '/people/json/tteach?include=groupIDs']]) {
      const res = await fetch(s.w.url + from, { redirect: 'manual' });
      expect([res.status, res.headers.get('location')], from).toEqual([302, to]);
    }
    const followed = await fetch(s.w.url + '/users/tteach', { headers: { Authorization: `Token ${s.staff}` } });
    expect((await followed.json()).data.ID).toBe(s.ids.teacher);
  });
});

describe('the json path segment', () => {
  it('is the response mode, as in Slate: /people/json/<h> is /people/<h>', async () => {
    expect((await call('GET', '/people/json/tteach')).json).toMatchObject({ success: true, data: { ID: s.ids.teacher } });
    const browse = await call('GET', '/courses/json?limit=1', null);
    expect(browse.json).toMatchObject({ success: true, limit: 1, total: (await call('GET', '/courses', null)).json.total });
    const students = await call('GET', '/sections/json/MATH-001/students');
    expect(students.json.data.length).toBeGreaterThan(0);
    expect(students.json).toEqual((await call('GET', '/sections/MATH-001/students')).json);
    const created = await call('POST', '/courses/json/create', s.staff, { Title: 'Json mode', Code: 'JM1' });
    expect(created.json).toMatchObject({ success: true, data: { Code: 'JM1' } });
    expect((await call('GET', '/courses/json/nothing-here', null)).status).toBe(404);
  });
});

describe('lookups', () => {
  it('courses and sections by Code as well as Handle; people by username and email', async () => {
    expect((await call('GET', '/courses/MATH', null)).json.data.ID).toBe(s.ids.math);
    expect((await call('GET', `/courses/${s.handles.math}`, null)).json.data.ID).toBe(s.ids.math);
    expect((await call('GET', '/sections/MATH-002', null)).json.data.ID).toBe(s.ids.math2);
    expect((await call('GET', '/people/tteach')).json.data.ID).toBe(s.ids.teacher);
    expect((await call('GET', '/people/tia@school.test')).json.data.ID).toBe(s.ids.teacher);
    expect((await call('GET', '/people/nobody@school.test')).status).toBe(404);
  });
});

describe('form arrays', () => {
  it('/save reads data[0][Field] form fields as a list of records', async () => {
    const body = 'data[0][Title]=Form+one&data[0][Code]=F1&data[1][Title]=Form+two&data[1][Code]=F2';
    const res = await raw('POST', '/courses/save', body);
    expect(res.json).toMatchObject({ success: true, data: [{ Code: 'F1' }, { Code: 'F2' }], failed: [] });
    const edit = await raw('POST', '/courses/save', `data[0][ID]=${res.json.data[0].ID}&data[0][Description]=edited`);
    expect(edit.json.data[0]).toMatchObject({ Code: 'F1', Description: 'edited' });
  });

  it('tags[] and groupIDs[] become lists', async () => {
    const post = await raw('POST', '/blog/create?include=tags', 'Title=Arrays&tags[]=alpha&tags[]=beta');
    expect(post.json.data.tags.map((t: { Title: string }) => t.Title)).toEqual(['alpha', 'beta']);
    const person = await raw('POST', `/people/${s.ids.teacher}/edit?include=groupIDs`, 'groupIDs[]=school&groupIDs[]=clubs');
    expect(person.json.data.groupIDs).toEqual([s.ids.school, s.ids.clubs]);
  });

  it('keeps the nesting limit (64 levels) and refuses nothing shallower', async () => {
    expect((await raw('POST', '/courses/save', `data${'[0]'.repeat(64)}=x`)).status).toBe(400);
    const ok = await raw('POST', '/courses/save', `data[0][x]${'[a]'.repeat(60)}=x`);
    expect(ok.status).toBe(200);
  });
});

describe('/save', () => {
  it('answers 400 without a data list and 404 for an unknown ID, saving nothing', async () => {
    expect(await call('POST', '/courses/save', s.staff, { nope: 1 }, true)).toMatchObject({ status: 400, json: { success: false, message: 'Save expects "data" field as array of record deltas' } });
    expect((await raw('POST', '/courses/save', '')).status).toBe(400);
    const before = await s.w.app.db.course.count();
    const res = await call('POST', '/courses/save', s.staff, { data: [{ Title: 'Never', Code: 'NEVER' }, { ID: 999999, Title: 'x' }] }, true);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ success: false, message: 'Record not found' });
    expect(await s.w.app.db.course.count()).toBe(before);
    // An ID sent as digits (forms send nothing else) edits.
    expect((await call('POST', '/courses/save', s.staff, { data: [{ ID: String(s.ids.ela), Description: 'digits' }] }, true)).json.data[0].Description).toBe('digits');
  });
});

describe('"Page not found"', () => {
  it('answers Slate\'s 404 under a campus prefix: unknown sub-route, other methods, bad percent-encoding', async () => {
    const notFound = { success: false, message: 'Page not found' };
    expect(await call('GET', '/courses/MATH/bogus')).toMatchObject({ status: 404, json: notFound });
    expect(await call('POST', '/courses/MATH/bogus/deeper')).toMatchObject({ status: 404, json: notFound });
    // The record is looked up first, as in Slate.
    expect(await call('GET', '/courses/nope/bogus')).toMatchObject({ status: 404, json: { success: false, message: 'Record not found' } });
    expect(await call('PUT', '/courses')).toMatchObject({ status: 404, json: notFound });
    expect(await call('GET', '/courses/%E0%A4%A')).toMatchObject({ status: 404, json: notFound });
    expect(await call('GET', '/section-participants/x/y')).toMatchObject({ status: 404, json: notFound });
    // Browse and read answer POST as they answer GET (Slate dispatches on the path), the
    // token taken from the form.
    const posted = await raw('POST', '/courses/MATH', `_session=${s.staff}`, null);
    expect(posted).toMatchObject({ status: 200, json: { success: true, data: { Code: 'MATH' } } });
    const browsed = await raw('POST', '/people?limit=1', `_session=${s.staff}`, null);
    expect(browsed).toMatchObject({ status: 200, json: { success: true, limit: 1 } });
    expect((await raw('POST', '/people', '', null)).status).toBe(401);
    // A trailing slash after a record is the record (Slate's empty action).
    expect((await call('GET', '/courses/MATH/')).json.data.Code).toBe('MATH');
    // Outside the campus prefixes the gateway's own 404 stays.
    expect((await call('GET', '/nothing-here')).json).toEqual({ error: 'not found' });
  });

  it('GET on /<h>/comment is a bad request (Slate: comments are posted)', async () => {
    expect(await call('GET', '/courses/MATH/comment')).toMatchObject({ status: 400, json: { success: false, message: 'You did not supply the needed parameters correctly' } });
  });
});

describe('page size', () => {
  it('blog posts default to 25 (Slate), limit=0 is none; no page holds more than 1,000', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    await s.w.app.db.content.createMany({ data: Array.from({ length: 30 }, (_, i) => ({ Class: 'Emergence\\CMS\\BlogPost', Title: `Bulk ${i}`, Handle: `bulk_${i}`, Published: now, Created: now })) });
    const blog = await call('GET', '/blog', null);
    expect(blog.json).toMatchObject({ limit: 25, offset: false });
    expect(blog.json.data).toHaveLength(25);
    expect(blog.json.total).toBeGreaterThan(25);
    const all = await call('GET', '/blog?limit=0', null);
    expect(all.json.limit).toBe(false);
    expect(all.json.data).toHaveLength(all.json.total);

    await s.w.app.db.location.createMany({ data: Array.from({ length: 1001 }, (_, i) => ({ Title: `Locker ${i}`, Handle: `locker_${i}` })) });
    const capped = await call('GET', '/locations');
    expect(capped.json).toMatchObject({ total: 1003, limit: 1000 });
    expect(capped.json.data).toHaveLength(1000);
    const big = await call('GET', '/locations?limit=5000&offset=1000');
    expect(big.json).toMatchObject({ limit: 1000, offset: 1000 });
    expect(big.json.data).toHaveLength(3);
  });
});
