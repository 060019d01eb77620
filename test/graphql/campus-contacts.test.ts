// Person.contactPoints, relationships, guardians and wards over GraphQL, their mutations, the
// access matrix REST has (test/rest-compat/campus/contact-points.test.ts), and batching: a page
// of people with their contact points and guardians costs the same statements for 5 as for 50.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { campusGql } from '../helpers/gql.ts';

const w = useWorld({ RATE_LIMITS: 'off' });
let staff: string;
let student: { token: string; id: number };
let mother: { token: string; id: number };
let other: { token: string; id: number };

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff) =>
  campusGql(w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;

beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  const actor = (t: { token: string; person_id: number }) => ({ token: t.token, id: t.person_id });
  [student, mother, other] = [actor(await w.campusToken('User')), actor(await w.campusToken('User')), actor(await w.campusToken('User'))];
  await w.app.db.person.update({ where: { ID: student.id }, data: { Gender: 'Male' } });
  await w.app.db.person.update({ where: { ID: mother.id }, data: { Gender: 'Female', FirstName: 'Mary' } });
});

const PERSON = `query($id: ID!) { personById: person(id: $id) {
  contactPoints { kind label string primary }
  relationships { label guardian relatedPerson { databaseId } inverse { label } }
  guardians { databaseId firstName } wards { databaseId }
} }`;

