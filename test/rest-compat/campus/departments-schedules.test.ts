// Slate's course departments (/departments) and schedules (/schedules) over the generic record
// routes: handles as Slate's Department and Schedule make them, RecordsRequestHandler's default
// access (browse Staff, read anyone, write Staff), references from courses and sections,
// includes both ways, the sections browse filters `schedule=` and `department=`, and deletes
// refused while courses or sections still point at the record.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
let staff: string;
let user: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});

const create = (prefix: string, fields: Record<string, unknown>, token: string | null = staff) => w.campus('POST', `/${prefix}/create`, { token, fields });
const get = (path: string, token: string | null = staff) => w.campus('GET', path, { token });

describe('departments', () => {
  it('creates with a handle from the title, reads by handle and ID, edits, and refuses a duplicate code', async () => {
    const created = await create('departments', { Title: 'Mathematics & Science', Code: 'MS', Description: 'Numbers' });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      success: true,
      data: { Class: 'Slate\\Courses\\Department', Title: 'Mathematics & Science', Handle: 'mathematics-science', Code: 'MS', Status: 'Live', Description: 'Numbers' },
    });
    const id = created.json.data.ID;
    expect((await get(`/departments/mathematics-science`, null)).json).toMatchObject({ success: true, data: { ID: id } });
    expect((await get(`/departments/${id}`, null)).json.data.Handle).toBe('mathematics-science');

    const edited = await w.campus('POST', `/departments/${id}/edit`, { token: staff, fields: { Description: 'Numbers and nature' } });
    expect(edited.json).toMatchObject({ success: true, data: { Description: 'Numbers and nature', ModifierID: expect.any(Number) } });

    const dup = await create('departments', { Title: 'Other', Code: 'MS' });
    expect(dup.json).toMatchObject({ success: false, validationErrors: { Code: 'Code already registered' } });
    // A blank code is none (the column is nullable and unique): two departments may lack one.
    expect((await create('departments', { Title: 'No code A', Code: '' })).json.data.Code).toBeNull();
    expect((await create('departments', { Title: 'No code B' })).json.data.Code).toBeNull();
    const again = await create('departments', { Title: 'Mathematics & Science' });
    expect(again.json.data.Handle).toBe('mathematics-science-2');

    const untitled = await create('departments', { Code: 'NT' });
    expect(untitled.json).toMatchObject({ success: false, validationErrors: { Title: 'A title is required' } });
    expect(await w.app.db.department.count({ where: { Code: 'NT' } })).toBe(0);
  });

  it("applies RecordsRequestHandler's default access: browse Staff, read anyone, write Staff", async () => {
    const live = (await create('departments', { Title: 'Arts' })).json.data;
    const hidden = (await create('departments', { Title: 'Closed wing', Status: 'Hidden' })).json.data;
    expect((await get('/departments', null)).status).toBe(401);
    expect((await get('/departments', user)).status).toBe(403);
    const browse = await get('/departments');
    expect(browse.status).toBe(200);
    const titles = browse.json.data.map((d: { Title: string }) => d.Title);
    // Slate's browse order: Title ascending.
    expect(titles).toEqual([...titles].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(titles).toContain('Closed wing');

    expect((await get(`/departments/${live.Handle}`, null)).status).toBe(200);
    expect((await get(`/departments/${hidden.Handle}`, null)).status).toBe(401);
    expect((await get(`/departments/${hidden.Handle}`, user)).status).toBe(403);

    expect((await create('departments', { Title: 'Sneaky' }, null)).status).toBe(401);
    const refused = await create('departments', { Title: 'Sneaky' }, user);
    expect(refused.status).toBe(403);
    expect((await w.campus('POST', `/departments/${live.ID}/edit`, { token: user, fields: { Title: 'Renamed' } })).status).toBe(403);
    expect((await w.campus('POST', `/departments/${live.ID}/delete`, { token: user })).status).toBe(403);
    expect(await w.app.db.department.count({ where: { Title: { in: ['Sneaky', 'Renamed'] } } })).toBe(0);
  });

  it('searches titles, handles and codes with a LIKE scan (these tables have no search index)', async () => {
    await create('departments', { Title: 'Physical Education', Code: 'PE' });
    await create('departments', { Title: 'Physics', Code: 'PHYS' });
    const titles = async (q: string) => (await get(`/departments?q=${encodeURIComponent(q)}`)).json.data.map((d: { Title: string }) => d.Title);
    expect(await titles('PHYS')).toEqual(['Physical Education', 'Physics']);
    expect(await titles('code:phys')).toEqual(['Physics']);
    expect(await titles('educ phys')).toEqual(['Physical Education']);
    expect(await titles('"e"')).toContain('Physical Education');
    expect(await titles('nothing-like-it')).toEqual([]);
    expect((await get('/departments?q=PE', user)).status).toBe(403);
  });

  it('save and destroy in batches', async () => {
    const saved = await w.campus('POST', '/departments/save', { token: staff, json: true, fields: { data: [{ Title: 'History' }, { Title: 'Geography', Code: 'GEO' }, { Code: 'X' }] } });
    expect(saved.json).toMatchObject({ success: true, data: [{ Handle: 'history' }, { Handle: 'geography', Code: 'GEO' }], failed: [{ validationErrors: { Title: 'A title is required' } }] });
    const ids = saved.json.data.map((d: { ID: number }) => d.ID);
    const destroyed = await w.campus('POST', '/departments/destroy', { token: staff, json: true, fields: { data: ids } });
    expect(destroyed.json).toMatchObject({ success: true, failed: [] });
    expect(await w.app.db.department.count({ where: { ID: { in: ids } } })).toBe(0);
  });
});

