// Authorization lives on the campus types: a record, wherever it appears in the graph, is seen
// by exactly the callers its root field `<kind>(id:)` serves. The walk below is generated from
// the schema: from every root field it follows every field that returns a campus type or a join
// row (three levels deep, which reaches e.g. section.participants.person.groups), as anonymous,
// User, Staff and Administrator, over records that are Live, Hidden and Deleted.
import { beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema/schema.ts';
import { KIND_LIST, KINDS } from '../../src/campus/kinds.ts';
import { typeReadRule } from '../../src/graphql/schema/campus/fields.ts';
import { toGraphQLError } from '../../src/graphql/server/errors.ts';
import { useWorld } from '../helpers/fixtures.ts';

type Result = { data?: any; errors?: Array<{ message: string; path?: Array<string | number>; extensions?: { code?: string } }> };
type Caller = 'anonymous' | 'User' | 'Staff' | 'Administrator';
const CALLERS: Caller[] = ['anonymous', 'User', 'Staff', 'Administrator'];

const CAMPUS = new Set<string>(KIND_LIST.map((k) => k.name));
const SINGULAR: Record<string, string> = { Person: 'person', Section: 'section', Course: 'course', BlogPost: 'blogPost', Page: 'page', Group: 'group', Location: 'location', Term: 'term', Department: 'department', Schedule: 'schedule' };
const PLURAL: Record<string, string> = { Person: 'people', Section: 'sections', Course: 'courses', BlogPost: 'blogPosts', Page: 'pages', Group: 'groups', Location: 'locations', Term: 'terms', Department: 'departments', Schedule: 'schedules' };
const DEPTH = 3;

/**
 * Lists of people that follow a stricter rule than the person's own read rule: a person's
 * guardians and wards are relationships, shown to Staff, the person and their guardians only
 * (test/graphql/campus-contacts.test.ts covers that matrix), so the walk leaves them out.
 */
const GATED = new Set(['Person.guardians', 'Person.wards']);

/** Object fields worth walking: campus records and the join rows that lead to them. */
function walkable(type: GraphQLObjectType) {
  return Object.values(type.getFields()).filter((f) => {
    const named = getNamedType(f.type);
    return !GATED.has(`${type.name}.${f.name}`) && isObjectType(named) && (CAMPUS.has(named.name) || ['GroupMember', 'SectionParticipant'].includes(named.name)) && f.args.every((a) => !String(a.type).endsWith('!'));
  });
}

/** Every `Type.field` that returns a campus type: the edges the walk must cross. */
const EDGES = Object.values(schema.getTypeMap())
  .filter((t): t is GraphQLObjectType => isObjectType(t) && (CAMPUS.has(t.name) || ['GroupMember', 'SectionParticipant'].includes(t.name)))
  .flatMap((t) => walkable(t).filter((f) => CAMPUS.has(getNamedType(f.type).name)).map((f) => `${t.name}.${f.name}`));

const JOINS = new Set(['GroupMember', 'SectionParticipant']);

function selectionOf(type: GraphQLObjectType, depth: number): string {
  // A join row always names its records: whether a list keeps it depends on them.
  const nested = depth === 0 && !JOINS.has(type.name) ? [] : walkable(type).map((f) => `${f.name} { ${selectionOf(getNamedType(f.type) as GraphQLObjectType, Math.max(depth - 1, 0))} }`);
  return ['__typename', 'databaseId', ...nested].join(' ');
}
const objectType = (name: string) => schema.getType(name) as GraphQLObjectType;

const w = useWorld();
const tokens = {} as Record<Caller, string | null>;
const self = {} as Record<Caller, number | null>;
/** Every record ID per kind, from the database. */
const all: Record<string, number[]> = {};
/** What `<kind>(id:)` serves each caller. */
const visible = {} as Record<Caller, Record<string, Set<number>>>;

async function q(query: string, caller: Caller, variables: Record<string, unknown> = {}): Promise<Result> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (tokens[caller]) headers.Authorization = `Token ${tokens[caller]}`;
  const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as Result;
}