describe('mutations', () => {
  it('create, update and delete contact points, primaries kept as Slate keeps them', async () => {
    const made = await q('mutation($p: ID!) { a: createContactPoint(person: $p, kind: Phone, value: "215-867-5309", label: "Mobile Phone") { databaseId data string primary } }', { p: String(student.id) });
    expect(made.errors).toBeUndefined();
    expect(made.data.a).toMatchObject({ data: '2158675309', string: '(215) 867-5309', primary: true });
    const second = await q('mutation($p: ID!) { createContactPoint(person: $p, kind: Phone, value: "(267) 555-9876", primary: true) { databaseId label primary } }', { p: String(student.id) });
    expect(second.data.createContactPoint).toMatchObject({ label: 'Phone', primary: true });
    const upd = await q('mutation($id: ID!) { updateContactPoint(id: $id, label: "Home Phone") { label primary } }', { id: String(made.data.a.databaseId) });
    expect(upd.data.updateContactPoint).toEqual({ label: 'Home Phone', primary: false });
    expect((await q('mutation($id: ID!) { deleteContactPoint(id: $id) }', { id: String(second.data.createContactPoint.databaseId) })).data.deleteContactPoint).toBe(true);
    expect((await w.app.db.person.findUniqueOrThrow({ where: { ID: student.id } })).PrimaryPhoneID).toBe(made.data.a.databaseId);
    const bad = await q('mutation($p: ID!) { createContactPoint(person: $p, kind: Email, value: "nope") { databaseId } }', { p: String(student.id) });
    expect(bad.errors![0]).toMatchObject({ message: 'Email address invalid:Email address must be in format username@domain', extensions: { code: 'BAD_USER_INPUT' } });
    expect(await w.app.db.contactPoint.count({ where: { PersonID: student.id, Class: { contains: 'Email' } } })).toBe(0);
  });

  it('sets a relationship with its inverse, updates it in step, and deletes both', async () => {
    const set = await q('mutation($p: ID!, $r: ID!) { setRelationship(person: $p, relatedPerson: $r, label: "Mother") { databaseId label guardian inverse { label guardian personId } } }', {
      p: String(student.id),
      r: String(mother.id),
    });
    expect(set.errors).toBeUndefined();
    expect(set.data.setRelationship).toMatchObject({ label: 'Mother', guardian: true, inverse: { label: 'Son', guardian: false, personId: mother.id } });
    const temp = await w.app.db.person.create({ data: { FirstName: 'Tia', LastName: 'Aunt', Gender: 'Female' } });
    const aunt = await q('mutation($p: ID!, $r: ID!) { setRelationship(person: $p, relatedPerson: $r, label: "aunt") { databaseId inverse { label } } }', { p: String(student.id), r: String(temp.ID) });
    expect(aunt.data.setRelationship.inverse).toEqual({ label: 'nephew' });
    const again = await q('mutation($p: ID!, $r: ID!) { setRelationship(person: $p, relatedPerson: $r, label: "godmother") { databaseId inverse { label } } }', { p: String(student.id), r: String(temp.ID) });
    expect(again.data.setRelationship).toEqual({ databaseId: aunt.data.setRelationship.databaseId, inverse: { label: 'godson' } });
    expect((await q('mutation($id: ID!) { deleteRelationship(id: $id) }', { id: String(aunt.data.setRelationship.databaseId) })).data.deleteRelationship).toBe(true);
    expect(await w.app.db.personRelationship.count({ where: { OR: [{ PersonID: temp.ID }, { RelatedPersonID: temp.ID }] } })).toBe(0);
    const self = await q('mutation($p: ID!) { setRelationship(person: $p, relatedPerson: $p, label: "aunt") { databaseId } }', { p: String(student.id) });
    expect(self.errors![0]).toMatchObject({ message: 'A person can not be related to themselves', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('refuse anyone below Staff, storing nothing', async () => {
    const before = [await w.app.db.contactPoint.count(), await w.app.db.personRelationship.count()];
    for (const [token, code] of [[null, 'UNAUTHENTICATED'], [student.token, 'FORBIDDEN'], [mother.token, 'FORBIDDEN']] as const) {
      const a = await q('mutation($p: ID!) { createContactPoint(person: $p, kind: Link, value: "https://x.example.org") { databaseId } }', { p: String(student.id) }, token);
      expect(a.errors![0]!.extensions.code).toBe(code);
      const b = await q('mutation($p: ID!, $r: ID!) { setRelationship(person: $p, relatedPerson: $r, label: "aunt") { databaseId } }', { p: String(student.id), r: String(other.id) }, token);
      expect(b.errors![0]!.extensions.code).toBe(code);
    }
    expect([await w.app.db.contactPoint.count(), await w.app.db.personRelationship.count()]).toEqual(before);
  });
});

describe('Person fields and access', () => {
  it('show contacts and relationships to Staff, the person and their guardian; null to others', async () => {
    const read = async (token: string | null) => (await q(PERSON, { id: String(student.id) }, token)).data?.personById;
    for (const token of [staff, student.token, mother.token]) {
      const p = await read(token);
      expect(p.contactPoints).toEqual([{ kind: 'Phone', label: 'Home Phone', string: '(215) 867-5309', primary: true }]);
      expect(p.relationships).toEqual([{ label: 'Mother', guardian: true, relatedPerson: { databaseId: mother.id }, inverse: { label: 'Son' } }]);
      expect(p.guardians).toEqual([{ databaseId: mother.id, firstName: 'Mary' }]);
      expect(p.wards).toEqual([]);
    }
    const otherView = await read(other.token);
    expect(otherView).toMatchObject({ contactPoints: null, relationships: null, guardians: [], wards: [] });
    const motherSelf = (await q(PERSON, { id: String(mother.id) }, mother.token)).data.personById;
    expect(motherSelf.wards).toEqual([{ databaseId: student.id }]);
  });

  it('load a page of people with contact points and guardians in a constant number of statements', async () => {
    const statements: string[] = [];
    const stop = w.app.onStatement((sql) => statements.push(sql));
    try {
      const seed = async (tag: string, n: number) => {
        for (let i = 0; i < n; i++) {
          const kid = await w.app.db.person.create({ data: { FirstName: `${tag}${i}`, LastName: 'Batch' } });
          const parent = await w.app.db.person.create({ data: { FirstName: `${tag}p${i}`, LastName: 'Batch' } });
          await w.app.db.contactPoint.createMany({ data: [0, 1].map((j) => ({ PersonID: kid.ID, Class: 'Emergence\\People\\ContactPoint\\Phone', Data: `215555${tag.length}${i}${j}`.padEnd(10, '0') })) });
          await w.app.db.personRelationship.create({ data: { PersonID: kid.ID, RelatedPersonID: parent.ID, Relationship: 'mother', Class: 'Emergence\\People\\GuardianRelationship' } });
        }
      };
      await seed('FEW', 5);
      await seed('MANY', 50);
      const count = async (tag: string) => {
        statements.length = 0;
        const r = await q(`{ people(q: "${tag}", first: 100) { nodes { firstName contactPoints { string primary } guardians { firstName } } } }`);
        expect(r.errors).toBeUndefined();
        return { n: statements.length, nodes: r.data.people.nodes.filter((p: any) => p.contactPoints.length) };
      };
      const few = await count('FEW');
      const many = await count('MANY');
      expect(few.nodes).toHaveLength(5);
      expect(many.nodes).toHaveLength(50);
      expect(many.nodes.every((p: any) => p.contactPoints.length === 2 && p.guardians.length === 1)).toBe(true);
      expect(many.n).toBe(few.n);
    } finally {
      stop();
    }
  });
});
