// /relationships (Slate's RelationshipsRequestHandler) and ?include= of Relationships,
// GuardianRelationships, Guardians and Wards on people: the inverse row kept in step by
// Slate's templates on create, edit and delete, Slate's validation messages, and access.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
const GUARDIAN = 'Emergence\\People\\GuardianRelationship';
const PLAIN = 'Emergence\\People\\Relationship';
let staff: string;
let student: { token: string; id: number };
let mother: { token: string; id: number };
let other: { token: string; id: number };

const post = (path: string, fields: Record<string, unknown>, token: string | null = staff) => w.campus('POST', path, { token, fields, json: true });
const get = (path: string, token: string | null = staff) => w.campus('GET', path, { token });
const rows = () => w.app.db.personRelationship.findMany({ orderBy: { ID: 'asc' } });
const pair = (a: number, b: number) => w.app.db.personRelationship.findUnique({ where: { PersonID_RelatedPersonID: { PersonID: a, RelatedPersonID: b } } });

beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  const [s, m, o] = [await w.campusToken('User'), await w.campusToken('User'), await w.campusToken('User')];
  const actor = (t: { token: string; person_id: number }) => ({ token: t.token, id: t.person_id });
  [student, mother, other] = [actor(s), actor(m), actor(o)];
  await w.app.db.person.update({ where: { ID: student.id }, data: { Gender: 'Female', FirstName: 'Ada' } });
  await w.app.db.person.update({ where: { ID: mother.id }, data: { Gender: 'Female', FirstName: 'Anne' } });
});

describe('/relationships writes', () => {
  it('creates "Mother" as a guardian and the inverse "Daughter" on the mother', async () => {
    const res = await post('/relationships/create', { PersonID: student.id, RelatedPersonID: mother.id, Label: 'Mother', Notes: 'Primary contact' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      data: { PersonID: student.id, RelatedPersonID: mother.id, Label: 'Mother', Notes: 'Primary contact', Class: GUARDIAN, InverseRelationship: { PersonID: mother.id, RelatedPersonID: student.id, Label: 'Daughter', Class: PLAIN } },
    });
    expect(await pair(mother.id, student.id)).toMatchObject({ Relationship: 'Daughter', Class: PLAIN, Notes: null });
    const read = await get(`/relationships/${res.json.data.ID}?include=Person,RelatedPerson,InverseRelationship`);
    expect(read.json.data).toMatchObject({ Person: { ID: student.id }, RelatedPerson: { ID: mother.id, FirstName: 'Anne' }, InverseRelationship: { Label: 'Daughter' } });
  });

  it('relabels the inverse when the label changes, and deletes both together', async () => {
    const other2 = (await post('/people/create', { FirstName: 'Bob', LastName: 'Smith', Gender: 'Male' })).json.data;
    const made = await post('/relationships/create', { PersonID: other2.ID, RelatedPersonID: student.id, Label: 'sister' });
    // Bob's sister is Ada: Ada's row about Bob is "brother" (his gender), a plain relationship.
    expect(made.json.data.InverseRelationship).toMatchObject({ PersonID: student.id, Label: 'brother', Class: PLAIN });
    const edited = await post(`/relationships/${made.json.data.ID}/edit`, { Label: 'cousin' });
    expect(edited.json.data).toMatchObject({ Label: 'cousin', InverseRelationship: { Label: 'cousin' } });
    // A label the templates do not know leaves the inverse as it is, unless one is given.
    const custom = await post(`/relationships/${made.json.data.ID}/edit`, { Label: 'Neighbour', InverseRelationship: { Label: 'Neighbour' } });
    expect(custom.json.data).toMatchObject({ Label: 'Neighbour', InverseRelationship: { Label: 'Neighbour' } });
    const notes = await post(`/relationships/${made.json.data.ID}/edit`, { Notes: 'Next door' });
    expect(notes.json.data).toMatchObject({ Label: 'Neighbour', Notes: 'Next door', InverseRelationship: { Label: 'Neighbour', Notes: null } });
    const del = await post(`/relationships/${made.json.data.ID}/delete`, {});
    expect(del.json).toMatchObject({ success: true, data: { ID: made.json.data.ID, InverseRelationship: { PersonID: student.id } } });
    expect([await pair(other2.ID, student.id), await pair(student.id, other2.ID)]).toEqual([null, null]);
  });

  it('editing the inverse row keeps the first in step (son → mother)', async () => {
    const boy = (await post('/people/create', { FirstName: 'Carl', LastName: 'Smith', Gender: 'Male' })).json.data;
    const made = await post('/relationships/create', { PersonID: mother.id, RelatedPersonID: boy.ID, Label: 'son' });
    // Anne's son is Carl: Carl's row about Anne says "mother", a guardian relationship.
    expect(made.json.data).toMatchObject({ Class: PLAIN, InverseRelationship: { PersonID: boy.ID, Label: 'mother', Class: GUARDIAN } });
    const wards = await get(`/people/${mother.id}?include=Wards`, mother.token);
    expect(wards.json.data.Wards.map((p: { ID: number }) => p.ID).sort()).toEqual([student.id, boy.ID].sort());
    await post('/relationships/destroy', { data: [made.json.data.ID] });
    expect([await pair(mother.id, boy.ID), await pair(boy.ID, mother.id)]).toEqual([null, null]);
  });

  it('refuses Slate\'s invalid relationships and stores nothing', async () => {
    const before = (await rows()).length;
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ PersonID: student.id, RelatedPersonID: mother.id, Label: 'aunt' }, { RelatedPerson: 'There is already a relationship defined between these people' }],
      [{ PersonID: student.id, RelatedPersonID: student.id, Label: 'aunt' }, { RelatedPerson: 'A person can not be related to themselves' }],
      [{ PersonID: student.id, RelatedPersonID: other.id }, { Label: 'A label is required' }],
      [{ PersonID: 999999, RelatedPersonID: other.id, Label: 'aunt' }, { Person: 'Person is required' }],
      [{ PersonID: student.id, RelatedPersonID: 'nobody', Label: 'aunt' }, { RelatedPerson: 'Related person must be a full name or match an existing person' }],
      [{ PersonID: student.id, RelatedPersonID: other.id, Label: 'aunt', Class: 'Friend' }, { Class: `Class must be one of: ${PLAIN}, ${GUARDIAN}` }],
    ];
    for (const [fields, errors] of cases) {
      const res = await post('/relationships/create', fields);
      expect(res.status, res.text).toBe(200);
      expect(res.json.success).toBe(false);
      expect(res.json.validationErrors, JSON.stringify(fields)).toEqual(errors);
    }
    expect((await rows()).length).toBe(before);
    expect((await post('/relationships/999999/edit', { Label: 'x' })).status).toBe(404);
    const templates = await get('/relationships/*templates');
    expect(templates.json.data).toContainEqual(expect.objectContaining({ Relationship: { Label: 'mother', Class: GUARDIAN }, Person: { Gender: 'Female' } }));
  });
});