async function create(kind: string, input: Record<string, unknown>): Promise<number> {
  const r = await q(`mutation($i: ${kind}Input!) { create${kind}(input: $i) { databaseId } }`, 'Administrator', { i: input });
  expect(r.errors).toBeUndefined();
  return r.data[`create${kind}`].databaseId;
}

async function seed() {
  const pat = await create('Person', { firstName: 'Pat', lastName: 'Second', username: 'pat', accountLevel: 'User' });
  const terms = { live: await create('Term', { title: 'Year' }) } as Record<string, number>;
  const locations = { live: await create('Location', { title: 'Campus' }) } as Record<string, number>;
  const groups = { live: await create('Group', { name: 'Everyone' }) } as Record<string, number>;
  const courses: Record<string, number> = {};
  const departments: Record<string, number> = {};
  const schedules: Record<string, number> = {};
  for (const status of ['Live', 'Hidden', 'Deleted']) {
    departments[status] = await create('Department', { title: `${status} department`, status });
    schedules[status] = await create('Schedule', { title: `${status} schedule`, status });
  }
  for (const status of ['Live', 'Hidden', 'Deleted']) {
    terms[status] = await create('Term', { title: `${status} term`, status, parentId: terms.live });
    locations[status] = await create('Location', { title: `${status} room`, status, parentId: locations.live });
    groups[status] = await create('Group', { name: `${status} club`, status, parentId: groups.live });
    // Each course is in a department of another status (a Live course of a Hidden department ...).
    const department = departments[status === 'Live' ? 'Hidden' : 'Live'];
    courses[status] = await create('Course', { title: `${status} course`, code: `C${status}`, status, departmentId: department });
  }
  // A Hidden parent with a Live child: the child is readable, its parent is not.
  terms.orphan = await create('Term', { title: 'Orphan term', parentId: terms.Hidden });
  locations.orphan = await create('Location', { title: 'Orphan room', parentId: locations.Hidden });
  groups.orphan = await create('Group', { name: 'Orphan club', parentId: groups.Hidden });
  const sections: number[] = [];
  for (const status of ['Live', 'Hidden', 'Deleted']) {
    // Each section's course, term and location is Hidden in one and Live in another.
    for (const other of ['Live', 'Hidden']) {
      sections.push(await create('Section', { title: `${status} section of ${other}`, status, courseId: courses[other], termId: terms[other], locationId: locations[other], scheduleId: schedules[other] }));
    }
  }
  const people = [pat, self.User!, self.Staff!];
  for (const section of sections) {
    for (const [i, person] of people.entries()) {
      const r = await q('mutation($s: ID!, $p: ID!, $r: ParticipantRole!) { setSectionParticipant(section: $s, person: $p, role: $r) { databaseId } }', 'Administrator', { s: String(section), p: String(person), r: i === 0 ? 'Teacher' : 'Student' });
      expect(r.errors).toBeUndefined();
    }
  }
  for (const group of Object.values(groups)) {
    for (const person of people) {
      const r = await q('mutation($g: ID!, $p: ID!) { setGroupMember(group: $g, person: $p) { databaseId } }', 'Administrator', { g: String(group), p: String(person) });
      expect(r.errors).toBeUndefined();
    }
  }
  const context = { contextClass: 'Slate\\Courses\\Section', contextId: sections[0] };
  for (const status of ['Live', 'Hidden', 'Deleted']) {
    for (const authorId of [pat, self.User!]) {
      await create('BlogPost', { title: `${status} post by ${authorId}`, status, authorId, ...context });
      await create('Page', { title: `${status} page by ${authorId}`, status, authorId });
    }
  }
  await create('BlogPost', { title: 'Private post', visibility: 'Private', authorId: pat, ...context });
  await create('BlogPost', { title: 'Post by nobody', ...context });
}

