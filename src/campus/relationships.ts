// Relationships between campus records, each loaded for a whole list of records in one
// query (no N+1): REST's ?include= and the GraphQL resolvers both use these loaders.
import type { Viewer } from './auth.ts';
import { requireLevel } from './access.ts';
import { findRecord, type CampusDeps, type CampusRecord } from './lookup.ts';
import { KINDS, type KindName, type KindSpec } from './kinds.ts';
import type { Relation } from './relation.ts';
import { notFound, validationError } from '../shared/errors.ts';
import { commentsOf } from './comments.ts';
import { NOTES_RELATION } from './notes.ts';
import { mappingsRelation } from './mappings.ts';
import { writeTransaction } from './transaction.ts';
import { PERSON_CONTACT_RELATIONS } from './person-contact-relations.ts';
import { contentItemsRelation } from './content-items.ts';
import { PERSON_MEDIA_RELATIONS } from './media/relations.ts';

export const PARTICIPANT_ROLES = ['Observer', 'Student', 'Assistant', 'Teacher'] as const;
export const MEMBER_ROLES = ['Member', 'Administrator', 'Owner', 'Founder'] as const;

export type { Relation } from './relation.ts';

const ids = (records: CampusRecord[], field: string) => [...new Set(records.map((r) => r[field]).filter((v): v is number => typeof v === 'number'))];

function one(target: KindName, field: string): Relation {
  return {
    kind: target,
    many: false,
    async load(deps, records) {
      const spec = KINDS[target];
      const d = (deps.db as unknown as Record<string, { findMany(a: object): Promise<CampusRecord[]> }>)[spec.model]!;
      const rows = await d.findMany({ where: { ID: { in: ids(records, field) } } });
      const byId = new Map(rows.map((r) => [r.ID, r]));
      return new Map(records.map((r) => [r.ID, byId.get(r[field] as number) ?? null]));
    },
  };
}

function group<T extends { key: number }>(records: CampusRecord[], rows: T[]): Map<number, unknown> {
  const out = new Map<number, unknown[]>(records.map((r) => [r.ID, []]));
  for (const row of rows) out.get(row.key)?.push(row);
  return out as Map<number, unknown>;
}

function participants(role?: string): Relation {
  return {
    kind: role ? 'Person' : 'SectionParticipant',
    many: true,
    async load(deps, records) {
      const rows = await deps.db.sectionParticipant.findMany({
        where: { CourseSectionID: { in: records.map((r) => r.ID) }, ...(role ? { Role: role } : {}) },
        include: { person: !!role },
        orderBy: [{ Role: 'desc' }, { ID: 'asc' }],
      });
      return group(records, rows.map((p) => ({ key: p.CourseSectionID, ...(role ? p.person : p) })));
    },
  };
}

const comments = (name: KindName): Relation => ({ kind: 'Comment', many: true, load: (deps, records) => commentsOf(deps, KINDS[name], records) });

const tags: Relation = {
  kind: 'Tag',
  many: true,
  async load(deps, records) {
    const rows = await deps.db.contentTag.findMany({ where: { ContentID: { in: records.map((r) => r.ID) } }, include: { tag: true }, orderBy: { TagID: 'asc' } });
    return group(records, rows.map((t) => ({ key: t.ContentID, ...t.tag })));
  },
};

function contactPoint(field: string): Relation {
  return {
    kind: 'ContactPoint',
    many: false,
    readLevel: 'Staff',
    async load(deps, records) {
      const rows = await deps.db.contactPoint.findMany({ where: { ID: { in: ids(records, field) } } });
      const byId = new Map(rows.map((r) => [r.ID, r]));
      return new Map(records.map((r) => [r.ID, byId.get(r[field] as number) ?? null]));
    },
  };
}

