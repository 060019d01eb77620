// Who belongs where, as Slate's extra routes list it: a group's members (its subgroups'
// included), a section's students, and the section participants browse.
import { forbidden, notFound } from '../shared/errors.ts';
import { ACCESS_DENIED, isStaff, requireLevel } from './access.ts';
import type { Viewer } from './auth.ts';
import { CURRENT } from './filters.ts';
import { KINDS, type KindName } from './kinds.ts';
import { BROWSE_MAX_LIMIT } from './limits.ts';
import { findRecord, type CampusDeps, type CampusRecord } from './lookup.ts';
import { getRecord } from './service.ts';
import { subtreeIds } from './tree.ts';

const byName = [{ person: { LastName: 'asc' } }, { person: { FirstName: 'asc' } }, { ID: 'asc' }] as const;

/** Slate's Group::getAllPeople: members of the group and of every group inside it, each once. */
export async function groupMembers(deps: CampusDeps, viewer: Viewer, ident: string | number) {
  const group = await getRecord(deps, viewer, KINDS.Group, ident);
  const ids = await subtreeIds(deps, KINDS.Group, group.ID);
  const rows = await deps.db.groupMember.findMany({ where: { GroupID: { in: ids } }, include: { person: true }, orderBy: [...byName] });
  const people = new Map<number, CampusRecord>();
  for (const row of rows) if (!people.has(row.PersonID)) people.set(row.PersonID, row.person as unknown as CampusRecord);
  return { group, people: [...people.values()] };
}

/**
 * Slate's /sections/<h>/students: Staff, or a student of the section. Students whose
 * participation has not started or has ended are left out unless `inactive` is set.
 */
export async function sectionStudents(deps: CampusDeps, viewer: Viewer, ident: string | number, options: { inactive?: boolean } = {}) {
  const section = await getRecord(deps, viewer, KINDS.Section, ident);
  if (!isStaff(viewer)) {
    requireLevel(viewer, 'User');
    const enrolled = await deps.db.sectionParticipant.count({ where: { CourseSectionID: section.ID, PersonID: viewer.personId!, Role: 'Student' } });
    if (!enrolled) throw forbidden(ACCESS_DENIED);
  }
  const now = deps.clock.now();
  const active = options.inactive ? {} : { AND: [{ OR: [{ StartDate: null }, { StartDate: { lte: now } }] }, { OR: [{ EndDate: null }, { EndDate: { gte: now } }] }] };
  const rows = await deps.db.sectionParticipant.findMany({ where: { CourseSectionID: section.ID, Role: 'Student', ...active }, include: { person: true }, orderBy: [...byName] });
  return rows.map((r) => r.person as unknown as CampusRecord);
}

export interface ParticipantFilters {
  /** A section (ID, handle or code); else `term`: sections of the term and the terms inside it. */
  courseSection?: string;
  term?: string;
  /** A person (ID, username, email or `*current`). */
  student?: string;
  /** Roles, comma-separated (Teacher,Student). */
  role?: string;
}

async function required(deps: CampusDeps, name: KindName, ident: string | number, param: string) {
  const record = await findRecord(deps, KINDS[name], ident);
  if (!record) throw notFound(`${param} not found`);
  return record;
}

/** Slate's /section-participants browse (Staff only), paged as any browse. */
export async function browseParticipants(
  deps: CampusDeps,
  viewer: Viewer,
  f: ParticipantFilters,
  page: { limit?: number; offset?: number; person?: boolean; section?: boolean } = {},
) {
  requireLevel(viewer, 'Staff');
  const where: Record<string, unknown> = {};
  if (f.courseSection) {
    where.CourseSectionID = (await required(deps, 'Section', f.courseSection, 'course_section')).ID;
  } else if (f.term) {
    const term = await required(deps, 'Term', f.term, 'term');
    where.section = { TermID: { in: await subtreeIds(deps, KINDS.Term, term.ID) } };
  }
  if (f.student) where.PersonID = (await required(deps, 'Person', f.student === CURRENT ? viewer.personId! : f.student, 'student')).ID;
  if (f.role) where.Role = { in: f.role.split(',').map((r) => r.trim()) };
  const take = Math.min(page.limit || BROWSE_MAX_LIMIT, BROWSE_MAX_LIMIT);
  const skip = page.limit ? page.offset || 0 : 0;
  const [records, total] = await Promise.all([
    deps.db.sectionParticipant.findMany({ where, orderBy: { ID: 'asc' }, take, skip, include: { person: !!page.person, section: !!page.section } }),
    deps.db.sectionParticipant.count({ where }),
  ]);
  return { records, total, limit: page.limit ? take : total > BROWSE_MAX_LIMIT ? BROWSE_MAX_LIMIT : null };
}