beforeAll(async () => {
  tokens.anonymous = null;
  self.anonymous = null;
  for (const level of ['User', 'Staff', 'Administrator'] as const) {
    const { token, person_id } = await w.campusToken(level);
    tokens[level] = token;
    self[level] = person_id;
  }
  await seed();
  const db = w.app.db as unknown as Record<string, { findMany(a: object): Promise<Array<{ ID: number }>> }>;
  for (const kind of KIND_LIST) {
    const where = kind.model === 'content' ? { Class: kind.className } : {};
    all[kind.name] = (await db[kind.model]!.findMany({ where, select: { ID: true }, orderBy: { ID: 'asc' } })).map((r) => r.ID);
  }
  for (const caller of CALLERS) {
    visible[caller] = {};
    for (const kind of KIND_LIST) {
      const query = `{ ${all[kind.name]!.map((id) => `r${id}: ${SINGULAR[kind.name]}(id: ${id}) { databaseId }`).join(' ')} }`;
      const r = await q(query, caller);
      visible[caller][kind.name] = new Set(Object.values(r.data as Record<string, { databaseId: number } | null>).flatMap((v) => (v ? [v.databaseId] : [])));
    }
  }
}, 60_000);

/** Edges the Administrator's walk crossed with a record, over all roots. */
const adminEdges = new Set<string>();

const canSee = (caller: Caller, node: { __typename: string; databaseId: number }) => !CAMPUS.has(node.__typename) || visible[caller][node.__typename]!.has(node.databaseId);
/** A list keeps a record the caller may read, and a join row whose records they may all read. */
const keeps = (caller: Caller, node: any) =>
  node === null || (JOINS.has(node.__typename) ? Object.values(node).every((v: any) => !v || typeof v !== 'object' || canSee(caller, v)) : canSee(caller, node));

/** The Administrator's answer as `caller` should see it: unreadable records left out of lists, single ones null. */
function prune(caller: Caller, value: any): any {
  if (Array.isArray(value)) return value.filter((v) => keeps(caller, v)).map((v) => prune(caller, v));
  if (value === null || typeof value !== 'object') return value;
  if ('__typename' in value && !canSee(caller, value)) return null;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prune(caller, v)]));
}

/** Every campus record in an answer, as Type:id. */
function records(value: any, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => records(v, out));
  else if (value && typeof value === 'object') {
    if (CAMPUS.has(value.__typename)) out.add(`${value.__typename}:${value.databaseId}`);
    Object.values(value).forEach((v) => records(v, out));
  }
  return out;
}

/** Type.field edges an answer crossed with at least one record. */
function crossed(value: any, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => crossed(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = Array.isArray(v) ? v.some((x) => x && CAMPUS.has(x.__typename)) : !!(v && typeof v === 'object' && CAMPUS.has((v as any).__typename));
      if (hit) out.add(`${value.__typename}.${k}`);
      crossed(v, out);
    }
  }
  return out;
}