export const RELATIONS: Record<KindName, Record<string, Relation>> = {
  Person: {
    PrimaryEmail: contactPoint('PrimaryEmailID'),
    PrimaryPhone: contactPoint('PrimaryPhoneID'),
    PrimaryPostal: contactPoint('PrimaryPostalID'),
    ...PERSON_CONTACT_RELATIONS,
    Comments: comments('Person'),
    // Slate's Person has `Notes` and `Mapping`; `Mappings` as sections name theirs.
    Notes: NOTES_RELATION,
    Mapping: mappingsRelation('Person'),
    Mappings: mappingsRelation('Person'),
    ...PERSON_MEDIA_RELATIONS,
    Groups: {
      kind: 'Group',
      many: true,
      async load(deps, records) {
        const rows = await deps.db.groupMember.findMany({ where: { PersonID: { in: records.map((r) => r.ID) } }, include: { group: true }, orderBy: { ID: 'asc' } });
        return group(records, rows.map((m) => ({ key: m.PersonID, ...m.group })));
      },
    },
    GroupMemberships: {
      kind: 'GroupMember',
      many: true,
      async load(deps, records) {
        const rows = await deps.db.groupMember.findMany({ where: { PersonID: { in: records.map((r) => r.ID) } }, orderBy: { ID: 'asc' } });
        return group(records, rows.map((m) => ({ key: m.PersonID, ...m })));
      },
    },
  },
  Section: {
    Mappings: mappingsRelation('Section'),
    Course: one('Course', 'CourseID'),
    Term: one('Term', 'TermID'),
    Location: one('Location', 'LocationID'),
    Schedule: one('Schedule', 'ScheduleID'),
    Participants: participants(),
    Teachers: participants('Teacher'),
    Students: participants('Student'),
  },
  Course: {
    Department: one('Department', 'DepartmentID'),
    Sections: {
      kind: 'Section',
      many: true,
      async load(deps, records) {
        const rows = await deps.db.section.findMany({ where: { CourseID: { in: records.map((r) => r.ID) } }, orderBy: { Code: 'asc' } });
        return group(records, rows.map((s) => ({ key: s.CourseID, ...s })));
      },
    },
  },
  // `tags` is Slate's name for the dynamic field; `Tags` the relationship's.
  BlogPost: { Author: one('Person', 'AuthorID'), Tags: tags, tags, Comments: comments('BlogPost'), Items: contentItemsRelation, items: contentItemsRelation },
  Page: { Author: one('Person', 'AuthorID'), Tags: tags, tags, Comments: comments('Page'), Items: contentItemsRelation, items: contentItemsRelation },
  Group: {
    Parent: one('Group', 'ParentID'),
    Members: {
      kind: 'GroupMember',
      many: true,
      async load(deps, records) {
        const rows = await deps.db.groupMember.findMany({ where: { GroupID: { in: records.map((r) => r.ID) } }, orderBy: { ID: 'asc' } });
        return group(records, rows.map((m) => ({ key: m.GroupID, ...m })));
      },
    },
    People: {
      kind: 'Person',
      many: true,
      async load(deps, records) {
        const rows = await deps.db.groupMember.findMany({ where: { GroupID: { in: records.map((r) => r.ID) } }, include: { person: true }, orderBy: { ID: 'asc' } });
        return group(records, rows.map((m) => ({ key: m.GroupID, ...m.person })));
      },
    },
  },
  Location: { Parent: one('Location', 'ParentID') },
  Term: { Parent: one('Term', 'ParentID') },
  Department: {
    Courses: {
      kind: 'Course',
      many: true,
      async load(deps, records) {
        const rows = await deps.db.course.findMany({ where: { DepartmentID: { in: records.map((r) => r.ID) } }, orderBy: { Code: 'asc' } });
        return group(records, rows.map((c) => ({ key: c.DepartmentID!, ...c })));
      },
    },
  },
  Schedule: {
    Sections: {
      kind: 'Section',
      many: true,
      async load(deps, records) {
        const rows = await deps.db.section.findMany({ where: { ScheduleID: { in: records.map((r) => r.ID) } }, orderBy: { Code: 'asc' } });
        return group(records, rows.map((s) => ({ key: s.ScheduleID!, ...s })));
      },
    },
  },
};

