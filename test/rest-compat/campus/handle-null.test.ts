// A Handle sent as null is a Handle not given, on both transports: a new record gets one from
// its title, an existing record keeps its own. (It used to reach the database as NULL: a 500.)
import { beforeAll, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { campusGql } from '../../helpers/gql.ts';

const w = useWorld();
let staff = '';
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
});

it('REST: a null Handle on create makes one from the title, on edit keeps the record\'s', async () => {
  const created = await w.campus('POST', '/locations/create', { token: staff, fields: { Title: 'Annex Hall', Handle: null }, json: true });
  expect(created.json).toMatchObject({ success: true, data: { Handle: 'annex_hall' } });
  const edited = await w.campus('POST', `/locations/${created.json.data.ID}/edit`, { token: staff, fields: { Title: 'Renamed', Handle: null }, json: true });
  expect(edited.status).toBe(200);
  expect(edited.json).toMatchObject({ success: true, data: { Title: 'Renamed', Handle: 'annex_hall' } });
  const saved = await w.campus('POST', '/courses/save', { token: staff, fields: { data: [{ Title: 'Algebra', Code: 'ALG', Handle: null }] }, json: true });
  expect(saved.json).toMatchObject({ success: true, data: [{ Handle: 'algebra' }] });
});

it('GraphQL: updateLocation with handle null keeps the handle', async () => {
  const created = await campusGql(w, 'mutation { createLocation(input: { title: "Gym", handle: null }) { handle } }', {}, staff);
  expect(created.data).toEqual({ createLocation: { handle: 'gym' } });
  const id = (await w.app.db.location.findFirstOrThrow({ where: { Handle: 'gym' } })).ID;
  const updated = await campusGql(w, 'mutation($id: ID!) { updateLocation(id: $id, input: { title: "Sports Hall", handle: null }) { title handle } }', { id }, staff);
  expect(updated).toMatchObject({ data: { updateLocation: { title: 'Sports Hall', handle: 'gym' } } });
});