describe('campus records are visible through every path exactly as at their root field', () => {
  it('seeds Live, Hidden and Deleted records that the root fields serve differently per caller', () => {
    // Groups need a User; Hidden and Deleted records need Staff; everyone may look up a person.
    expect(visible.anonymous.Group!.size).toBe(0);
    expect(visible.User.Group!.size).toBe(3); // Everyone, Live club, Orphan club
    expect(visible.Staff.Group!.size).toBe(all.Group!.length);
    expect(visible.anonymous.Course!.size).toBe(1);
    expect(visible.Administrator.Course!.size).toBe(3);
    expect(visible.anonymous.Person!.size).toBe(all.Person!.length);
    // A User reads their own Hidden posts, not Pat's.
    expect(visible.User.BlogPost!.size).toBe(visible.anonymous.BlogPost!.size + 3);
  });

  const roots = KIND_LIST.map((k) => k.name);
  it.each(roots)('%s: from its root fields, every relation to every campus type is filtered by the read rule', async (kind) => {
    const edges = new Set<string>();
    // One lookup per record, each walking three levels of relations.
    for (const id of all[kind]!) {
      const query = `{ r: ${SINGULAR[kind]}(id: ${id}) { ${selectionOf(objectType(kind), DEPTH)} } }`;
      const asAdmin = await q(query, 'Administrator');
      expect(asAdmin.errors).toBeUndefined();
      crossed(asAdmin.data.r, edges);
      crossed(asAdmin.data.r, adminEdges);
      for (const caller of CALLERS.filter((c) => c !== 'Administrator')) {
        const r = await q(query, caller);
        const expected = prune(caller, asAdmin.data.r);
        expect({ caller, id, r: r.data?.r ?? null }).toEqual({ caller, id, r: expected });
        // A refusal comes only from the root field, with the root field's code; relations never error.
        for (const error of r.errors ?? []) {
          expect(error.path).toEqual(['r']);
          expect(error.extensions?.code).toBe(caller === 'anonymous' ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        }
        expect(r.errors?.length ?? 0).toBe(expected === null ? 1 : 0);
        for (const seen of records(r.data?.r ?? null)) {
          const [type, n] = seen.split(':');
          expect(visible[caller][type!]!.has(Number(n)), `${caller} saw ${seen}`).toBe(true);
        }
      }
    }
    // The browse root: whatever it lists, each node and everything under it follows the same rule.
    const browse = `{ r: ${PLURAL[kind]} { nodes { ${selectionOf(objectType(kind), DEPTH - 1)} } } }`;
    for (const caller of CALLERS) {
      const r = await q(browse, caller);
      for (const node of r.data?.r?.nodes ?? []) {
        expect(visible[caller][kind]!.has(node.databaseId)).toBe(true);
        const full = (await q(`{ r: ${SINGULAR[kind]}(id: ${node.databaseId}) { ${selectionOf(objectType(kind), DEPTH - 1)} } }`, 'Administrator')).data.r;
        expect(node).toEqual(prune(caller, full));
      }
    }
    // The seed makes every edge out of this type carry a record for the Administrator.
    for (const edge of EDGES.filter((e) => e.startsWith(`${kind}.`))) expect(edges, edge).toContain(edge);
  }, 120_000);

  it('walks every edge into a campus type in the schema, join rows included', () => {
    for (const edge of EDGES) expect(adminEdges, edge).toContain(edge);
    expect(EDGES).toEqual(expect.arrayContaining(['Person.groups', 'Section.course', 'SectionParticipant.person', 'GroupMember.group', 'Group.parent', 'BlogPost.author']));
  });

  it('an anonymous caller no longer reads groups through person.groups or section.participants.person.groups', async () => {
    const r = await q(`{ person(id: ${self.User}) { groups { databaseId } groupMemberships { group { databaseId } } } section(id: ${all.Section![0]}) { participants { person { groups { databaseId } } } } }`, 'anonymous');
    expect(r.errors).toBeUndefined();
    expect(r.data.person).toEqual({ groups: [], groupMemberships: [] });
    expect(r.data.section.participants.flatMap((p: any) => p.person.groups)).toEqual([]);
    const root = await q(`{ group(id: ${all.Group![0]}) { databaseId } }`, 'anonymous');
    expect(root.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });
});

describe('the type-level rule (the backstop for a path that forgot to filter)', () => {
  const ctx = (level: string | null) => ({ viewer: async () => ({ personId: level ? 99 : null, level }), now: new Date('2026-01-05T10:00:00Z') }) as never;
  it('refuses with the root field\'s own error, which GraphQL maps to the same code', async () => {
    const anonymous = await typeReadRule(KINDS.Group)({ ID: 1, Status: 'Live' }, ctx(null)).catch((e: unknown) => e);
    expect(toGraphQLError(anonymous)?.extensions).toEqual({ code: 'UNAUTHENTICATED' });
    const user = await typeReadRule(KINDS.Course)({ ID: 1, Status: 'Hidden' }, ctx('User')).catch((e: unknown) => e);
    expect(toGraphQLError(user)).toMatchObject({ message: 'You do not have authorization to access this resource', extensions: { code: 'FORBIDDEN' } });
    await expect(typeReadRule(KINDS.Course)({ ID: 1, Status: 'Hidden' }, ctx('Staff'))).resolves.toBe(true);
  });
});
