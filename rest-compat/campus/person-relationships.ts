// Slate's /relationships (Emergence\People\RelationshipsRequestHandler): browse with
// `person=`, *templates, read, create, edit, delete, save and destroy, and `?include=` of
// Person, RelatedPerson and InverseRelationship. A write answers the row; the inverse row the
// domain kept in step comes back as `InverseRelationship`.
import type { PersonRelationship } from '../../src/generated/prisma/client.ts';
import type { Viewer } from '../../src/campus/viewer.ts';
import { canRead, requireLevel } from '../../src/campus/access.ts';
import { KINDS } from '../../src/campus/kinds.ts';
import type { CampusDeps } from '../../src/campus/lookup.ts';
import {
  browseRelationships,
  createRelationship,
  deleteRelationship,
  editRelationship,
  getRelationship,
  inversesOf,
  type RelationshipInput,
  type RelationshipWrite,
} from '../../src/campus/person-relationships.ts';
import { relationshipTemplates } from '../../src/campus/relationship-templates.ts';
import { relationshipJson } from '../../src/campus/person-contact-relations.ts';
import { given, intParam } from './browse.ts';
import { includeParam, parseInclude } from './include.ts';
import { readFields } from './request.ts';
import { epoch, recordJson } from './serialize.ts';
import { destroyBatch, saveBatch, type BatchWrites } from './person-batch.ts';
import type { Route } from './handler.ts';

export function rowJson(r: PersonRelationship): Record<string, unknown> {
  const out = relationshipJson(r);
  out.Created = epoch(out.Created);
  out.Modified = epoch(out.Modified);
  return out;
}

const writeJson = (w: RelationshipWrite) => ({ ...rowJson(w.relationship), InverseRelationship: w.inverse ? rowJson(w.inverse) : null });

async function withIncludes(deps: CampusDeps, viewer: Viewer, rows: PersonRelationship[], query: URLSearchParams) {
  const include = parseInclude(includeParam(query));
  const all = include.has('*');
  const out = rows.map(rowJson);
  const names = ['Person', 'RelatedPerson'].filter((n) => all || include.has(n));
  if (names.length) {
    const ids = [...new Set(rows.flatMap((r) => [r.PersonID, r.RelatedPersonID]))];
    const people = new Map((await deps.db.person.findMany({ where: { ID: { in: ids } } })).map((p) => [p.ID, p as Record<string, unknown> & { ID: number }]));
    const now = deps.clock.now();
    const json = (id: number) => {
      const p = people.get(id);
      return p && canRead(KINDS.Person, viewer, p, now) ? recordJson(KINDS.Person, p, viewer) : null;
    };
    rows.forEach((r, i) => {
      if (names.includes('Person')) out[i]!.Person = json(r.PersonID);
      if (names.includes('RelatedPerson')) out[i]!.RelatedPerson = json(r.RelatedPersonID);
    });
  }
  if (all || include.has('InverseRelationship')) {
    const inverses = await inversesOf(deps, rows);
    rows.forEach((r, i) => {
      const inv = inverses.get(r.ID);
      out[i]!.InverseRelationship = inv ? rowJson(inv) : null;
    });
  }
  return out;
}

/** A body's fields as a relationship's input (the names Slate reads; `Relationship` is the label's older name). */
const input = (f: Record<string, unknown>): RelationshipInput => ({
  PersonID: f.PersonID,
  RelatedPersonID: f.RelatedPersonID,
  RelatedPerson: f.RelatedPerson,
  Label: f.Label,
  Relationship: f.Relationship,
  Notes: f.Notes,
  Class: f.Class,
  InverseRelationship: f.InverseRelationship,
});

export function registerRelationshipRoutes(route: Route, deps: CampusDeps) {
  const one = async (viewer: Viewer, w: RelationshipWrite, query: URLSearchParams) => ({ ...(await withIncludes(deps, viewer, [w.relationship], query))[0], InverseRelationship: w.inverse ? rowJson(w.inverse) : null });

  const writes: BatchWrites<RelationshipWrite> = {
    create: (tx, viewer, f) => createRelationship(tx, viewer, input(f)),
    edit: (tx, viewer, id, f) => editRelationship(tx, viewer, id, input(f)),
    remove: (tx, viewer, id) => deleteRelationship(tx, viewer, id),
    json: writeJson,
  };

  route(['GET', 'POST'], '/relationships', async ({ query, viewer }) => {
    const person = given(query.get('person'));
    const options = { person: person && /^\d+$/.test(person) ? intParam(person) : undefined, limit: intParam(query.get('limit')) || undefined, offset: intParam(query.get('offset')) };
    const result = await browseRelationships(deps, viewer, options);
    return {
      success: true,
      data: await withIncludes(deps, viewer, result.records, query),
      conditions: options.person !== undefined ? { PersonID: options.person } : [],
      total: result.total,
      limit: options.limit ?? false,
      offset: options.offset ?? false,
    };
  });

  route(['POST'], '/relationships/create', async ({ req, query, viewer }) => ({ success: true, data: await one(viewer, await createRelationship(deps, viewer, input(await readFields(req))), query) }));

  route(['POST'], '/relationships/save', async ({ req, viewer }) => saveBatch(deps, viewer, await readFields(req), writes));

  route(['POST'], '/relationships/destroy', async ({ req, viewer }) => destroyBatch(deps, viewer, await readFields(req), writes));

  route(['GET', 'POST'], '/relationships/:ident', async ({ query, viewer, params }) => {
    // Slate's `*templates`: every label, its class and gender, and its inverse labels.
    if (params.ident === '*templates') {
      requireLevel(viewer, 'Staff');
      return { success: true, data: relationshipTemplates() };
    }
    return { success: true, data: (await withIncludes(deps, viewer, [await getRelationship(deps, viewer, params.ident!)], query))[0] };
  });

  route(['POST'], '/relationships/:ident/edit', async ({ req, query, viewer, params }) => ({
    success: true,
    data: await one(viewer, await editRelationship(deps, viewer, params.ident!, input(await readFields(req))), query),
  }));

  route(['GET', 'POST'], '/relationships/:ident/delete', async ({ req, viewer, params }) => {
    if (req.method === 'GET') {
      requireLevel(viewer, 'Staff');
      return { question: 'Are you sure you want to delete this relationship?', data: rowJson(await getRelationship(deps, viewer, params.ident!)) };
    }
    return { success: true, data: writeJson(await deleteRelationship(deps, viewer, params.ident!)) };
  });
}
