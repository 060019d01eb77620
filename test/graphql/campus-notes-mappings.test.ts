// Person.notes, `mappings` on campus records, and their mutations over GraphQL: the same rules
// as REST (/notes, /<prefix>/<h>/mappings): Staff read notes and mappings, Staff write notes,
// Administrators write mappings; newest first; private drafts; re-pointing; cascades; and a page
// of people with their notes and mappings in a constant number of queries.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { campusGql } from '../helpers/gql.ts';
import { createYogaServer } from '../../src/graphql/server/yoga.ts';
import { callRecordingDb, servicesOn } from './in-process.ts';

const w = useWorld();
let admin: string;
let staff: { token: string; person_id: number };
let staff2: string;
let user: string;
let pupil: { token: string; person_id: number };

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff.token) => campusGql(w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;
const NOTES = 'query($id: ID!) { person(id: $id) { notes { databaseId subject message messageFormat status source sent authorId author { databaseId } contextId } } }';
const CREATE = 'mutation($p: ID!, $i: NoteInput!) { createNote(person: $p, input: $i) { databaseId subject status sent authorId contextClass contextId } }';

beforeAll(async () => {
  admin = (await w.campusToken('Administrator')).token;
  staff = await w.campusToken('Staff');
  staff2 = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
  pupil = await w.campusToken('User');
});

describe('notes over GraphQL', () => {
  it('creates, edits and deletes notes as Staff; everyone else is refused and nothing is stored', async () => {
    const input = { subject: 'Behaviour', message: '<b>Good week</b>' };
    expect((await q(CREATE, { p: pupil.person_id, i: input }, null)).errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await q(CREATE, { p: pupil.person_id, i: input }, user)).errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await q(CREATE, { p: pupil.person_id, i: input }, pupil.token)).errors![0].extensions.code).toBe('FORBIDDEN');
    expect(await w.app.db.note.count()).toBe(0);
    const made = await q(CREATE, { p: String(pupil.person_id), i: { ...input, status: 'draft-shared' } });
    expect(made.data.createNote).toEqual({ databaseId: expect.any(Number), subject: 'Behaviour', status: 'draft-shared', sent: null, authorId: staff.person_id, contextClass: 'Emergence\\People\\Person', contextId: pupil.person_id });
    const id = made.data.createNote.databaseId;
    const UPDATE = 'mutation($id: ID!, $i: NoteInput!) { updateNote(id: $id, input: $i) { subject message status sent authorId } }';
    expect((await q(UPDATE, { id, i: { status: 'sent' } }, user)).errors![0].extensions.code).toBe('FORBIDDEN');
    const sent = await q(UPDATE, { id, i: { status: 'sent' } }, staff2);
    expect(sent.data.updateNote).toEqual({ subject: 'Behaviour', message: '<b>Good week</b>', status: 'sent', sent: w.clock.now().toISOString(), authorId: staff.person_id });
    const DELETE = 'mutation($id: ID!) { deleteNote(id: $id) { databaseId subject } }';
    expect((await q(DELETE, { id }, null)).errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await q(DELETE, { id })).data.deleteNote).toEqual({ databaseId: id, subject: 'Behaviour' });
    expect(await w.app.db.note.count()).toBe(0);
    expect((await q(DELETE, { id })).errors![0]).toMatchObject({ message: 'Record not found', extensions: { code: 'NOT_FOUND' } });
  });

  it('reports bad input per field and stores nothing', async () => {
    const r = await q(CREATE, { p: pupil.person_id, i: { subject: ' ', message: '', status: 'archived' } });
    expect(r.errors![0]).toMatchObject({ message: 'A subject is required', extensions: { code: 'BAD_USER_INPUT', validationErrors: { Subject: 'A subject is required', Message: 'A message is required', Status: 'Status is invalid.' } } });
    expect((await q(CREATE, { p: 'nobody-here', i: { subject: 's', message: 'm' } })).errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await q('mutation { updateNote(id: "x", input: { subject: "s" }) { databaseId } }')).errors![0].extensions.code).toBe('NOT_FOUND');
    expect(await w.app.db.note.count()).toBe(0);
  });

  it('lists a person\'s notes newest first to Staff, private drafts to their author only, null to others', async () => {
    for (const [subject, status, token] of [['First', 'sent', staff.token], ['Second', 'draft-private', staff2], ['Third', 'draft-shared', staff.token], ['Fourth', 'draft-private', staff.token]] as const) {
      expect((await q(CREATE, { p: pupil.person_id, i: { subject, message: 'm', status } }, token)).errors).toBeUndefined();
    }
    const subjects = async (token: string | null) => (await q(NOTES, { id: pupil.person_id }, token)).data.person.notes?.map((n: { subject: string }) => n.subject) ?? null;
    expect(await subjects(staff.token)).toEqual(['Fourth', 'Third', 'First']);
    expect(await subjects(staff2)).toEqual(['Third', 'Second', 'First']);
    expect(await subjects(admin)).toEqual(['Third', 'First']);
    for (const token of [null, user, pupil.token]) expect(await subjects(token)).toBeNull();
    const first = (await q(NOTES, { id: pupil.person_id })).data.person.notes.at(-1);
    expect(first).toMatchObject({ messageFormat: 'html', source: 'direct', sent: expect.any(String), authorId: staff.person_id, author: { databaseId: staff.person_id }, contextId: pupil.person_id });
  });
});

