// Slate's computed fields over GraphQL (issue #12): Group.fullPath and population,
// Section.studentsCount, with the values, the visibility and the batching REST's include= has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../helpers/world.ts';
import { campusGql } from '../helpers/gql.ts';
import { createSchool, type School } from '../rest-compat/campus/conventions-fixture.ts';

let s: School;
beforeAll(async () => {
  s = await createSchool();
}, 60_000);
afterAll(() => s.w.stop());

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = s.staff) =>
  campusGql(s.w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;
const rest = (path: string, token: string | null = s.staff) => s.w.campus('GET', path, { token });

describe('Group.fullPath and Group.population', () => {
  it('equal REST include=FullPath,Population for every group', async () => {
    const r = await q('{ groups { nodes { handle fullPath population } } }');
    expect(r.errors).toBeUndefined();
    expect(r.data.groups.nodes).toEqual([
      { handle: 'school', fullPath: 'School', population: 2 },
      { handle: 'clubs', fullPath: 'School/Clubs', population: 1 },
      { handle: 'chess', fullPath: 'School/Clubs/Chess', population: 1 },
      { handle: 'staff_room', fullPath: 'Staff Room', population: 0 },
    ]);
    const viaRest = (await rest('/groups?parentGroup=any&include=FullPath,Population')).json.data;
    expect(viaRest.map((g: any) => ({ handle: g.Handle, fullPath: g.FullPath, population: g.Population }))).toEqual(r.data.groups.nodes);
  });

  it('follow membership changes, and reach nested groups', async () => {
    await s.w.app.db.groupMember.create({ data: { GroupID: s.ids.staffroom!, PersonID: s.ids.teacher!, Role: 'Member' } });
    try {
      const r = await q('query($h: String) { person(handle: $h) { groups { name fullPath population } } }', { h: 'tteach' });
      expect(r.data.person.groups).toEqual([
        { name: 'School', fullPath: 'School', population: 2 },
        { name: 'Staff Room', fullPath: 'Staff Room', population: 1 },
      ]);
    } finally {
      await s.w.app.db.groupMember.deleteMany({ where: { GroupID: s.ids.staffroom! } });
    }
  });

  it('are read by whoever may read the group: a User, not an anonymous caller (as REST)', async () => {
    const user = await q('{ group(handle: "chess") { fullPath population } }', {}, s.other.token);
    expect(user.data.group).toEqual({ fullPath: 'School/Clubs/Chess', population: 1 });
    const anonymous = await q('{ group(handle: "chess") { fullPath population } }', {}, null);
    expect(anonymous.data?.group ?? null).toBeNull();
    expect(anonymous.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect((await rest('/groups/chess?include=FullPath,Population', null)).status).toBe(401);
  });

  it('leave a Hidden ancestor out of the path for callers who may not read it, on both transports', async () => {
    await s.w.app.db.group.update({ where: { ID: s.ids.clubs! }, data: { Status: 'Hidden' } });
    try {
      const path = async (token: string) => (await q('{ group(handle: "chess") { fullPath population } }', {}, token)).data.group;
      expect(await path(s.other.token)).toEqual({ fullPath: 'School/Chess', population: 1 });
      expect(await path(s.staff)).toEqual({ fullPath: 'School/Clubs/Chess', population: 1 });
      expect((await rest('/groups/chess?include=FullPath', s.other.token)).json.data.FullPath).toBe('School/Chess');
      expect((await rest('/groups/chess?include=FullPath')).json.data.FullPath).toBe('School/Clubs/Chess');
      // The Hidden group itself stays unreadable, so its own path is never shown to them.
      expect((await q('{ group(handle: "clubs") { fullPath } }', {}, s.other.token)).errors![0]!.extensions.code).toBe('FORBIDDEN');
    } finally {
      await s.w.app.db.group.update({ where: { ID: s.ids.clubs! }, data: { Status: 'Live' } });
    }
  });
});

describe('Section.studentsCount', () => {
  it('equals REST include=StudentsCount, on lists and through relations', async () => {
    const r = await q('{ sections { nodes { code studentsCount } } }', {}, null);
    expect(r.errors).toBeUndefined();
    expect(r.data.sections.nodes).toEqual([
      { code: 'ELA-001', studentsCount: 0 },
      { code: 'MATH-001', studentsCount: 1 },
      { code: 'MATH-002', studentsCount: 0 },
    ]);
    const viaRest = (await rest('/sections?include=StudentsCount', null)).json.data;
    expect(viaRest.map((x: any) => ({ code: x.Code, studentsCount: x.StudentsCount }))).toEqual(r.data.sections.nodes);
    const course = await q('{ course(handle: "MATH") { sections { code studentsCount } } }', {}, null);
    expect(course.data.course.sections).toEqual([
      { code: 'MATH-001', studentsCount: 1 },
      { code: 'MATH-002', studentsCount: 0 },
    ]);
  });

  it('counts only the Student role', async () => {
    // MATH-001 has a teacher and a student; a second teacher changes nothing, a second student does.
    await s.w.app.db.sectionParticipant.create({ data: { CourseSectionID: s.ids.math1!, PersonID: s.other.id, Role: 'Teacher' } });
    const count = async () => (await q('{ section(handle: "MATH-001") { studentsCount } }')).data.section.studentsCount;
    expect(await count()).toBe(1);
    await s.w.app.db.sectionParticipant.updateMany({ where: { CourseSectionID: s.ids.math1!, PersonID: s.other.id }, data: { Role: 'Student' } });
    expect(await count()).toBe(2);
    expect((await rest('/sections/MATH-001?include=StudentsCount')).json.data.StudentsCount).toBe(2);
    await s.w.app.db.sectionParticipant.deleteMany({ where: { CourseSectionID: s.ids.math1!, PersonID: s.other.id } });
  });

  it('is not shown for a section the caller may not read (as REST)', async () => {
    await s.w.app.db.section.update({ where: { ID: s.ids.math2! }, data: { Status: 'Hidden' } });
    try {
      const user = await q('{ course(handle: "MATH") { sections { code studentsCount } } }', {}, s.other.token);
      expect(user.data.course.sections).toEqual([{ code: 'MATH-001', studentsCount: 1 }]);
      const one = await q('{ section(handle: "MATH-002") { studentsCount } }', {}, s.other.token);
      expect(one.errors![0]!.extensions.code).toBe('FORBIDDEN');
      expect((await rest('/sections/MATH-002?include=StudentsCount', s.other.token)).status).toBe(403);
      const staff = await q('{ section(handle: "MATH-002") { studentsCount } }');
      expect(staff.data.section).toEqual({ studentsCount: 0 });
    } finally {
      await s.w.app.db.section.update({ where: { ID: s.ids.math2! }, data: { Status: 'Live' } });
    }
  });
});

describe('computed fields are batched', () => {
  it('runs the same SQL count for 2 and for 8 groups and sections', async () => {
    // Statements of the query's plan only: the rate limiter checks a key's validity once a
    // minute (src/http/limits.ts), which the advancing test clock would land inside a count.
    const world = await createWorld({ RATE_LIMITS: 'off' });
    const statements: string[] = [];
    // Every statement the server's own client sends, on either database.
    const stop = world.app.onStatement((sql) => statements.push(sql));
    try {
      const token = (await world.campusToken('Staff')).token;
      const make = async (prefix: string, fields: Record<string, unknown>) => {
        const res = await world.campus('POST', `/${prefix}/create`, { token, fields });
        if (!res.json?.success) throw new Error(`${prefix}: ${JSON.stringify(res.json)}`);
        return res.json.data;
      };
      const top = await make('groups', { Name: 'Top' });
      async function seed(n: number, tag: string) {
        const course = await make('courses', { Title: `Course ${tag}`, Code: tag });
        for (let i = 0; i < n; i++) {
          const group = await make('groups', { Name: `${tag} ${i}`, ParentID: top.ID });
          const person = await make('people', { FirstName: `${tag}x${i}`, LastName: 'Multi', groupIDs: group.Handle });
          const section = await make('sections', { CourseID: course.ID, Title: `${tag} ${i}` });
          await make('section-participants', { CourseSectionID: section.ID, PersonID: person.ID, Role: 'Student' });
        }
      }
      await seed(2, 'SMALL');
      await seed(8, 'LARGE');
      const query = `query($q: String!) {
        groups(query: $q) { nodes { fullPath population } }
        sections(course: $q) { nodes { studentsCount } }
      }`;
      const count = async (tag: string) => {
        statements.length = 0;
        const res = await fetch(`${world.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Token ${token}` }, body: JSON.stringify({ query, variables: { q: tag } }) });
        const json = (await res.json()) as { data: any; errors?: unknown };
        expect(json.errors).toBeUndefined();
        return { n: statements.length, groups: json.data.groups.nodes, sections: json.data.sections.nodes };
      };
      const small = await count('SMALL');
      const large = await count('LARGE');
      expect(small.groups).toEqual([0, 1].map((i) => ({ fullPath: `Top/SMALL ${i}`, population: 1 })));
      expect(large.groups).toHaveLength(8);
      expect(large.groups.every((g: any) => g.population === 1 && g.fullPath.startsWith('Top/LARGE '))).toBe(true);
      expect(small.sections).toEqual([{ studentsCount: 1 }, { studentsCount: 1 }]);
      expect(large.sections).toEqual(Array.from({ length: 8 }, () => ({ studentsCount: 1 })));
      expect(large.n).toBe(small.n);
    } finally {
      stop();
      await world.stop();
    }
  });
});