describe('schedules', () => {
  it("makes the handle from the title without white space, its case kept (Slate's Schedule)", async () => {
    const a = await create('schedules', { Title: 'Block A' });
    expect(a.json).toMatchObject({ success: true, data: { Class: 'Slate\\Courses\\Schedule', Title: 'Block A', Handle: 'BlockA', Status: 'Live' } });
    expect((await create('schedules', { Title: 'Block  A' })).json.data.Handle).toBe('BlockA-2');
    expect((await create('schedules', { Title: 'Mon (AM)' })).json.data.Handle).toBe('Mon-AM');
    // The title is optional.
    const untitled = await create('schedules', { Description: 'TBD' });
    expect(untitled.json).toMatchObject({ success: true, data: { Title: null, Handle: 'course_schedule', Description: 'TBD' } });
    expect((await get('/schedules/BlockA', null)).json.data.ID).toBe(a.json.data.ID);
    const handle = await create('schedules', { Title: 'X', Handle: 'bad handle!' });
    expect(handle.json).toMatchObject({ success: false, validationErrors: { Handle: 'Handle can only contain letters, numbers, hyphens, and underscores' } });
    const taken = await create('schedules', { Title: 'Y', Handle: 'BlockA' });
    expect(taken.json).toMatchObject({ success: false, validationErrors: { Handle: 'Handle already registered' } });
  });

  it('browse is for Staff, ordered by title; writes need Staff', async () => {
    expect((await get('/schedules', null)).status).toBe(401);
    expect((await get('/schedules', user)).status).toBe(403);
    const titles = (await get('/schedules')).json.data.map((s: { Title: string | null }) => s.Title);
    expect(titles.length).toBeGreaterThan(0);
    expect((await create('schedules', { Title: 'Nope' }, user)).status).toBe(403);
    expect(await w.app.db.schedule.count({ where: { Title: 'Nope' } })).toBe(0);
  });
});

