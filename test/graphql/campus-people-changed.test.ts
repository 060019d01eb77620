// A person's contact points, relationships, notes and photos changing is the person changing, for live
// subscribers (issue #28): recordChanged "updated" with the person, once per person touched,
// after the write commits; a refused write announces nothing.
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { campusGql } from '../helpers/gql.ts';

let w: World;
let staff: string;
beforeAll(async () => {
  w = await createWorld({ RATE_LIMITS: 'off' });
  staff = (await w.campusToken('Staff')).token;
});
afterAll(() => w?.stop());

async function ok(query: string, variables: Record<string, unknown> = {}) {
  const r = (await campusGql(w, query, variables, staff)) as { data?: any; errors?: unknown[] };
  expect(r.errors).toBeUndefined();
  return r.data;
}
const person = async (firstName: string) =>
  (await ok('mutation($f: String!) { createPerson(input: { firstName: $f, lastName: "Lee" }) { databaseId } }', { f: firstName })).createPerson.databaseId as number;

it('announces the people a contact point, a relationship, a note or a photo changes, and nothing for a refused write', async () => {
  const ada = await person('Ada');
  const ben = await person('Ben');
  const seen: Array<[string, string, number]> = [];
  const listener = (e: { kind: string; action: string; record: { ID: number } }) => void seen.push([e.kind, e.action, e.record.ID]);
  w.app.deps.events.on('recordChanged', listener as never);
  try {
    const point = (await ok('mutation($p: ID!) { createContactPoint(person: $p, kind: Email, value: "ada@example.org") { databaseId } }', { p: String(ada) })).createContactPoint;
    expect(seen.splice(0)).toEqual([['Person', 'updated', ada]]);
    await ok('mutation($id: ID!) { deleteContactPoint(id: $id) }', { id: String(point.databaseId) });
    expect(seen.splice(0)).toEqual([['Person', 'updated', ada]]);

    // Both ends of a relationship (the server writes the inverse on Ben too).
    await ok('mutation($p: ID!, $r: ID!) { setRelationship(person: $p, relatedPerson: $r, label: "Mother") { databaseId } }', { p: String(ben), r: String(ada) });
    expect(seen.splice(0).sort()).toEqual([['Person', 'updated', ada], ['Person', 'updated', ben]].sort());

    const note = (await ok('mutation($p: ID!) { createNote(person: $p, input: { subject: "Pickup", message: "By the side door" }) { databaseId } }', { p: String(ben) })).createNote;
    expect(seen.splice(0)).toEqual([['Person', 'updated', ben]]);
    await ok('mutation($id: ID!) { deleteNote(id: $id) { databaseId } }', { id: String(note.databaseId) });
    expect(seen.splice(0)).toEqual([['Person', 'updated', ben]]);

    // A photo uploaded for Ada, then deleted.
    const form = new FormData();
    form.set('ContextClass', 'Emergence\\People\\Person');
    form.set('ContextID', String(ada));
    form.set('mediaFile', new Blob([await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } }).png().toBuffer()], { type: 'image/png' }), 'ada.png');
    const upload = await fetch(`${w.url}/media/upload`, { method: 'POST', headers: { Authorization: `Token ${staff}`, Accept: 'application/json' }, body: form });
    const media = (await upload.json()) as { data: { ID: number } };
    expect(upload.status).toBe(200);
    expect(seen.splice(0)).toEqual([['Person', 'updated', ada]]);
    await ok('mutation($id: ID!) { deleteMedia(id: $id) { databaseId } }', { id: String(media.data.ID) });
    expect(seen.splice(0)).toEqual([['Person', 'updated', ada]]);

    // Refused (no subject): nothing is written, nothing announced.
    const refused = (await campusGql(w, 'mutation($p: ID!) { createNote(person: $p, input: { message: "x" }) { databaseId } }', { p: String(ben) }, staff)) as { errors?: unknown[] };
    expect(refused.errors).toBeDefined();
    expect(seen).toEqual([]);
  } finally {
    w.app.deps.events.off('recordChanged', listener as never);
  }
});
