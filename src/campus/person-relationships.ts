// How one person is related to another (Slate's Emergence\People\Relationship, /relationships):
// the row (PersonID, RelatedPersonID, Label "mother") says RelatedPerson is Person's mother;
// a GuardianRelationship row makes RelatedPerson a guardian of Person (their ward). Each row
// is kept in step with its inverse (RelatedPerson's row about Person: "son", "daughter",
// "child"), named by Slate's relationship templates (relationship-templates.ts): created with
// it, relabelled with it, deleted with it. Every write is one transaction.
import type { PersonRelationship } from '../generated/prisma/client.ts';
import type { Viewer } from './viewer.ts';
import { requireLevel } from './access.ts';
import { GUARDIAN_CLASS, readablePeople, RELATIONSHIP_CLASS, requireContactsReadable } from './contact-access.ts';
import type { CampusDeps } from './lookup.ts';
import { parseId } from './limits.ts';
import { writeTransaction } from './transaction.ts';
import { peopleChanged } from './people-changed.ts';
import { inverseLabel, templateClass } from './relationship-templates.ts';
import { notFound, RecordValidationError } from '../shared/errors.ts';
import { holdsNul } from '../shared/stored-text.ts';

export const RELATIONSHIP_CLASSES = [RELATIONSHIP_CLASS, GUARDIAN_CLASS] as const;

export interface RelationshipInput {
  PersonID?: unknown;
  RelatedPersonID?: unknown;
  /** Slate's RelatedPerson: {ID} picks a person (creating one from the object is not supported). */
  RelatedPerson?: unknown;
  Label?: unknown;
  /** The field's name before Slate renamed it Label; read as Label. */
  Relationship?: unknown;
  Notes?: unknown;
  Class?: unknown;
  /** The inverse row's Label and Class, when the templates should not choose them. */
  InverseRelationship?: unknown;
}

function relationshipClass(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const full = raw.includes('\\') ? raw : `Emergence\\People\\${raw}`;
  return (RELATIONSHIP_CLASSES as readonly string[]).includes(full) ? full : null;
}

const absent = (v: unknown) => v === undefined || v === null || v === '';

interface Resolved {
  PersonID: number;
  RelatedPersonID: number;
  Label: string;
  Notes: string | null;
  Class: string;
  inverse: { Label?: string; Class?: string };
}

async function resolveInput(deps: CampusDeps, input: RelationshipInput, existing: PersonRelationship | null): Promise<Resolved> {
  const errors: Record<string, string> = {};
  const text = (name: string, v: unknown, max: number): string | undefined => {
    if (absent(v)) return undefined;
    if ((typeof v !== 'string' && typeof v !== 'number') || holdsNul(String(v))) return void (errors[name] = `${name} is invalid.`);
    if (String(v).length > max) return void (errors[name] = `${name} is too long.`);
    return String(v).trim();
  };
  const person = async (raw: unknown) => {
    const id = parseId(raw);
    return id === null ? null : deps.db.person.findUnique({ where: { ID: id }, select: { ID: true, Gender: true } });
  };
  const personRaw = absent(input.PersonID) ? existing?.PersonID : input.PersonID;
  const p = personRaw === undefined ? null : await person(personRaw);
  if (!p) errors.Person = 'Person is required';
  const picked = input.RelatedPerson && typeof input.RelatedPerson === 'object' ? (input.RelatedPerson as { ID?: unknown }).ID : undefined;
  const relatedRaw = !absent(picked) ? picked : absent(input.RelatedPersonID) ? existing?.RelatedPersonID : input.RelatedPersonID;
  const r = relatedRaw === undefined ? null : await person(relatedRaw);
  if (!r) errors.RelatedPerson = 'Related person must be a full name or match an existing person';
  const label = text('Label', input.Label ?? input.Relationship, 255) ?? (input.Label === undefined && input.Relationship === undefined ? existing?.Relationship ?? undefined : undefined);
  if (!label && !errors.Label) errors.Label = 'A label is required';
  const notes = input.Notes === undefined ? existing?.Notes ?? null : text('Notes', input.Notes, 255) ?? null;
  let cls: string | null = existing?.Class ?? null;
  if (!absent(input.Class)) {
    cls = relationshipClass(input.Class);
    if (!cls) errors.Class = `Class must be one of: ${RELATIONSHIP_CLASSES.join(', ')}`;
  } else if (label && (!existing || label !== existing.Relationship)) {
    // A new label brings its template's class (Mother: a guardian), as Slate's applyRecordDelta does for a new row.
    cls = templateClass(label) ?? (existing ? existing.Class : RELATIONSHIP_CLASS);
  }
  const inverse: Resolved['inverse'] = {};
  if (input.InverseRelationship !== undefined && input.InverseRelationship !== null) {
    const inv = input.InverseRelationship;
    if (typeof inv !== 'object' || Array.isArray(inv)) errors.InverseRelationship = 'InverseRelationship is invalid.';
    else {
      const { Label: invLabel, Class: invClass } = inv as Record<string, unknown>;
      inverse.Label = text('InverseRelationship', invLabel, 255);
      if (!absent(invClass)) {
        const c = relationshipClass(invClass);
        if (!c) errors.InverseRelationship = `Class must be one of: ${RELATIONSHIP_CLASSES.join(', ')}`;
        else inverse.Class = c;
      }
    }
  }
  if (p && r && !Object.keys(errors).length && (!existing || existing.PersonID !== p.ID || existing.RelatedPersonID !== r.ID)) {
    if (p.ID === r.ID) errors.RelatedPerson = 'A person can not be related to themselves';
    else {
      const dup = await deps.db.personRelationship.findFirst({ where: { PersonID: p.ID, RelatedPersonID: r.ID, ...(existing ? { ID: { not: existing.ID } } : {}) } });
      if (dup) errors.RelatedPerson = 'There is already a relationship defined between these people';
    }
  }
  if (Object.keys(errors).length) throw new RecordValidationError(errors, { ...input });
  if (!inverse.Label) {
    const derived = inverseLabel(label!, p!.Gender);
    if (derived) inverse.Label = derived;
  }
  return { PersonID: p!.ID, RelatedPersonID: r!.ID, Label: label!, Notes: notes, Class: cls ?? RELATIONSHIP_CLASS, inverse };
}

