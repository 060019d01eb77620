// /contact-points (Slate's ContactPointsRequestHandler) and ?include=ContactPoints on people:
// each class's parsing and validation, the person's primary links on save and delete, the
// write-only Email pseudo-field alongside, refusals that store nothing, and who may read them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
const NS = 'Emergence\\People\\ContactPoint\\';
let staff: string;
let student: { token: string; id: number };
let guardian: { token: string; id: number };
let other: { token: string; id: number };

const post = (path: string, fields: Record<string, unknown>, token: string | null = staff) => w.campus('POST', path, { token, fields, json: true });
const get = (path: string, token: string | null = staff) => w.campus('GET', path, { token });
const points = (personId: number) => w.app.db.contactPoint.findMany({ where: { PersonID: personId }, orderBy: { ID: 'asc' } });
const person = (id: number) => w.app.db.person.findUniqueOrThrow({ where: { ID: id } });

beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  const s = await w.campusToken('User');
  const g = await w.campusToken('User');
  const o = await w.campusToken('User');
  const actor = (t: { token: string; person_id: number }) => ({ token: t.token, id: t.person_id });
  [student, guardian, other] = [actor(s), actor(g), actor(o)];
  const made = await post('/relationships/create', { PersonID: student.id, RelatedPersonID: guardian.id, Label: 'Mother' });
  expect(made.json.success, made.text).toBe(true);
});

