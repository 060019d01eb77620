// The tree kinds (Group, Location, Term): `children` is a plain list of records, and a child
// (or parent) the caller may not read is left out, as `group(handle:)` would refuse it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { campusGql } from '../helpers/gql.ts';

let w: World;
let staff: string;
let user: string;
beforeAll(async () => {
  // Statement counts cover the query's plan only: the rate limiter's once-a-minute
  // credential check (src/http/limits.ts) is not part of it.
  w = await createWorld({ RATE_LIMITS: 'off' });
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});
afterAll(() => w.stop());

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff) => campusGql(w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;

/** A parent with two children, created in the given order (the second one Hidden). */
async function family(kind: 'Group' | 'Location' | 'Term', label: 'name' | 'title', prefix: string) {
  const create = async (input: Record<string, unknown>) => {
    const r = await q(`mutation($i: ${kind}Input!) { create${kind}(input: $i) { databaseId handle } }`, { i: input });
    expect(r.errors).toBeUndefined();
    return r.data[`create${kind}`] as { databaseId: number; handle: string };
  };
  const parent = await create({ [label]: `${prefix} parent` });
  const first = await create({ [label]: `${prefix} child A`, parentId: parent.databaseId });
  const second = await create({ [label]: `${prefix} child B`, parentId: parent.databaseId, status: 'Hidden' });
  return { parent, first, second };
}

describe('children of tree records', () => {
  it.each([
    ['Group', 'group', 'name'],
    ['Location', 'location', 'title'],
    ['Term', 'term', 'title'],
  ] as const)('%s.children is a flat list of the children, oldest first, each with its parent', async (kind, field, label) => {
    const { parent, first, second } = await family(kind, label, kind);
    const r = await q(`query($h: String) { ${field}(handle: $h) { databaseId children { databaseId ${label} parent { databaseId } children { databaseId } } } }`, { h: parent.handle });
    expect(r.status).toBe(200);
    expect(r.errors).toBeUndefined();
    expect(r.data[field]).toEqual({
      databaseId: parent.databaseId,
      children: [
        { databaseId: first.databaseId, [label]: `${kind} child A`, parent: { databaseId: parent.databaseId }, children: [] },
        { databaseId: second.databaseId, [label]: `${kind} child B`, parent: { databaseId: parent.databaseId }, children: [] },
      ],
    });
  });

  it('prints children as [T!]! in the schema', async () => {
    const { schema } = await import('../../src/graphql/schema/schema.ts');
    for (const kind of ['Group', 'Location', 'Term']) {
      const type = schema.getType(kind) as import('graphql').GraphQLObjectType;
      expect(String(type.getFields().children!.type)).toBe(`[${kind}!]!`);
    }
  });

  it('leaves out children (and a parent) the caller may not read', async () => {
    const { parent, first, second } = await family('Location', 'title', 'Visible');
    // Anonymous callers read Live locations only: the Hidden child is not listed…
    const anon = await q('query($h: String) { location(handle: $h) { children { databaseId } } }', { h: parent.handle }, null);
    expect(anon.errors).toBeUndefined();
    expect(anon.data.location.children).toEqual([{ databaseId: first.databaseId }]);
    // …and a Live child of a Hidden parent shows no parent.
    const hiddenParent = await q('mutation($id: ID!) { updateLocation(id: $id, input: { status: "Hidden" }) { databaseId } }', { id: parent.databaseId });
    expect(hiddenParent.errors).toBeUndefined();
    const orphan = await q('query($h: String) { location(handle: $h) { parent { databaseId } } }', { h: first.handle }, user);
    expect(orphan.data.location).toEqual({ parent: null });
    // Staff see everything.
    const all = await q('query($h: String) { location(handle: $h) { children { databaseId } } }', { h: parent.handle });
    expect(all.data.location.children).toEqual([{ databaseId: first.databaseId }, { databaseId: second.databaseId }]);
  });
});

describe('tree relations are batched', () => {
  it('reads parents and children of 2 or of 8 terms in the same number of statements', async () => {
    const statements: string[] = [];
    // Every statement the server's own client sends, on either database.
    const stop = w.app.onStatement((sql) => statements.push(sql));
    try {
      for (const [tag, n] of [['Few', 2], ['Many', 8]] as const) {
        const root = (await q('mutation($t: String!) { createTerm(input: { title: $t }) { databaseId } }', { t: `${tag} root` })).data.createTerm.databaseId;
        for (let i = 0; i < n; i++) {
          const mid = (await q('mutation($t: String!, $p: Int) { createTerm(input: { title: $t, parentId: $p }) { databaseId } }', { t: `${tag} ${i}`, p: root })).data.createTerm.databaseId;
          await q('mutation($t: String!, $p: Int) { createTerm(input: { title: $t, parentId: $p }) { databaseId } }', { t: `${tag} ${i} leaf`, p: mid });
        }
      }
      const count = async (tag: string) => {
        statements.length = 0;
        const r = await q('query($q: String) { terms(q: $q) { nodes { title parent { title } children { title children { title } } } } }', { q: tag });
        expect(r.errors).toBeUndefined();
        return { n: statements.length, terms: r.data.terms.nodes.length };
      };
      const few = await count('Few');
      const many = await count('Many');
      expect(few.terms).toBe(5);
      expect(many.terms).toBe(17);
      expect(many.n).toBe(few.n);
    } finally {
      stop();
    }
  });
});
