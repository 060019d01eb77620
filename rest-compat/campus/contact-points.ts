// Slate's /contact-points (Emergence\People\ContactPointsRequestHandler): browse with
// `person=` or `relatedTo=`, *templates, read, create, edit, delete, save and destroy, and
// `?include=` of Person, String and Primary. The rules live in src/campus/contact-points.ts.
import type { ContactPoint } from '../../src/generated/prisma/client.ts';
import type { Viewer } from '../../src/campus/viewer.ts';
import { canRead, requireLevel } from '../../src/campus/access.ts';
import { KINDS } from '../../src/campus/kinds.ts';
import type { CampusDeps } from '../../src/campus/lookup.ts';
import {
  browseContactPoints,
  createContactPoint,
  deleteContactPoint,
  editContactPoint,
  getContactPoint,
  isPrimary,
  pointString,
  POINT_TEMPLATES,
  type PointInput,
} from '../../src/campus/contact-points.ts';
import { given, intParam } from './browse.ts';
import { includeParam, parseInclude } from './include.ts';
import { readFields } from './request.ts';
import { epoch, recordJson } from './serialize.ts';
import { destroyBatch, saveBatch, type BatchWrites } from './person-batch.ts';
import type { Route } from './handler.ts';

/** Slate's JSON of a contact point: its stored fields, timestamps as Unix seconds. */
export function pointJson(p: ContactPoint): Record<string, unknown> {
  return { ID: p.ID, Class: p.Class, Created: epoch(p.Created), CreatorID: p.CreatorID, RevisionID: null, Modified: epoch(p.Modified), ModifierID: p.ModifierID, PersonID: p.PersonID, Label: p.Label, Data: p.Data };
}

/** The points' JSON with the dynamic fields `include=` names (Person, String, Primary), one query for the people. */
async function withPointIncludes(deps: CampusDeps, viewer: Viewer, points: ContactPoint[], query: URLSearchParams) {
  const include = parseInclude(includeParam(query));
  const all = include.has('*');
  const out = points.map(pointJson);
  const wantPerson = all || include.has('Person');
  const wantPrimary = all || include.has('Primary');
  const people =
    wantPerson || wantPrimary
      ? new Map((await deps.db.person.findMany({ where: { ID: { in: [...new Set(points.map((p) => p.PersonID))] } } })).map((p) => [p.ID, p as Record<string, unknown> & { ID: number }]))
      : new Map();
  const now = deps.clock.now();
  points.forEach((p, i) => {
    const person = people.get(p.PersonID);
    if (all || include.has('String')) out[i]!.String = pointString(p);
    if (wantPrimary) out[i]!.Primary = isPrimary(p, person);
    if (wantPerson) out[i]!.Person = person && canRead(KINDS.Person, viewer, person, now) ? recordJson(KINDS.Person, person, viewer) : null;
  });
  return out;
}

/** A body's fields as a point's input (the names Slate reads). */
const pointInput = (f: Record<string, unknown>): PointInput => ({ PersonID: f.PersonID, Class: f.Class, Label: f.Label, String: f.String, Data: f.Data, Primary: f.Primary });

export function registerContactPointRoutes(route: Route, deps: CampusDeps) {
  const one = async (viewer: Viewer, p: ContactPoint, query: URLSearchParams) => (await withPointIncludes(deps, viewer, [p], query))[0];

  const writes: BatchWrites<Awaited<ReturnType<typeof createContactPoint>>> = {
    create: (tx, viewer, f) => createContactPoint(tx, viewer, pointInput(f)),
    edit: (tx, viewer, id, f) => editContactPoint(tx, viewer, id, pointInput(f)),
    remove: (tx, viewer, id) => deleteContactPoint(tx, viewer, id),
    json: pointJson,
  };

  route(['GET', 'POST'], '/contact-points', async ({ query, viewer }) => {
    const person = given(query.get('person'));
    const relatedTo = given(query.get('relatedTo'));
    // Slate reads these filters only when they are all digits (ctype_digit).
    const options = {
      person: person && /^\d+$/.test(person) ? intParam(person) : undefined,
      relatedTo: relatedTo && /^\d+$/.test(relatedTo) ? intParam(relatedTo) : undefined,
      limit: intParam(query.get('limit')) || undefined,
      offset: intParam(query.get('offset')),
    };
    const result = await browseContactPoints(deps, viewer, options);
    return {
      success: true,
      data: await withPointIncludes(deps, viewer, result.records, query),
      conditions: options.person !== undefined ? { PersonID: options.person } : [],
      total: result.total,
      limit: options.limit ?? false,
      offset: options.offset ?? false,
    };
  });

  route(['POST'], '/contact-points/create', async ({ req, query, viewer }) => {
    const point = await createContactPoint(deps, viewer, pointInput(await readFields(req)));
    return { success: true, data: await one(viewer, point, query) };
  });

  route(['POST'], '/contact-points/save', async ({ req, viewer }) => saveBatch(deps, viewer, await readFields(req), writes));

  route(['POST'], '/contact-points/destroy', async ({ req, viewer }) => destroyBatch(deps, viewer, await readFields(req), writes));

  route(['GET', 'POST'], '/contact-points/:ident', async ({ query, viewer, params }) => {
    // Slate's `*templates`: the suggested labels per class (a Staff route like the rest).
    if (params.ident === '*templates') {
      requireLevel(viewer, 'Staff');
      return { success: true, data: POINT_TEMPLATES };
    }
    return { success: true, data: await one(viewer, await getContactPoint(deps, viewer, params.ident!), query) };
  });

  route(['POST'], '/contact-points/:ident/edit', async ({ req, query, viewer, params }) => {
    const point = await editContactPoint(deps, viewer, params.ident!, pointInput(await readFields(req)));
    return { success: true, data: await one(viewer, point, query) };
  });

  route(['GET', 'POST'], '/contact-points/:ident/delete', async ({ req, viewer, params }) => {
    if (req.method === 'GET') {
      // Slate's confirmation step: nothing is deleted by a GET (Staff only, as the delete).
      requireLevel(viewer, 'Staff');
      const point = await getContactPoint(deps, viewer, params.ident!);
      return { question: 'Are you sure you want to delete this contact point?', data: pointJson(point) };
    }
    return { success: true, data: pointJson(await deleteContactPoint(deps, viewer, params.ident!)) };
  });
}
