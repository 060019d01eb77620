// A person's ContactPoints, Relationships, GuardianRelationships, Guardians and Wards as
// Slate's Person relationships (Emergence\People\Person, php-config slate-guardians.php and
// slate-wards.php), each loaded for a whole list in one query for REST's ?include= and GraphQL.
// Only callers who may read a person's contacts see them (contact-access.ts), per record.
import type { PersonRelationship } from '../generated/prisma/client.ts';
import type { Relation } from './relation.ts';
import type { CampusDeps, CampusRecord } from './lookup.ts';
import { GUARDIAN_CLASS, readablePeople } from './contact-access.ts';

function group(records: CampusRecord[], rows: Array<{ key: number }>): Map<number, unknown> {
  const out = new Map<number, unknown[]>(records.map((r) => [r.ID, []]));
  for (const row of rows) out.get(row.key)?.push(row);
  return out as Map<number, unknown>;
}

/** A relationship row in Slate's JSON field names (the stored `Relationship` column is Slate's `Label`). */
export function relationshipJson(r: PersonRelationship): Record<string, unknown> {
  return {
    ID: r.ID,
    Class: r.Class,
    Created: r.Created,
    CreatorID: r.CreatorID,
    RevisionID: null,
    Modified: r.Modified,
    ModifierID: r.ModifierID,
    PersonID: r.PersonID,
    RelatedPersonID: r.RelatedPersonID,
    Label: r.Relationship,
    Notes: r.Notes,
  };
}

const readable = (deps: CampusDeps, viewer: Parameters<typeof readablePeople>[1], records: CampusRecord[]) => readablePeople(deps, viewer, records.map((r) => r.ID));
const personIds = (records: CampusRecord[]) => records.map((r) => r.ID);

export const PERSON_CONTACT_RELATIONS: Record<string, Relation> = {
  ContactPoints: {
    kind: 'ContactPoint',
    many: true,
    readable,
    async load(deps, records) {
      const rows = await deps.db.contactPoint.findMany({ where: { PersonID: { in: personIds(records) } }, orderBy: { ID: 'asc' } });
      return group(records, rows.map((p) => ({ key: p.PersonID, ...p })));
    },
  },
  Relationships: {
    kind: 'PersonRelationship',
    many: true,
    readable,
    async load(deps, records) {
      const rows = await deps.db.personRelationship.findMany({ where: { PersonID: { in: personIds(records) } }, orderBy: { ID: 'asc' } });
      return group(records, rows.map((r) => ({ key: r.PersonID, ...relationshipJson(r) })));
    },
  },
  GuardianRelationships: {
    kind: 'PersonRelationship',
    many: true,
    readable,
    async load(deps, records) {
      const rows = await deps.db.personRelationship.findMany({ where: { PersonID: { in: personIds(records) }, Class: GUARDIAN_CLASS }, orderBy: { ID: 'asc' } });
      return group(records, rows.map((r) => ({ key: r.PersonID, ...relationshipJson(r) })));
    },
  },
  Guardians: {
    kind: 'Person',
    many: true,
    readable,
    async load(deps, records) {
      const rows = await deps.db.personRelationship.findMany({ where: { PersonID: { in: personIds(records) }, Class: GUARDIAN_CLASS }, include: { relatedPerson: true }, orderBy: { ID: 'asc' } });
      return group(records, rows.map((r) => ({ ...r.relatedPerson, key: r.PersonID })));
    },
  },
  Wards: {
    kind: 'Person',
    many: true,
    readable,
    async load(deps, records) {
      const rows = await deps.db.personRelationship.findMany({ where: { RelatedPersonID: { in: personIds(records) }, Class: GUARDIAN_CLASS }, include: { person: true }, orderBy: { ID: 'asc' } });
      return group(records, rows.map((r) => ({ ...r.person, key: r.RelatedPersonID })));
    },
  },
};
