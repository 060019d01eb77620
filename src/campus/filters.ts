// Slate's browse filters (SectionsRequestHandler, BlogRequestHandler, GroupsRequestHandler):
// each names a record by ID, handle or code; one that names nothing is a 404
// "<param> not found", as Slate's getRequested* helpers answer.
import { notFound } from '../shared/errors.ts';
import { holdsNul } from '../shared/stored-text.ts';
import { isStaff, requireLevel } from './access.ts';
import type { Viewer } from './auth.ts';
import { KINDS, type KindName, type KindSpec } from './kinds.ts';
import { parseId } from './limits.ts';
import { findRecord, type CampusDeps, type CampusRecord } from './lookup.ts';
import { relatedIds } from './tree.ts';

/** Slate's magic value for "the current term" and "the caller" (`*current`). */
export const CURRENT = '*current';

export interface BrowseFilters {
  /** Sections of a term (ID, handle or `*current`), of the terms inside it and of those containing it. */
  term?: string;
  /** Sections of a course (ID, handle or code). */
  course?: string;
  /** Sections in a location (ID or handle). */
  location?: string;
  /** Sections on a schedule (ID or handle). */
  schedule?: string;
  /** Sections of the courses in a department (ID or handle). */
  department?: string;
  /** Sections a person takes part in (ID, username, email or `*current`); needs a login. */
  enrolledUser?: string;
  /** Blog posts and pages by this author ID. */
  author?: string;
  /** Groups directly inside this group (ID or handle). */
  parentGroup?: string;
  /** Only groups without a parent (Slate's default group listing). */
  topLevel?: boolean;
  /** Groups whose name contains this text. */
  query?: string;
  /** People: leave out Disabled accounts (Slate's people browse, unless `status=*`). */
  activePeopleOnly?: boolean;
}

type Where = Record<string, unknown>;
export interface ResolvedFilters {
  where: Where[];
  /** What Slate echoes as `conditions`: the keyed conditions the filters added. */
  conditions: Record<string, unknown>;
  /** The records the filters named (Slate adds them to the browse response: Term, Course ...). */
  objects: Record<string, CampusRecord>;
}

const NOTHING: Where = { ID: { in: [] } };

async function required(deps: CampusDeps, name: KindName, ident: string | number, param: string) {
  const record = await findRecord(deps, KINDS[name], ident);
  if (!record) throw notFound(`${param} not found`);
  return record;
}

/** Slate's Term::getClosest: the narrowest term covering today, else the next one, else the last one. */
async function closestTerm(deps: CampusDeps): Promise<CampusRecord> {
  const today = deps.clock.now().toISOString().slice(0, 10);
  const covering = await deps.db.term.findMany({ where: { StarDate: { lte: today }, EndDate: { gte: today } } });
  const span = (t: { StarDate: string | null; EndDate: string | null }) => Date.parse(t.EndDate!) - Date.parse(t.StarDate!);
  const current = covering.sort((a, b) => span(a) - span(b) || a.ID - b.ID)[0];
  const term =
    current ??
    (await deps.db.term.findFirst({ where: { Status: 'Live', StarDate: { gt: today } }, orderBy: [{ StarDate: 'asc' }, { ID: 'asc' }] })) ??
    (await deps.db.term.findFirst({ where: { Status: 'Live', EndDate: { lt: today } }, orderBy: [{ EndDate: 'desc' }, { ID: 'asc' }] }));
  if (!term) throw notFound('no current term found');
  return term as CampusRecord;
}

async function sectionFilters(deps: CampusDeps, viewer: Viewer, f: BrowseFilters, out: ResolvedFilters) {
  if (f.term) {
    const term = f.term === CURRENT ? await closestTerm(deps) : await required(deps, 'Term', f.term, 'term');
    const ids = await relatedIds(deps, KINDS.Term, term.ID);
    out.where.push({ TermID: { in: ids } });
    out.conditions.TermID = { values: ids };
    out.objects.Term = term;
  }
  for (const [param, name, field] of [['course', 'Course', 'CourseID'], ['location', 'Location', 'LocationID'], ['schedule', 'Schedule', 'ScheduleID']] as const) {
    if (!f[param]) continue;
    const record = await required(deps, name, f[param], param);
    out.where.push({ [field]: record.ID });
    out.conditions[field] = record.ID;
    out.objects[name] = record;
  }
  if (f.department) {
    // A section has no DepartmentID: it is in the department its course is in.
    const department = await required(deps, 'Department', f.department, 'department');
    out.where.push({ course: { DepartmentID: department.ID } });
    out.objects.Department = department;
  }
  if (f.enrolledUser) {
    // Slate asks anonymous callers to log in, and answers "not found" for someone else's
    // enrolment unless the caller is Staff (we have no guardians to let through).
    requireLevel(viewer, 'User');
    const person = await required(deps, 'Person', f.enrolledUser === CURRENT ? viewer.personId! : f.enrolledUser, 'enrolled_user');
    if (!isStaff(viewer) && person.ID !== viewer.personId) throw notFound('enrolled_user not found');
    out.where.push({ participants: { some: { PersonID: person.ID } } });
    out.objects.EnrolledUser = person;
  }
}

async function groupFilters(deps: CampusDeps, f: BrowseFilters, out: ResolvedFilters) {
  if (f.parentGroup) {
    // Slate compares ParentID with the value as given; a handle is our addition.
    const id = parseId(f.parentGroup) ?? (await findRecord(deps, KINDS.Group, f.parentGroup))?.ID;
    out.where.push(id === undefined ? NOTHING : { ParentID: id });
    out.conditions.ParentID = id ?? null;
  } else if (f.topLevel) {
    out.where.push({ ParentID: null });
    out.conditions.ParentID = null;
  }
  // No stored name holds NUL (and PostgreSQL could not compare one): such a query finds nothing.
  if (f.query) out.where.push(holdsNul(f.query) ? NOTHING : deps.search.contains('Name', f.query));
}

/** The filters that apply to `kind` as Prisma conditions; filters of other kinds are ignored, as Slate ignores unknown parameters. */
export async function resolveFilters(deps: CampusDeps, viewer: Viewer, kind: KindSpec, f: BrowseFilters = {}): Promise<ResolvedFilters> {
  const out: ResolvedFilters = { where: [], conditions: {}, objects: {} };
  if (kind.name === 'Section') await sectionFilters(deps, viewer, f, out);
  if (kind.name === 'Group') await groupFilters(deps, f, out);
  // People without an account have no level: they are not Disabled, and are listed.
  if (kind.name === 'Person' && f.activePeopleOnly) out.where.push({ OR: [{ AccountLevel: null }, { AccountLevel: { not: 'Disabled' } }] });
  if (kind.model === 'content' && f.author) {
    // Slate compares AuthorID with the value as given: anything but an ID matches nobody.
    const id = parseId(f.author);
    out.where.push(id === null ? NOTHING : { AuthorID: id });
    out.conditions.AuthorID = id;
  }
  return out;
}
