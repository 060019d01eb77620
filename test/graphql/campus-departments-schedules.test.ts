// Departments and schedules over GraphQL: their types, queries and mutations (generated from the
// kind table as for every kind), Course.department / Department.courses and Section.schedule /
// Schedule.sections, the sections filters, the access rules of the records service, the refusal
// to link a check to a kind without a link column, and a page of 50 courses with their
// departments in the same number of statements as a page of 5.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema/schema.ts';
import { createWorld, type World } from '../helpers/world.ts';
import { campusGql } from '../helpers/gql.ts';

let w: World;
let staff: string;
let user: string;
beforeAll(async () => {
  // Statement counts cover the query's plan only: the rate limiter's once-a-minute
  // credential check (src/http/limits.ts) is not part of it.
  w = await createWorld({ RATE_LIMITS: 'off' });
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});
afterAll(() => w?.stop());

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff) => campusGql(w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;
async function ok(query: string, variables: Record<string, unknown> = {}, token: string | null = staff) {
  const r = await q(query, variables, token);
  expect(r.errors).toBeUndefined();
  return r.data;
}

describe('departments and schedules', () => {
  it('create, read by handle, update and delete; a course and a section point at them', async () => {
    const dept = (await ok('mutation($i: DepartmentInput!) { createDepartment(input: $i) { databaseId handle code status title class } }', { i: { title: 'Social Studies', code: 'SS' } })).createDepartment;
    expect(dept).toMatchObject({ handle: 'social_studies', code: 'SS', status: 'Live', title: 'Social Studies', class: 'Slate\\Courses\\Department' });
    const sched = (await ok('mutation { createSchedule(input: { title: "Block B" }) { databaseId handle title } }')).createSchedule;
    expect(sched).toMatchObject({ handle: 'BlockB', title: 'Block B' });
    const course = (await ok('mutation($d: Int) { createCourse(input: { title: "Civics", code: "CIV", departmentId: $d }) { databaseId department { title } } }', { d: dept.databaseId })).createCourse;
    expect(course.department).toEqual({ title: 'Social Studies' });
    const section = (await ok('mutation($c: Int!, $s: Int) { createSection(input: { courseId: $c, scheduleId: $s, title: "Civics 1" }) { databaseId code schedule { handle } } }', { c: course.databaseId, s: sched.databaseId })).createSection;
    expect(section).toEqual({ databaseId: expect.any(Number), code: 'CIV-001', schedule: { handle: 'BlockB' } });

    const read = await ok('{ department(handle: "social_studies") { courses { code sections { code schedule { title sections { code } } } } } }', {}, null);
    expect(read.department).toEqual({ courses: [{ code: 'CIV', sections: [{ code: 'CIV-001', schedule: { title: 'Block B', sections: [{ code: 'CIV-001' }] } }] }] });

    const updated = await ok('mutation($id: ID!) { updateDepartment(id: $id, input: { description: "People and places" }) { description title modifierId } }', { id: dept.databaseId });
    expect(updated.updateDepartment).toMatchObject({ description: 'People and places', title: 'Social Studies', modifierId: expect.any(Number) });

    // Refused while a course (a section) still points at it; the row stays.
    const refused = await q('mutation($id: ID!) { deleteDepartment(id: $id) { databaseId } }', { id: dept.databaseId });
    expect(refused.errors![0]).toMatchObject({ message: 'Cannot delete this course department: 1 course still refer to it', extensions: { code: 'CONFLICT' } });
    const refusedSchedule = await q('mutation($id: ID!) { deleteSchedule(id: $id) { databaseId } }', { id: sched.databaseId });
    expect(refusedSchedule.errors![0]!.message).toBe('Cannot delete this course schedule: 1 course section still refer to it');
    expect(await w.app.db.department.count({ where: { ID: dept.databaseId } })).toBe(1);

    const missing = await q('mutation { createCourse(input: { title: "Ghost", code: "GHO", departmentId: 999999 }) { databaseId } }');
    expect(missing.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', validationErrors: { DepartmentID: 'Department 999999 does not exist.' } } });

    // Unlinked, they go.
    await ok('mutation($id: ID!) { updateSection(id: $id, input: { scheduleId: null }) { databaseId } }', { id: section.databaseId });
    expect((await ok('mutation($id: ID!) { deleteSchedule(id: $id) { handle } }', { id: sched.databaseId })).deleteSchedule).toEqual({ handle: 'BlockB' });
    expect(await w.app.db.schedule.count({ where: { ID: sched.databaseId } })).toBe(0);
  });

  it('announces created, updated and deleted schedules to recordChanged (after the write commits)', async () => {
    const seen: Array<{ kind: string; action: string; title: unknown }> = [];
    const listener = (e: { kind: string; action: string; record: Record<string, unknown> }) => void seen.push({ kind: e.kind, action: e.action, title: e.record.Title });
    w.app.deps.events.on('recordChanged', listener as never);
    try {
      const id = (await ok('mutation { createSchedule(input: { title: "Evening" }) { databaseId } }')).createSchedule.databaseId;
      await ok('mutation($id: ID!) { updateSchedule(id: $id, input: { title: "Evenings" }) { databaseId } }', { id });
      await ok('mutation($id: ID!) { deleteSchedule(id: $id) { databaseId } }', { id });
      await q('mutation { createDepartment(input: {}) { databaseId } }');
    } finally {
      w.app.deps.events.off('recordChanged', listener as never);
    }
    // The refused department (no title) announces nothing.
    expect(seen).toEqual([
      { kind: 'Schedule', action: 'created', title: 'Evening' },
      { kind: 'Schedule', action: 'updated', title: 'Evenings' },
      { kind: 'Schedule', action: 'deleted', title: 'Evenings' },
    ]);
    const kinds = (schema.getType('CampusKind') as unknown as { getValues(): Array<{ name: string }> }).getValues().map((v) => v.name);
    expect(kinds).toEqual(expect.arrayContaining(['Department', 'Schedule']));
  });

  it('browse needs Staff, read does not (Live only), writes need Staff', async () => {
    await ok('mutation { createDepartment(input: { title: "Hidden dept", status: "Hidden" }) { databaseId } }');
    expect((await q('{ departments { totalCount } }', {}, null)).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect((await q('{ schedules { totalCount } }', {}, user)).errors![0]!.extensions.code).toBe('FORBIDDEN');
    const list = await ok('{ departments(q: "hidden") { totalCount nodes { title } } }');
    expect(list.departments).toEqual({ totalCount: 1, nodes: [{ title: 'Hidden dept' }] });
    expect((await q('{ department(handle: "hidden_dept") { title } }', {}, null)).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect((await q('{ department(handle: "hidden_dept") { title } }', {}, user)).errors![0]!.extensions.code).toBe('FORBIDDEN');
    expect((await q('mutation { createSchedule(input: { title: "Nope" }) { databaseId } }', {}, user)).errors![0]!.extensions.code).toBe('FORBIDDEN');
    expect((await q('mutation { createDepartment(input: { title: "Nope" }) { databaseId } }', {}, null)).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect(await w.app.db.department.count({ where: { Title: 'Nope' } })).toBe(0);
    expect(await w.app.db.schedule.count({ where: { Title: 'Nope' } })).toBe(0);
  });

  it('filters sections by schedule and department, courses by departmentId', async () => {
    const d = (await ok('mutation { createDepartment(input: { title: "Arts", code: "ART" }) { databaseId } }')).createDepartment.databaseId;
    const s = (await ok('mutation { createSchedule(input: { title: "Late" }) { databaseId } }')).createSchedule.databaseId;
    const paint = (await ok('mutation($d: Int) { createCourse(input: { title: "Painting", code: "PNT", departmentId: $d }) { databaseId } }', { d })).createCourse.databaseId;
    const other = (await ok('mutation { createCourse(input: { title: "Other", code: "OTH" }) { databaseId } }')).createCourse.databaseId;
    await ok('mutation($c: Int!, $s: Int) { createSection(input: { courseId: $c, scheduleId: $s }) { code } }', { c: paint, s });
    await ok('mutation($c: Int!) { createSection(input: { courseId: $c }) { code } }', { c: paint });
    await ok('mutation($c: Int!, $s: Int) { createSection(input: { courseId: $c, scheduleId: $s }) { code } }', { c: other, s });
    const codes = async (args: string) => (await ok(`{ sections(${args}) { nodes { code } } }`, {}, null)).sections.nodes.map((n: { code: string }) => n.code);
    expect(await codes('schedule: "Late"')).toEqual(['OTH-001', 'PNT-001']);
    expect(await codes('department: "arts"')).toEqual(['PNT-001', 'PNT-002']);
    // A department is named by ID or handle (Slate's getRecordByHandle), not by its code.
    expect((await q('{ sections(department: "ART") { totalCount } }', {}, null)).errors![0]!.message).toBe('department not found');
    expect(await codes(`department: "${d}", schedule: "Late"`)).toEqual(['PNT-001']);
    expect(await codes(`scheduleId: "${s}"`)).toEqual(['OTH-001', 'PNT-001']);
    const missing = await q('{ sections(schedule: "nowhere") { totalCount } }', {}, null);
    expect(missing.errors![0]).toMatchObject({ message: 'schedule not found', extensions: { code: 'NOT_FOUND' } });
    const courses = await ok('query($d: ID) { courses(departmentId: $d) { nodes { code department { code } } } }', { d: String(d) }, null);
    expect(courses.courses.nodes).toEqual([{ code: 'PNT', department: { code: 'ART' } }]);
  });

  it('has no `checks` field and refuses a check link: the link table has no column for these kinds', async () => {
    for (const name of ['Department', 'Schedule']) {
      const type = schema.getType(name);
      expect(isObjectType(type) && Object.keys(type.getFields())).not.toContain('checks');
    }
    const course = schema.getType('Course');
    expect(isObjectType(course) && Object.keys(course.getFields())).toContain('checks');
    await ok('mutation { createDepartment(input: { title: "Linkless" }) { databaseId } }');
    const check = await w.api('POST', '/api/v3/checks/', { body: { name: 'dept check' } });
    const headers = { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key, Authorization: `Token ${staff}` };
    const res = await fetch(`${w.url}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'mutation($c: ID!) { linkCheckRecord(check: $c, kind: Department, handle: "linkless") { tags: tagsString } }', variables: { c: check.json.uuid } }),
    });
    const json = (await res.json()) as { errors?: Array<{ message: string; extensions: { code: string } }> };
    expect(json.errors![0]).toMatchObject({ message: 'A check cannot be linked to a course department', extensions: { code: 'BAD_USER_INPUT' } });
    expect((await w.app.db.check.findUniqueOrThrow({ where: { code: check.json.uuid } })).tags).toBe('');
  });
});

describe('batching', () => {
  it('reads a page of 50 courses with their departments (and a department its courses) in as many statements as 5', async () => {
    for (let i = 0; i < 50; i++) {
      const d = (await ok('mutation($t: String!) { createDepartment(input: { title: $t }) { databaseId } }', { t: `Batch dept ${i}` })).createDepartment.databaseId;
      await ok('mutation($t: String!, $c: String!, $d: Int) { createCourse(input: { title: $t, code: $c, departmentId: $d }) { databaseId } }', { t: `Batch ${i}`, c: `B${String(i).padStart(3, '0')}`, d });
    }
    const statements: string[] = [];
    // Every statement the server's own client sends, on either database.
    const stop = w.app.onStatement((sql) => statements.push(sql));
    try {
      const count = async (first: number) => {
        statements.length = 0;
        const data = await ok('query($n: Int) { courses(q: "code:B0", first: $n, sort: "Code") { nodes { code department { title handle courses { code } } } } }', { n: first });
        return { n: statements.length, nodes: data.courses.nodes };
      };
      const small = await count(5);
      const large = await count(50);
      expect(small.nodes).toHaveLength(5);
      expect(large.nodes).toHaveLength(50);
      expect(large.nodes[49]).toEqual({ code: 'B049', department: { title: 'Batch dept 49', handle: 'batch_dept_49', courses: [{ code: 'B049' }] } });
      expect(large.n).toBe(small.n);
    } finally {
      stop();
    }
  }, 60_000);
});
