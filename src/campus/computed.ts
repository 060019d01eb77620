// Slate's computed dynamic fields, each loaded for a whole list of records at once: every
// record's `recordURL` and `recordTitle`; a group's `FullPath` and `Population`; a section's
// `StudentsCount`; a person's `groupIDs`. REST names them in `?include=`.
import { canRead } from './access.ts';
import type { Viewer } from './auth.ts';
import { hasLevel, KINDS, type KindName, type KindSpec } from './kinds.ts';
import type { CampusDeps, CampusRecord } from './lookup.ts';
import { fullPaths, subtreesOf } from './tree.ts';

export type Computed = (deps: CampusDeps, viewer: Viewer, records: CampusRecord[]) => Promise<Map<number, unknown>>;

const each = (records: CampusRecord[], value: (r: CampusRecord) => unknown) => new Map(records.map((r) => [r.ID, value(r)]));

/** The identifier a record's URL uses: the Handle (people: the Username, else the ID). */
const handleOf = (kind: KindSpec, r: CampusRecord) => (kind.name === 'Person' ? (r.Username ?? r.ID) : (r.Handle ?? r.ID));

/** Slate's getURL: the collection path and the record's handle. */
const recordURL = (kind: KindSpec): Computed => async (_deps, _viewer, records) => each(records, (r) => `/${kind.prefix}/${handleOf(kind, r)}`);

/** Slate's getTitle per class. */
function recordTitle(kind: KindSpec): Computed {
  return async (deps, viewer, records) => {
    switch (kind.name) {
      case 'Person':
        // A User's title is "username (AccountLevel)"; the level only for those who may see it.
        return each(records, (r) =>
          r.Username && (hasLevel(viewer.level, 'Staff') || r.ID === viewer.personId) ? `${r.Username} (${r.AccountLevel})` : `${r.FirstName} ${r.LastName}`,
        );
      case 'Section':
        return sectionTitles(deps, records);
      case 'Group':
        return each(records, (r) => r.Name);
      default:
        return each(records, (r) => r.Title || `${r.Class ?? kind.className} #${r.ID}`);
    }
  };
}

/** An untitled section is named for its course and teachers: "Algebra · Smith/Jones". */
async function sectionTitles(deps: CampusDeps, records: CampusRecord[]) {
  const untitled = records.filter((r) => !r.Title);
  const [courses, teachers] = await Promise.all([
    deps.db.course.findMany({ where: { ID: { in: untitled.map((r) => r.CourseID as number) } }, select: { ID: true, Title: true } }),
    deps.db.sectionParticipant.findMany({
      where: { CourseSectionID: { in: untitled.map((r) => r.ID) }, Role: 'Teacher' },
      select: { CourseSectionID: true, person: { select: { FirstName: true, LastName: true } } },
      orderBy: [{ person: { LastName: 'asc' } }, { person: { FirstName: 'asc' } }],
    }),
  ]);
  const courseTitle = new Map(courses.map((c) => [c.ID, c.Title]));
  return each(records, (r) => {
    if (r.Title) return r.Title;
    const names = teachers.filter((t) => t.CourseSectionID === r.ID).map((t) => t.person.LastName);
    const course = courseTitle.get(r.CourseID as number) ?? '';
    return names.length ? `${course}\u00a0· ${names.join('/')}` : course;
  });
}

const COMMON = (kind: KindSpec): Record<string, Computed> => ({ recordURL: recordURL(kind), recordTitle: recordTitle(kind) });

export const COMPUTED: Record<KindName, Record<string, Computed>> = {
  Person: {
    ...COMMON(KINDS.Person),
    async groupIDs(deps, _viewer, records) {
      const rows = await deps.db.groupMember.findMany({ where: { PersonID: { in: records.map((r) => r.ID) } }, select: { PersonID: true, GroupID: true }, orderBy: { ID: 'asc' } });
      return each(records, (r) => rows.filter((m) => m.PersonID === r.ID).map((m) => m.GroupID));
    },
  },
  Section: {
    ...COMMON(KINDS.Section),
    async StudentsCount(deps, _viewer, records) {
      const rows = await deps.db.sectionParticipant.groupBy({ by: ['CourseSectionID'], where: { CourseSectionID: { in: records.map((r) => r.ID) }, Role: 'Student' }, _count: { _all: true } });
      const counts = new Map(rows.map((row) => [row.CourseSectionID, row._count._all]));
      return each(records, (r) => counts.get(r.ID) ?? 0);
    },
  },
  Course: COMMON(KINDS.Course),
  BlogPost: COMMON(KINDS.BlogPost),
  Page: COMMON(KINDS.Page),
  Group: {
    ...COMMON(KINDS.Group),
    // A Hidden ancestor's name is left out for callers who could not read that group itself.
    FullPath: async (deps, viewer, records) =>
      fullPaths(deps, KINDS.Group, records, 'Name', (ancestor) => canRead(KINDS.Group, viewer, ancestor, deps.clock.now())),
    // Membership rows of the group and every group inside it (a person in two counts twice, as in Slate).
    async Population(deps, _viewer, records) {
      const subtrees = await subtreesOf(deps, KINDS.Group, records);
      const all = [...new Set([...subtrees.values()].flat())];
      const rows = await deps.db.groupMember.groupBy({ by: ['GroupID'], where: { GroupID: { in: all } }, _count: { _all: true } });
      const counts = new Map(rows.map((row) => [row.GroupID, row._count._all]));
      return each(records, (r) => subtrees.get(r.ID)!.reduce((sum, id) => sum + (counts.get(id) ?? 0), 0));
    },
  },
  Location: COMMON(KINDS.Location),
  Term: COMMON(KINDS.Term),
  Department: COMMON(KINDS.Department),
  Schedule: COMMON(KINDS.Schedule),
};