/** The blog posts (or pages) whose context is each record (e.g. a section's blog). */
export async function contextContent(deps: CampusDeps, kind: KindSpec, records: CampusRecord[], className = KINDS.BlogPost.className) {
  const rows = await deps.db.content.findMany({
    where: { ContextClass: kind.className, ContextID: { in: records.map((r) => r.ID) }, Class: className },
    orderBy: [{ Published: 'desc' }, { ID: 'desc' }],
  });
  return group(records, rows.map((c) => ({ key: c.ContextID!, ...c })));
}

async function requireOne(deps: CampusDeps, kind: KindSpec, ident: string | number) {
  const record = await findRecord(deps, kind, ident);
  // The identifier is echoed, shortened: it can be anything up to the request's size.
  if (!record) throw notFound(`${kind.noun} not found: ${String(ident).length > 100 ? `${String(ident).slice(0, 100)}…` : ident}`);
  return record;
}

/** Adds or updates a person's participation in a section (Slate updates on a duplicate pair). */
export async function setSectionParticipant(deps: CampusDeps, viewer: Viewer, sectionIdent: string | number, personIdent: string | number, role: string) {
  requireLevel(viewer, 'Staff');
  if (!(PARTICIPANT_ROLES as readonly string[]).includes(role)) throw validationError(`Role must be one of ${PARTICIPANT_ROLES.join(', ')}`);
  const section = await requireOne(deps, KINDS.Section, sectionIdent);
  const person = await requireOne(deps, KINDS.Person, personIdent);
  return deps.db.sectionParticipant.upsert({
    where: { CourseSectionID_PersonID: { CourseSectionID: section.ID, PersonID: person.ID } },
    create: { CourseSectionID: section.ID, PersonID: person.ID, Role: role, Created: deps.clock.now(), CreatorID: viewer.personId },
    update: { Role: role },
  });
}

export async function removeSectionParticipant(deps: CampusDeps, viewer: Viewer, sectionIdent: string | number, personIdent: string | number) {
  requireLevel(viewer, 'Staff');
  const section = await requireOne(deps, KINDS.Section, sectionIdent);
  const person = await requireOne(deps, KINDS.Person, personIdent);
  const removed = await deps.db.sectionParticipant.deleteMany({ where: { CourseSectionID: section.ID, PersonID: person.ID } });
  if (removed.count === 0) throw notFound('Record not found');
}

/** Slate's Person `groupIDs`: replaces all of a person's memberships with these groups. */
export async function setPersonGroups(deps: CampusDeps, viewer: Viewer, personIdent: string | number, groupIdents: Array<string | number>) {
  requireLevel(viewer, 'Staff');
  // One transaction (or the record write's, when called from it): all memberships change or none.
  return writeTransaction(deps, async (tx) => {
    const person = await requireOne(tx, KINDS.Person, personIdent);
    const groups: CampusRecord[] = [];
    for (const ident of groupIdents) {
      const g = await findRecord(tx, KINDS.Group, ident);
      if (!g) throw validationError(`Group ${ident} does not exist.`);
      groups.push(g);
    }
    const groupIds = [...new Set(groups.map((g) => g.ID))];
    await tx.db.groupMember.deleteMany({ where: { PersonID: person.ID, GroupID: { notIn: groupIds } } });
    for (const GroupID of groupIds) {
      await tx.db.groupMember.upsert({ where: { GroupID_PersonID: { GroupID, PersonID: person.ID } }, create: { GroupID, PersonID: person.ID, Joined: tx.clock.now() }, update: {} });
    }
    return groupIds;
  });
}

export async function setGroupMember(deps: CampusDeps, viewer: Viewer, groupIdent: string | number, personIdent: string | number, role = 'Member') {
  requireLevel(viewer, 'Staff');
  if (!(MEMBER_ROLES as readonly string[]).includes(role)) throw validationError(`Role must be one of ${MEMBER_ROLES.join(', ')}`);
  const g = await requireOne(deps, KINDS.Group, groupIdent);
  const person = await requireOne(deps, KINDS.Person, personIdent);
  return deps.db.groupMember.upsert({
    where: { GroupID_PersonID: { GroupID: g.ID, PersonID: person.ID } },
    create: { GroupID: g.ID, PersonID: person.ID, Role: role, Joined: deps.clock.now() },
    update: { Role: role },
  });
}