describe('mappings over GraphQL', () => {
  const CREATE_MAPPING = 'mutation($k: CampusKind!, $r: ID!, $i: ConnectorMappingInput!) { createMapping(kind: $k, record: $r, input: $i) { databaseId contextClass contextId source connector externalKey externalIdentifier } }';
  let sectionA: { databaseId: number; id: string };
  let sectionB: { databaseId: number };

  beforeAll(async () => {
    const course = (await q('mutation { createCourse(input: { title: "Art", code: "ART" }) { databaseId } }')).data.createCourse;
    sectionA = (await q('mutation($c: Int) { createSection(input: { courseId: $c, title: "Art A" }) { databaseId id } }', { c: course.databaseId })).data.createSection;
    sectionB = (await q('mutation($c: Int) { createSection(input: { courseId: $c, title: "Art B" }) { databaseId } }', { c: course.databaseId })).data.createSection;
  });

  it('creates mappings as Administrator only, re-pointing a duplicate; shows them to Staff only', async () => {
    const i = { connector: 'canvas', externalKey: 'section_id', externalIdentifier: '42' };
    expect((await q(CREATE_MAPPING, { k: 'Section', r: sectionA.databaseId, i }, null)).errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await q(CREATE_MAPPING, { k: 'Section', r: sectionA.databaseId, i })).errors![0].extensions.code).toBe('FORBIDDEN');
    expect(await w.app.db.connectorMapping.count()).toBe(0);
    // The record by its global id, as the mutations take it.
    const made = (await q(CREATE_MAPPING, { k: 'Section', r: sectionA.id, i }, admin)).data.createMapping;
    expect(made).toEqual({ databaseId: expect.any(Number), contextClass: 'Slate\\Courses\\Section', contextId: sectionA.databaseId, source: 'manual', connector: 'canvas', externalKey: 'section_id', externalIdentifier: '42' });
    const moved = (await q(CREATE_MAPPING, { k: 'Section', r: sectionB.databaseId, i: { ...i, source: 'matching' } }, admin)).data.createMapping;
    expect(moved).toMatchObject({ databaseId: made.databaseId, contextId: sectionB.databaseId, source: 'manual' });
    const MAPPINGS = 'query($id: ID!) { section(id: $id) { mappings { databaseId externalIdentifier } } }';
    expect((await q(MAPPINGS, { id: sectionA.databaseId })).data.section.mappings).toEqual([]);
    expect((await q(MAPPINGS, { id: sectionB.databaseId })).data.section.mappings).toEqual([{ databaseId: made.databaseId, externalIdentifier: '42' }]);
    expect((await q(MAPPINGS, { id: sectionB.databaseId }, user)).data.section.mappings).toBeNull();
    expect((await q(MAPPINGS, { id: sectionB.databaseId }, null)).data.section.mappings).toBeNull();
    const bad = await q(CREATE_MAPPING, { k: 'Section', r: sectionA.databaseId, i: { connector: '', externalKey: 'k'.repeat(26), externalIdentifier: 'x', source: 'nope' } }, admin);
    expect(bad.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validationErrors: { Connector: 'Connector is missing.', ExternalKey: 'External Key is too long.', Source: 'Source is invalid.' } });
    expect((await q(CREATE_MAPPING, { k: 'Course', r: 'ART', i }, admin)).errors![0].extensions.code).toBe('CONFLICT');
    expect(await w.app.db.connectorMapping.count()).toBe(1);
  });

  it('deletes mappings as Administrator, and with their record', async () => {
    const m = (await q(CREATE_MAPPING, { k: 'Section', r: sectionA.databaseId, i: { connector: 'sis', externalKey: 'id', externalIdentifier: 'a-1' } }, admin)).data.createMapping;
    const DELETE = 'mutation($id: ID!) { deleteMapping(id: $id) { databaseId externalIdentifier } }';
    expect((await q(DELETE, { id: m.databaseId })).errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await q(DELETE, { id: m.databaseId }, admin)).data.deleteMapping).toEqual({ databaseId: m.databaseId, externalIdentifier: 'a-1' });
    expect(await w.app.db.connectorMapping.count({ where: { ID: m.databaseId } })).toBe(0);
    await q(CREATE_MAPPING, { k: 'Person', r: pupil.person_id, i: { connector: 'sis', externalKey: 'person', externalIdentifier: 'p-1' } }, admin);
    expect((await q(`{ person(id: ${pupil.person_id}) { mappings { externalIdentifier } } }`)).data.person.mappings).toEqual([{ externalIdentifier: 'p-1' }]);
    // Deleting the person takes their notes and mappings (and nobody else's).
    const otherNotes = await w.app.db.note.count({ where: { NOT: { ContextID: pupil.person_id } } });
    expect(await w.app.db.note.count({ where: { ContextID: pupil.person_id } })).toBeGreaterThan(0);
    expect((await q('mutation($id: ID!) { deletePerson(id: $id) { databaseId } }', { id: pupil.person_id })).errors).toBeUndefined();
    expect(await w.app.db.note.count({ where: { ContextID: pupil.person_id } })).toBe(0);
    expect(await w.app.db.note.count({ where: { NOT: { ContextID: pupil.person_id } } })).toBe(otherNotes);
    expect(await w.app.db.connectorMapping.count({ where: { ExternalIdentifier: 'p-1' } })).toBe(0);
    expect((await q('mutation($id: ID!) { deleteSection(id: $id) { databaseId } }', { id: sectionB.databaseId })).errors).toBeUndefined();
    expect(await w.app.db.connectorMapping.count()).toBe(0);
  });
});

