// A small school for the Slate-convention tests (REST and GraphQL): terms in a tree with one
// covering the test clock's day (2026-01-05), courses, a location inside another, sections,
// a teacher and an enrolled student, groups three deep, blog posts by two authors.
import { createWorld, type World } from '../../helpers/world.ts';

export interface School {
  w: World;
  staff: string;
  student: { token: string; id: number; username: string };
  other: { token: string; id: number };
  ids: Record<string, number>;
  handles: Record<string, string>;
}

export async function createSchool(): Promise<School> {
  const w = await createWorld();
  const staff = (await w.campusToken('Staff')).token;
  const ids: Record<string, number> = {};
  const handles: Record<string, string> = {};
  const make = async (name: string, prefix: string, fields: Record<string, unknown>, token = staff) => {
    const res = await w.campus('POST', `/${prefix}/create`, { token, fields });
    if (!res.json?.success) throw new Error(`${name}: ${JSON.stringify(res.json)}`);
    ids[name] = res.json.data.ID;
    handles[name] = res.json.data.Handle ?? res.json.data.Username;
    return res.json.data;
  };
  // Terms: y2025 (covers the clock's day) > f2025 (narrower, also covers it); y2026 > s2026.
  await make('y2025', 'terms', { Title: 'Year 2025', Handle: 'y2025', StartDate: '2025-09-01', EndDate: '2026-06-30' });
  await make('y2026', 'terms', { Title: 'Year 2026', Handle: 'y2026', StartDate: '2026-09-01', EndDate: '2027-06-30' });
  await make('f2025', 'terms', { Title: 'Fall 2025', Handle: 'f2025', StartDate: '2025-09-01', EndDate: '2026-01-31', ParentID: ids.y2025 });
  await make('s2026', 'terms', { Title: 'Spring 2027', Handle: 's2026', StartDate: '2027-02-01', EndDate: '2027-06-30', ParentID: ids.y2026 });
  await make('math', 'courses', { Title: 'Algebra', Code: 'MATH' });
  await make('ela', 'courses', { Title: 'English', Code: 'ELA' });
  await make('campus', 'locations', { Title: 'Campus' });
  await make('room', 'locations', { Title: 'Room 101', ParentID: ids.campus });
  // Untitled sections get codes MATH-001, MATH-002, ELA-001.
  await make('math1', 'sections', { CourseID: ids.math, TermID: ids.f2025, LocationID: ids.room });
  await make('math2', 'sections', { CourseID: ids.math, TermID: ids.s2026 });
  await make('ela1', 'sections', { CourseID: ids.ela, TermID: ids.y2025, Title: 'English A' });
  await make('teacher', 'people', { FirstName: 'Tia', LastName: 'Teach', Username: 'tteach', Email: 'tia@school.test' });
  const student = await w.campusToken('User');
  const other = await w.campusToken('User');
  const username = (await w.app.db.person.findUniqueOrThrow({ where: { ID: student.person_id } })).Username!;
  for (const [person, role] of [
    [ids.teacher, 'Teacher'],
    [student.person_id, 'Student'],
  ] as const) {
    await w.campus('POST', '/section-participants/create', { token: staff, fields: { CourseSectionID: ids.math1!, PersonID: person!, Role: role } });
  }
  // Groups: School > Clubs > Chess; the student in Chess, the teacher in School.
  await make('school', 'groups', { Name: 'School' });
  await make('clubs', 'groups', { Name: 'Clubs', ParentID: ids.school });
  await make('chess', 'groups', { Name: 'Chess', ParentID: ids.clubs });
  await make('staffroom', 'groups', { Name: 'Staff Room' });
  await w.campus('POST', `/people/${student.person_id}/edit`, { token: staff, fields: { groupIDs: 'chess' } });
  await w.campus('POST', `/people/${ids.teacher}/edit`, { token: staff, fields: { groupIDs: 'school' } });
  await make('post1', 'blog', { Title: 'Student post', tags: 'news,chess' }, student.token);
  await make('post2', 'blog', { Title: 'Other post' }, other.token);
  return { w, staff, student: { token: student.token, id: student.person_id, username }, other: { token: other.token, id: other.person_id }, ids, handles };
}