/**
 * Writes the inverse of `row` (RelatedPerson's row about Person): created or relabelled when a
 * label is known (given, or from the templates); left as it is when none is (a label the
 * templates do not know, with no inverse given: decisions.md).
 */
async function syncInverse(deps: CampusDeps, viewer: Viewer, row: PersonRelationship, inverse: Resolved['inverse']) {
  const existing = await deps.db.personRelationship.findUnique({ where: { PersonID_RelatedPersonID: { PersonID: row.RelatedPersonID, RelatedPersonID: row.PersonID } } });
  if (!inverse.Label) return existing;
  const Class = inverse.Class ?? templateClass(inverse.Label) ?? existing?.Class ?? RELATIONSHIP_CLASS;
  const now = deps.clock.now();
  if (existing) {
    if (existing.Relationship === inverse.Label && existing.Class === Class) return existing;
    return deps.db.personRelationship.update({ where: { ID: existing.ID }, data: { Relationship: inverse.Label, Class, Modified: now, ModifierID: viewer.personId } });
  }
  return deps.db.personRelationship.create({
    data: { PersonID: row.RelatedPersonID, RelatedPersonID: row.PersonID, Relationship: inverse.Label, Class, Created: now, CreatorID: viewer.personId },
  });
}

export interface RelationshipWrite {
  relationship: PersonRelationship;
  inverse: PersonRelationship | null;
}

export async function createRelationship(deps: CampusDeps, viewer: Viewer, input: RelationshipInput): Promise<RelationshipWrite> {
  requireLevel(viewer, 'Staff');
  return writeTransaction(deps, async (tx) => {
    const v = await resolveInput(tx, input, null);
    const relationship = await tx.db.personRelationship.create({
      data: { PersonID: v.PersonID, RelatedPersonID: v.RelatedPersonID, Relationship: v.Label, Notes: v.Notes, Class: v.Class, Created: tx.clock.now(), CreatorID: viewer.personId },
    });
    const inverse = await syncInverse(tx, viewer, relationship, v.inverse);
    await peopleChanged(tx, [relationship.PersonID, relationship.RelatedPersonID]);
    return { relationship, inverse };
  });
}

async function requireRelationship(deps: CampusDeps, ident: string | number): Promise<PersonRelationship> {
  const id = parseId(ident);
  const row = id === null ? null : await deps.db.personRelationship.findUnique({ where: { ID: id } });
  if (!row) throw notFound('Record not found');
  return row;
}