describe('batching', () => {
  it('loads a page of people with notes, authors and mappings in the same queries for 2 people as for 8', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const p = (await q('mutation($i: PersonInput!) { createPerson(input: $i) { databaseId } }', { i: { firstName: `Batch${i}`, lastName: 'Zz' } })).data.createPerson;
      ids.push(p.databaseId);
      await q(CREATE, { p: p.databaseId, i: { subject: `n${i}`, message: 'm', status: 'sent' } });
      await q(CREATE, { p: p.databaseId, i: { subject: `o${i}`, message: 'm', status: 'sent' } }, staff2);
      await q('mutation($r: ID!, $x: String!) { createMapping(kind: Person, record: $r, input: { connector: "sis", externalKey: "p", externalIdentifier: $x }) { databaseId } }', { r: p.databaseId, x: `b${i}` }, admin);
    }
    // Every call the resolvers make on the campus database, by model and method.
    const { db: counting, calls } = callRecordingDb(w.app);
    const yoga = createYogaServer(servicesOn(w.app, counting), w.app.log);
    const run = async (first: number) => {
      calls.length = 0;
      const res = await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Token ${staff.token}` },
        body: JSON.stringify({ query: 'query($n: Int) { people(q: "last:Zz", first: $n, sort: "FirstName") { nodes { firstName notes { subject author { lastName } } mappings { externalIdentifier } } } }', variables: { n: first } }),
      });
      const body = (await res.json()) as { data: any; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return { nodes: body.data.people.nodes, calls: [...calls].sort() };
    };
    const small = await run(2);
    const large = await run(8);
    expect(small.nodes).toHaveLength(2);
    expect(large.nodes).toHaveLength(8);
    expect(large.nodes[7]).toEqual({ firstName: 'Batch7', notes: [{ subject: 'o7', author: { lastName: 'Account' } }, { subject: 'n7', author: { lastName: 'Account' } }], mappings: [{ externalIdentifier: 'b7' }] });
    expect(large.calls).toEqual(small.calls);
    expect(large.calls.filter((c) => c.startsWith('note.'))).toEqual(['note.findMany']);
    expect(large.calls.filter((c) => c.startsWith('connectorMapping.'))).toEqual(['connectorMapping.findMany']);
  });
});