describe('/relationships access and includes', () => {
  it('lets Staff, the person and their guardian read; refuses anonymous and other users', async () => {
    const row = (await pair(student.id, mother.id))!;
    expect((await get(`/relationships/${row.ID}`, null)).status).toBe(401);
    expect((await get(`/relationships/${row.ID}`, other.token)).status).toBe(403);
    for (const token of [staff, student.token, mother.token]) expect((await get(`/relationships/${row.ID}`, token)).json.data.Label).toBe('Mother');
    expect((await get(`/relationships?person=${student.id}`, other.token)).status).toBe(403);
    expect((await get(`/relationships?person=${student.id}`, mother.token)).json.data).toEqual([expect.objectContaining({ ID: row.ID })]);
    expect((await get('/relationships', mother.token)).status).toBe(403);
    expect((await get('/relationships')).json.total).toBe((await rows()).length);
  });

  it('lets only Staff write', async () => {
    const before = await rows();
    const row = (await pair(student.id, mother.id))!;
    for (const [token, status] of [[null, 401], [student.token, 403], [mother.token, 403]] as const) {
      expect((await post('/relationships/create', { PersonID: student.id, RelatedPersonID: other.id, Label: 'aunt' }, token)).status).toBe(status);
      expect((await post(`/relationships/${row.ID}/edit`, { Label: 'aunt' }, token)).status).toBe(status);
      expect((await post(`/relationships/${row.ID}/delete`, {}, token)).status).toBe(status);
      expect((await post('/relationships/save', { data: [{ ID: row.ID, Label: 'x' }] }, token)).status).toBe(status);
    }
    expect(await rows()).toEqual(before);
  });

  it('includes Relationships, GuardianRelationships, Guardians and Wards for those who may read them', async () => {
    const include = 'Relationships,GuardianRelationships,Guardians,Wards';
    const of = async (id: number, token: string | null) => (await get(`/people/${id}?include=${include}`, token)).json.data;
    for (const token of [null, other.token]) expect(Object.keys(await of(student.id, token))).not.toContain('Guardians');
    for (const token of [staff, student.token, mother.token]) {
      const data = await of(student.id, token);
      expect(data.Guardians.map((p: { ID: number }) => p.ID)).toEqual([mother.id]);
      expect(data.GuardianRelationships).toEqual([expect.objectContaining({ Label: 'Mother', Class: GUARDIAN })]);
      expect(data.Relationships.map((r: { Label: string }) => r.Label)).toContain('Mother');
    }
    expect((await of(mother.id, staff)).Wards.map((p: { ID: number }) => p.ID)).toEqual([student.id]);
    // A browse: the guardian sees their ward's relationships (Slate lists wards to a guardian).
    const list = await get(`/people?include=Guardians`, mother.token);
    expect(list.json.data.map((p: { ID: number; Guardians?: unknown[] }) => [p.ID, p.Guardians?.length])).toEqual(
      expect.arrayContaining([[student.id, 1], [mother.id, 0]]),
    );
  });
});