export async function editRelationship(deps: CampusDeps, viewer: Viewer, ident: string | number, input: RelationshipInput): Promise<RelationshipWrite> {
  requireLevel(viewer, 'Staff');
  return writeTransaction(deps, async (tx) => {
    const existing = await requireRelationship(tx, ident);
    const v = await resolveInput(tx, input, existing);
    // The label did not change and no inverse was given: the inverse stays as it is.
    if (v.Label === existing.Relationship && !(input.InverseRelationship && typeof input.InverseRelationship === 'object')) delete v.inverse.Label;
    const moved = existing.PersonID !== v.PersonID || existing.RelatedPersonID !== v.RelatedPersonID;
    if (moved) {
      // Between other people now: the old pair's inverse would describe a relationship that is gone.
      await tx.db.personRelationship.deleteMany({ where: { PersonID: existing.RelatedPersonID, RelatedPersonID: existing.PersonID } });
      if (!v.inverse.Label) v.inverse.Label = inverseLabel(v.Label, (await tx.db.person.findUnique({ where: { ID: v.PersonID }, select: { Gender: true } }))?.Gender ?? null) ?? undefined;
    }
    const relationship = await tx.db.personRelationship.update({
      where: { ID: existing.ID },
      data: { PersonID: v.PersonID, RelatedPersonID: v.RelatedPersonID, Relationship: v.Label, Notes: v.Notes, Class: v.Class, Modified: tx.clock.now(), ModifierID: viewer.personId },
    });
    const inverse = await syncInverse(tx, viewer, relationship, v.inverse);
    await peopleChanged(tx, [existing.PersonID, existing.RelatedPersonID, relationship.PersonID, relationship.RelatedPersonID]);
    return { relationship, inverse };
  });
}

/** Slate's Relationship::setRelationship: creates the pair's row, or updates it when there is one. */
export async function setRelationship(deps: CampusDeps, viewer: Viewer, input: RelationshipInput): Promise<RelationshipWrite> {
  requireLevel(viewer, 'Staff');
  return writeTransaction(deps, async (tx) => {
    const [personId, relatedId] = [parseId(input.PersonID), parseId(input.RelatedPersonID)];
    const existing = personId !== null && relatedId !== null ? await tx.db.personRelationship.findUnique({ where: { PersonID_RelatedPersonID: { PersonID: personId, RelatedPersonID: relatedId } } }) : null;
    return existing ? editRelationship(tx, viewer, existing.ID, input) : createRelationship(tx, viewer, input);
  });
}

/** Deletes the row and its inverse together. */
export async function deleteRelationship(deps: CampusDeps, viewer: Viewer, ident: string | number): Promise<RelationshipWrite> {
  requireLevel(viewer, 'Staff');
  return writeTransaction(deps, async (tx) => {
    const relationship = await requireRelationship(tx, ident);
    const inverse = await tx.db.personRelationship.findUnique({ where: { PersonID_RelatedPersonID: { PersonID: relationship.RelatedPersonID, RelatedPersonID: relationship.PersonID } } });
    await tx.db.personRelationship.deleteMany({ where: { ID: { in: [relationship.ID, ...(inverse ? [inverse.ID] : [])] } } });
    await peopleChanged(tx, [relationship.PersonID, relationship.RelatedPersonID]);
    return { relationship, inverse };
  });
}

export async function getRelationship(deps: CampusDeps, viewer: Viewer, ident: string | number): Promise<PersonRelationship> {
  requireLevel(viewer, 'User');
  const row = await requireRelationship(deps, ident);
  await requireContactsReadable(deps, viewer, row.PersonID);
  return row;
}

/** Slate's /relationships browse: Staff see all; others with `person=` naming themselves or a ward. */
export async function browseRelationships(deps: CampusDeps, viewer: Viewer, options: { person?: number; limit?: number; offset?: number }) {
  requireLevel(viewer, 'User');
  if (options.person !== undefined) await requireContactsReadable(deps, viewer, options.person);
  else requireLevel(viewer, 'Staff');
  const where = options.person !== undefined ? { PersonID: options.person } : {};
  const [records, total] = await Promise.all([
    deps.db.personRelationship.findMany({ where, orderBy: { ID: 'asc' }, skip: options.offset, take: options.limit }),
    deps.db.personRelationship.count({ where }),
  ]);
  return { records, total };
}

/** Each record's inverse row (or null), in one query: Slate's InverseRelationship dynamic field. */
export async function inversesOf(deps: CampusDeps, rows: readonly PersonRelationship[]): Promise<Map<number, PersonRelationship | null>> {
  if (!rows.length) return new Map();
  const found = await deps.db.personRelationship.findMany({ where: { OR: rows.map((r) => ({ PersonID: r.RelatedPersonID, RelatedPersonID: r.PersonID })) } });
  const byPair = new Map(found.map((f) => [`${f.PersonID}:${f.RelatedPersonID}`, f]));
  return new Map(rows.map((r) => [r.ID, byPair.get(`${r.RelatedPersonID}:${r.PersonID}`) ?? null]));
}

export { readablePeople };