describe('courses, sections and their department and schedule', () => {
  let dept: { ID: number; Handle: string };
  let other: { ID: number; Handle: string };
  let sched: { ID: number; Handle: string };
  let course: { ID: number };
  beforeAll(async () => {
    dept = (await create('departments', { Title: 'Languages', Code: 'LANG' })).json.data;
    other = (await create('departments', { Title: 'Sports' })).json.data;
    sched = (await create('schedules', { Title: 'Period 3' })).json.data;
    course = (await create('courses', { Title: 'French', Code: 'FR', DepartmentID: dept.ID })).json.data;
    await create('courses', { Title: 'Running', Code: 'RUN', DepartmentID: other.ID });
    await create('sections', { CourseID: course.ID, ScheduleID: sched.ID, Title: 'French A' });
    await create('sections', { CourseID: course.ID, Title: 'French B' });
    await create('sections', { CourseID: (await w.app.db.course.findFirstOrThrow({ where: { Code: 'RUN' } })).ID, ScheduleID: sched.ID, Title: 'Track' });
  });

  it('refuses a reference to a missing department or schedule, storing nothing', async () => {
    const c = await create('courses', { Title: 'Ghost', Code: 'GH', DepartmentID: 999999 });
    expect(c.json).toMatchObject({ success: false, validationErrors: { DepartmentID: 'Department 999999 does not exist.' } });
    const s = await create('sections', { CourseID: course.ID, Title: 'Ghost', ScheduleID: 999999 });
    expect(s.json).toMatchObject({ success: false, validationErrors: { ScheduleID: 'Schedule 999999 does not exist.' } });
    expect(await w.app.db.course.count({ where: { Code: 'GH' } })).toBe(0);
    expect(await w.app.db.section.count({ where: { Title: 'Ghost' } })).toBe(0);
  });

  it('includes the department and schedule, and the courses and sections the other way', async () => {
    const c = await get('/courses/FR?include=Department', null);
    expect(c.json.data.Department).toMatchObject({ ID: dept.ID, Title: 'Languages', Code: 'LANG', Class: 'Slate\\Courses\\Department' });
    const d = await get(`/departments/${dept.Handle}?include=Courses.Sections`, null);
    expect(d.json.data.Courses).toHaveLength(1);
    expect(d.json.data.Courses[0]).toMatchObject({ Code: 'FR' });
    expect(d.json.data.Courses[0].Sections.map((s: { Title: string }) => s.Title).sort()).toEqual(['French A', 'French B']);
    const s = await get('/sections?include=Schedule&course=FR', null);
    const byTitle = Object.fromEntries(s.json.data.map((x: { Title: string; Schedule: unknown }) => [x.Title, x.Schedule]));
    expect(byTitle['French A']).toMatchObject({ ID: sched.ID, Title: 'Period 3', Handle: 'Period3' });
    expect(byTitle['French B']).toBeNull();
    const sc = await get(`/schedules/${sched.Handle}?include=Sections`, null);
    expect(sc.json.data.Sections.map((x: { Title: string }) => x.Title).sort()).toEqual(['French A', 'Track']);
    // A Hidden department is left out for those who could not read it.
    const hidden = (await create('departments', { Title: 'Secret', Status: 'Hidden' })).json.data;
    await create('courses', { Title: 'Cipher', Code: 'CIP', DepartmentID: hidden.ID });
    expect((await get('/courses/CIP?include=Department', null)).json.data.Department).toBeNull();
    expect((await get('/courses/CIP?include=Department')).json.data.Department).toMatchObject({ ID: hidden.ID });
  });

  it('filters sections by schedule and by department (through the course); a name that resolves to nothing is a 404', async () => {
    const bySchedule = await get(`/sections?schedule=${sched.Handle}`, null);
    expect(bySchedule.status).toBe(200);
    expect(bySchedule.json.data.map((s: { Title: string }) => s.Title).sort()).toEqual(['French A', 'Track']);
    expect(bySchedule.json).toMatchObject({ Schedule: { ID: sched.ID }, conditions: { ScheduleID: sched.ID }, total: 2 });
    const byId = await get(`/sections?schedule=${sched.ID}`, null);
    expect(byId.json.total).toBe(2);
    const byDept = await get(`/sections?department=${dept.Handle}`, null);
    expect(byDept.json.data.map((s: { Title: string }) => s.Title).sort()).toEqual(['French A', 'French B']);
    expect(byDept.json.Department).toMatchObject({ ID: dept.ID });
    const both = await get(`/sections?department=${other.ID}&schedule=${sched.Handle}`, null);
    expect(both.json.data.map((s: { Title: string }) => s.Title)).toEqual(['Track']);
    // Search qualifiers of the same names (Slate's Section $searchConditions).
    const q = await get(`/sections?q=${encodeURIComponent(`schedule:${sched.Handle} department:${dept.Handle}`)}`, null);
    expect(q.json.data.map((s: { Title: string }) => s.Title)).toEqual(['French A']);
    expect(await get('/sections?schedule=nowhere', null)).toMatchObject({ status: 404, json: { success: false, message: 'schedule not found' } });
    expect(await get('/sections?department=nowhere', null)).toMatchObject({ status: 404, json: { success: false, message: 'department not found' } });
  });

  it('refuses to delete a department with courses or a schedule with sections, then deletes once they are gone', async () => {
    const d = await w.campus('POST', `/departments/${other.Handle}/delete`, { token: staff });
    expect(d).toMatchObject({ status: 409, json: { success: false, message: 'Cannot delete this course department: 1 course still refer to it' } });
    const s = await w.campus('POST', `/schedules/${sched.Handle}/delete`, { token: staff });
    expect(s).toMatchObject({ status: 409, json: { success: false, message: 'Cannot delete this course schedule: 2 course sections still refer to it' } });
    const destroyed = await w.campus('POST', '/schedules/destroy', { token: staff, json: true, fields: { data: [sched.ID] } });
    expect(destroyed.json).toMatchObject({ success: false, data: [], failed: [{ record: sched.ID }] });
    expect(await w.app.db.department.count({ where: { ID: other.ID } })).toBe(1);
    expect(await w.app.db.schedule.count({ where: { ID: sched.ID } })).toBe(1);

    // Moving the sections off the schedule (a blank reference is none) frees it.
    for (const section of await w.app.db.section.findMany({ where: { ScheduleID: sched.ID } })) {
      const moved = await w.campus('POST', `/sections/${section.ID}/edit`, { token: staff, fields: { ScheduleID: '' } });
      expect(moved.json.data.ScheduleID).toBeNull();
    }
    expect((await w.campus('POST', `/schedules/${sched.Handle}/delete`, { token: staff })).json).toMatchObject({ success: true, data: { ID: sched.ID } });
    expect(await w.app.db.schedule.count({ where: { ID: sched.ID } })).toBe(0);
  });
});