describe('/contact-points writes', () => {
  it('creates points of each class as Slate reads them, the first of a class becoming primary', async () => {
    const email = await post('/contact-points/create?include=String,Primary', { PersonID: student.id, Class: `${NS}Email`, String: 'kid@example.org' });
    expect(email.status).toBe(200);
    expect(email.json).toMatchObject({ success: true, data: { Class: `${NS}Email`, Label: 'Email', Data: 'kid@example.org', String: 'kid@example.org', Primary: true, PersonID: student.id } });
    const phone = await post('/contact-points/create?include=String', { PersonID: student.id, Class: 'Phone', Label: 'Mobile Phone', String: '+1 (215) 867-5309' });
    expect(phone.json.data).toMatchObject({ Class: `${NS}Phone`, Label: 'Mobile Phone', Data: '2158675309', String: '(215) 867-5309' });
    const postal = await post('/contact-points/create?include=String', { PersonID: student.id, Class: `${NS}Postal`, String: '123 Main St, Apt 4, Philadelphia, PA 19104' });
    expect(JSON.parse(postal.json.data.Data)).toEqual({ name: null, number: '123', street: 'Main St', unit: 'Apt 4', city: 'Philadelphia', state: 'PA', postal: '19104' });
    expect(postal.json.data.String).toBe('123 Main St\nApt 4\nPhiladelphia, PA 19104');
    const network = await post('/contact-points/create?include=String,Primary', { PersonID: student.id, Class: `${NS}Network`, Label: 'Twitter', String: 'kiddo on twitter.com' });
    expect(network.json.data).toMatchObject({ Data: 'twitter.com/kiddo', String: 'kiddo on twitter.com', Primary: false });
    const link = await post('/contact-points/create', { PersonID: student.id, Class: `${NS}Link`, String: 'https://kid.example.org' });
    expect(link.json.data).toMatchObject({ Label: 'Link', Data: 'https://kid.example.org' });
    const p = await person(student.id);
    expect([p.PrimaryEmailID, p.PrimaryPhoneID, p.PrimaryPostalID]).toEqual([email.json.data.ID, phone.json.data.ID, postal.json.data.ID]);
  });

  it('keeps the first primary when another is added, moves it when asked, and promotes the newest on delete', async () => {
    const second = await post('/contact-points/create?include=Primary', { PersonID: student.id, Class: 'Email', Label: 'School Email', String: 'kid@school.example.org' });
    expect(second.json.data.Primary).toBe(false);
    const third = await post('/contact-points/create', { PersonID: student.id, Class: 'Email', Label: 'Personal Email', String: 'kid@home.example.org' });
    const first = (await person(student.id)).PrimaryEmailID!;
    const made = await post(`/contact-points/${second.json.data.ID}/edit?include=Primary`, { Primary: true });
    expect(made.json.data.Primary).toBe(true);
    expect((await person(student.id)).PrimaryEmailID).toBe(second.json.data.ID);
    // Deleting the primary one promotes the newest other of its class (AbstractPoint::destroy).
    const del = await post(`/contact-points/${second.json.data.ID}/delete`, {});
    expect(del.json).toMatchObject({ success: true, data: { ID: second.json.data.ID } });
    expect((await person(student.id)).PrimaryEmailID).toBe(third.json.data.ID);
    await post('/contact-points/destroy', { data: [third.json.data.ID] });
    expect((await person(student.id)).PrimaryEmailID).toBe(first);
  });

  it('edits label and value, and the write-only Email pseudo-field still makes a primary point', async () => {
    const phone = (await points(student.id)).find((p) => p.Class === `${NS}Phone`)!;
    const edited = await post(`/contact-points/${phone.ID}/edit?include=String`, { Label: 'Home Phone', String: '267 555 1234' });
    expect(edited.json.data).toMatchObject({ Label: 'Home Phone', Data: '2675551234', String: '(267) 555-1234' });
    const viaPerson = await post(`/people/${other.id}/edit`, { Email: 'other@example.org' });
    expect(viaPerson.json.success, viaPerson.text).toBe(true);
    const list = await get(`/contact-points?person=${other.id}&include=Primary`);
    expect(list.json.data).toEqual([expect.objectContaining({ Data: 'other@example.org', Primary: true })]);
  });

  it('reads a person\'s Phone and Postal fields as their classes do, with the default labels, and refuses another person\'s email address', async () => {
    const third = (await w.campusToken('User')).person_id;
    const viaPerson = await post(`/people/${third}/edit`, { Phone: '267 555 9876', Postal: '123 Main St, Philadelphia, PA 19104' });
    expect(viaPerson.json.success, viaPerson.text).toBe(true);
    const list = await get(`/contact-points?person=${third}&include=String,Primary`);
    expect(list.json.data).toEqual([
      expect.objectContaining({ Class: `${NS}Phone`, Label: 'Phone', Data: '2675559876', String: '(267) 555-9876', Primary: true }),
      expect.objectContaining({ Class: `${NS}Postal`, Label: 'Postal', String: '123 Main St\nPhiladelphia, PA 19104', Primary: true }),
    ]);
    // other@example.org is the other person's (the test above): refused, nothing stored.
    const before = await w.app.db.contactPoint.count();
    const taken = await post(`/people/${third}/edit`, { Email: 'other@example.org' });
    expect(taken.json).toMatchObject({ success: false, validationErrors: { Email: 'Cannot create an email contact point that matches an existing email contact point' } });
    expect(await w.app.db.contactPoint.count()).toBe(before);
  });

  it('moves a point to another person, the person it left getting their next one as primary', async () => {
    const temp = (await post('/people/create', { FirstName: 'Mover', LastName: 'Person' })).json.data;
    const a = (await post('/contact-points/create', { PersonID: temp.ID, Class: 'Phone', String: '2155550200' })).json.data;
    const b = (await post('/contact-points/create', { PersonID: temp.ID, Class: 'Phone', String: '2155550211' })).json.data;
    expect((await person(temp.ID)).PrimaryPhoneID).toBe(a.ID);
    const moved = await post(`/contact-points/${a.ID}/edit?include=Primary`, { PersonID: other.id });
    // The other user had no phone: it becomes theirs and their primary one.
    expect(moved.json.data).toMatchObject({ PersonID: other.id, Primary: true });
    expect((await person(temp.ID)).PrimaryPhoneID).toBe(b.ID);
    await post('/contact-points/destroy', { data: [a.ID] });
    expect((await person(other.id)).PrimaryPhoneID).toBeNull();
  });

  it('refuses bad input with Slate\'s messages and stores nothing', async () => {
    const before = await w.app.db.contactPoint.count();
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ PersonID: student.id, Class: 'Email', String: 'not-an-address' }, { address: 'Email address invalid:Email address must be in format username@domain' }],
      [{ PersonID: student.id, Class: 'Email', String: 'kid@example.org' }, { address: 'Cannot create an email contact point that matches an existing email contact point' }],
      [{ PersonID: student.id, Class: 'Phone', String: '12' }, { number: 'Phone number invalid:Phone number must be between 8 and 15 digits' }],
      [{ PersonID: student.id, Class: 'Postal', String: 'Main St' }, { number: 'Street number is required', street: 'Street name is required', postal: 'Postal code or city+state is required' }],
      [{ PersonID: student.id, Class: 'Link', String: 'ftp://x' }, { url: 'URL invalid:URL must start with one of: http, https' }],
      [{ PersonID: student.id, Class: 'Fax', String: '1' }, { Class: expect.stringContaining('Class must be one of') as unknown as string, Label: 'A label is required' }],
      [{ PersonID: 999999, Class: 'Email', String: 'x@example.org' }, { PersonID: 'Person is required' }],
      [{ PersonID: student.id, Class: 'Email' }, { Data: 'No valid data has been loaded' }],
    ];
    for (const [fields, errors] of cases) {
      const res = await post('/contact-points/create', fields);
      expect(res.status, res.text).toBe(200);
      expect(res.json.success).toBe(false);
      expect(res.json.validationErrors, JSON.stringify(fields)).toEqual(errors);
    }
    const batch = await post('/contact-points/save', { data: [{ PersonID: student.id, Class: 'Email', String: 'batch@example.org' }, { PersonID: student.id, Class: 'Phone', String: '1' }] });
    expect(batch.json).toMatchObject({ success: true, data: [{ Data: 'batch@example.org' }], failed: [{ validationErrors: { number: expect.any(String) } }] });
    expect(await w.app.db.contactPoint.count()).toBe(before + 1);
    expect((await post('/contact-points/999999/edit', { Label: 'x' })).status).toBe(404);
    expect((await post('/contact-points/save', { data: 'x' })).status).toBe(400);
  });
});

describe('/contact-points access', () => {
  it('lets Staff, the person and their guardian read; refuses anonymous (401) and other users (403)', async () => {
    const id = (await points(student.id))[0]!.ID;
    expect((await get(`/contact-points/${id}`, null)).status).toBe(401);
    expect((await get(`/contact-points/${id}`, other.token)).status).toBe(403);
    for (const token of [staff, student.token, guardian.token]) expect((await get(`/contact-points/${id}`, token)).json.data.ID).toBe(id);
    expect((await get(`/contact-points?person=${student.id}`, null)).status).toBe(401);
    expect((await get(`/contact-points?person=${student.id}`, other.token)).status).toBe(403);
    expect((await get(`/contact-points?person=${student.id}`, guardian.token)).json.data.length).toBeGreaterThan(3);
    // The whole list is Staff's, as Slate's handler has it.
    expect((await get('/contact-points', student.token)).status).toBe(403);
    const all = await get('/contact-points');
    // Heavier classes first (Slate's sortWeight): email, phone, postal, network, link.
    const classes = all.json.data.filter((p: { PersonID: number }) => p.PersonID === student.id).map((p: { Class: string }) => p.Class.replace(NS, ''));
    expect([...new Set(classes)]).toEqual(['Email', 'Phone', 'Postal', 'Network', 'Link']);
  });

  it('lets only Staff write', async () => {
    const before = await w.app.db.contactPoint.count();
    const id = (await points(student.id))[0]!.ID;
    for (const [token, status] of [[null, 401], [student.token, 403], [guardian.token, 403]] as const) {
      expect((await post('/contact-points/create', { PersonID: student.id, Class: 'Email', String: 'sneaky@example.org' }, token)).status).toBe(status);
      expect((await post(`/contact-points/${id}/edit`, { Label: 'Hacked' }, token)).status).toBe(status);
      expect((await post(`/contact-points/${id}/delete`, {}, token)).status).toBe(status);
      expect((await post('/contact-points/destroy', { data: [id] }, token)).status).toBe(status);
    }
    expect(await w.app.db.contactPoint.count()).toBe(before);
    expect((await w.app.db.contactPoint.findUniqueOrThrow({ where: { ID: id } })).Label).not.toBe('Hacked');
  });

  it('includes ContactPoints on people only for those who may read them, in one query per list', async () => {
    const of = async (token: string | null) => (await get(`/people/${student.id}?include=ContactPoints`, token)).json.data.ContactPoints;
    expect(await of(null)).toBeUndefined();
    expect(await of(other.token)).toBeUndefined();
    for (const token of [staff, student.token, guardian.token]) expect((await of(token)).map((p: { Class: string }) => p.Class)).toContain(`${NS}Email`);
    // A list: the guardian sees their ward's points and not the other user's.
    const list = await get(`/people?include=ContactPoints&limit=0`, guardian.token);
    const byId = new Map(list.json.data.map((p: { ID: number; ContactPoints?: unknown[] }) => [p.ID, p.ContactPoints]));
    expect(byId.get(student.id)).toHaveLength((await points(student.id)).length);
    expect(byId.has(other.id)).toBe(false);
    const templates = await get('/contact-points/*templates');
    expect(templates.json.data).toContainEqual(expect.objectContaining({ class: `${NS}Phone`, label: 'Mobile Phone' }));
    expect((await get('/contact-points/*templates', student.token)).status).toBe(403);
  });

  it('loads the included relations of a whole page in the same statements for 2 people as for all', async () => {
    for (let i = 0; i < 6; i++) {
      const p = (await post('/people/create', { FirstName: `Batch${i}`, LastName: 'Kid', Email: `batch${i}@example.org` })).json.data;
      await post('/relationships/create', { PersonID: p.ID, RelatedPersonID: guardian.id, Label: 'guardian' });
    }
    const statements: string[] = [];
    const stop = w.app.onStatement((sql) => statements.push(sql));
    try {
      const count = async (limit: number) => {
        statements.length = 0;
        const res = await get(`/people?q=Kid&limit=${limit}&include=ContactPoints,Relationships,GuardianRelationships,Guardians,Wards`, guardian.token);
        expect(res.status).toBe(200);
        return { n: statements.length, rows: res.json.data.length, guardians: res.json.data.map((p: { Guardians: unknown[] }) => p.Guardians.length) };
      };
      const few = await count(2);
      const all = await count(0);
      expect([few.rows, all.rows]).toEqual([2, 6]);
      expect(all.guardians).toEqual([1, 1, 1, 1, 1, 1]);
      expect(all.n).toBe(few.n);
    } finally {
      stop();
    }
  });

  it('removes a deleted person\'s points and relationships with them', async () => {
    const temp = await post('/people/create', { FirstName: 'Temp', LastName: 'Person', Email: 'temp@example.org' });
    const id = temp.json.data.ID;
    expect((await post('/contact-points/create', { PersonID: id, Class: 'Phone', String: '2155550223' })).json.success).toBe(true);
    expect(await points(id)).toHaveLength(2);
    await post('/relationships/create', { PersonID: student.id, RelatedPersonID: id, Label: 'aunt' });
    expect(await w.app.db.personRelationship.count({ where: { OR: [{ PersonID: id }, { RelatedPersonID: id }] } })).toBe(2);
    expect((await post(`/people/${id}/delete`, {})).json.success).toBe(true);
    expect(await points(id)).toEqual([]);
    expect(await w.app.db.personRelationship.count({ where: { OR: [{ PersonID: id }, { RelatedPersonID: id }] } })).toBe(0);
  });
});
