// Global object identification: every type with an identity implements Node, its `id` from any
// list refetches the same object through `node(id:)`, and `node`/`nodes` apply each type's root
// field rule: a monitoring object only for a key of its project (read-write-only types refuse
// read-only keys), a campus record exactly as `<kind>(id:)` serves it, and anything malformed,
// unknown or another project's is null, never an error. `nodes` loads each type in one batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema/schema.ts';
import { NODES_MAX } from '../../src/graphql/schema/node.ts';
import { KIND_LIST, type KindName } from '../../src/campus/kinds.ts';
import { createWorld, type World } from '../helpers/world.ts';
import type { GqlResult } from '../helpers/gql.ts';

type Caller = 'anonymous' | 'User' | 'Staff' | 'Administrator';
const CALLERS: Caller[] = ['anonymous', 'User', 'Staff', 'Administrator'];
const SINGULAR: Record<KindName, string> = { Person: 'person', Section: 'section', Course: 'course', BlogPost: 'blogPost', Page: 'page', Group: 'group', Location: 'location', Term: 'term', Department: 'department', Schedule: 'schedule' };

const globalId = (type: string, key: string | number) => Buffer.from(`${type}:${key}`).toString('base64');

let w: World;
const tokens = {} as Record<Caller, string | null>;

/** One request with an API key and/or a campus token. */
async function q(query: string, variables: Record<string, unknown> = {}, who: { key?: string | null; token?: string | null } = {}): Promise<GqlResult> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const key = who.key === undefined ? w.alice.api_key : who.key;
  if (key) headers['X-Api-Key'] = key;
  const token = who.token === undefined ? tokens.Administrator : who.token;
  if (token) headers.Authorization = `Token ${token}`;
  const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as GqlResult;
}

async function ok(query: string, variables: Record<string, unknown> = {}, who: { key?: string | null; token?: string | null } = {}) {
  const r = await q(query, variables, who);
  expect(r.errors).toBeUndefined();
  return r.data;
}

const NODE = (fields: string) => `query($id: ID!) { node(id: $id) { __typename id ${fields} } }`;
const NODES = (fields: string) => `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ${fields} } }`;

/** Each Node type: how a client lists some (the path to the objects) and the fields it compares. */
const SAMPLES: Record<string, { list: string; path: string[]; fields: string }> = {
  Project: { list: '{ project { id uuid name } }', path: ['project'], fields: 'uuid name' },
  Check: { list: '{ project { checks { nodes { id uuid uniqueKey name status lastPing } } } }', path: ['project', 'checks', 'nodes'], fields: 'uuid uniqueKey name status lastPing' },
  Flip: { list: '{ project { checks { nodes { flips { id timestamp oldStatus newStatus reason } } } } }', path: ['project', 'checks', 'nodes', 'flips'], fields: 'timestamp oldStatus newStatus reason' },
  Ping: { list: '{ project { checks { nodes { pings { id n type date method duration } } } } }', path: ['project', 'checks', 'nodes', 'pings'], fields: 'n type date method duration' },
  Channel: { list: '{ project { channels { id uuid name kind } } }', path: ['project', 'channels'], fields: 'uuid name kind' },
  Notification: { list: '{ project { checks { nodes { notifications { id uuid reason status state check { uniqueKey } } } } } }', path: ['project', 'checks', 'nodes', 'notifications'], fields: 'uuid reason status state check { uniqueKey }' },
  Person: { list: '{ people { nodes { id databaseId firstName lastName } } }', path: ['people', 'nodes'], fields: 'databaseId firstName lastName' },
  Section: { list: '{ sections { nodes { id databaseId title course { id title } } } }', path: ['sections', 'nodes'], fields: 'databaseId title course { id title }' },
  Course: { list: '{ courses { nodes { id databaseId title code } } }', path: ['courses', 'nodes'], fields: 'databaseId title code' },
  BlogPost: { list: '{ blogPosts { nodes { id databaseId title status } } }', path: ['blogPosts', 'nodes'], fields: 'databaseId title status' },
  Page: { list: '{ pages { nodes { id databaseId title } } }', path: ['pages', 'nodes'], fields: 'databaseId title' },
  Group: { list: '{ groups { nodes { id databaseId name } } }', path: ['groups', 'nodes'], fields: 'databaseId name' },
  Location: { list: '{ locations { nodes { id databaseId title } } }', path: ['locations', 'nodes'], fields: 'databaseId title' },
  Term: { list: '{ terms { nodes { id databaseId title } } }', path: ['terms', 'nodes'], fields: 'databaseId title' },
  Department: { list: '{ departments { nodes { id databaseId title code } } }', path: ['departments', 'nodes'], fields: 'databaseId title code' },
  Schedule: { list: '{ schedules { nodes { id databaseId title handle } } }', path: ['schedules', 'nodes'], fields: 'databaseId title handle' },
  Comment: { list: '{ blogPosts { nodes { comments { id databaseId message } } } }', path: ['blogPosts', 'nodes', 'comments'], fields: 'databaseId message' },
  GroupMember: { list: '{ groups { nodes { members { id databaseId role person { id } } } } }', path: ['groups', 'nodes', 'members'], fields: 'databaseId role person { id }' },
  SectionParticipant: { list: '{ sections { nodes { participants { id databaseId role section { id } } } } }', path: ['sections', 'nodes', 'participants'], fields: 'databaseId role section { id }' },
};

/** The objects at `path` of an answer, lists flattened. */
function at(value: unknown, path: string[]): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap((v) => at(v, path));
  if (path.length === 0) return value ? [value as Record<string, unknown>] : [];
  return at((value as Record<string, unknown>)[path[0]!], path.slice(1));
}

async function listed(type: string, who: { key?: string | null; token?: string | null } = {}) {
  const sample = SAMPLES[type]!;
  return at(await ok(sample.list, {}, who), sample.path);
}

/** Creates a campus record as the Administrator; its database ID. */
async function create(kind: string, input: Record<string, unknown>): Promise<number> {
  const data = await ok(`mutation($i: ${kind}Input!) { create${kind}(input: $i) { databaseId } }`, { i: input });
  return data[`create${kind}`].databaseId;
}

const records = {} as Record<string, Record<string, number>>;

beforeAll(async () => {
  // Statement counts cover the query's plan only: the rate limiter's once-a-minute
  // credential check (src/http/limits.ts) is not part of it.
  w = await createWorld({ RATE_LIMITS: 'off' });
  tokens.anonymous = null;
  for (const level of ['User', 'Staff', 'Administrator'] as const) tokens[level] = (await w.campusToken(level)).token;
  // Monitoring: Alice's checks with every channel, pings (a timed run, then a failure: flips and
  // queued notifications); one check for Bob.
  await w.channel(w.alice, { name: 'ops mail' });
  for (const name of ['backup', 'report']) {
    const { json } = await w.api('POST', '/api/v3/checks/', { body: { name, channels: '*' } });
    await w.ping(`/ping/${json.uuid}/start`);
    w.clock.advance(2_000);
    await w.ping(`/ping/${json.uuid}`);
    await w.ping(`/ping/${json.uuid}/fail`);
  }
  await w.api('POST', '/api/v3/checks/', { key: w.bob.api_key, body: { name: 'bob' } });
  // Campus: Live and Hidden records of every kind, a comment, memberships and participants.
  const live = (title: string) => ({ title });
  records.Term = { live: await create('Term', live('Year')), hidden: await create('Term', { title: 'Draft year', status: 'Hidden' }) };
  records.Location = { live: await create('Location', live('Campus')), hidden: await create('Location', { title: 'Vault', status: 'Hidden' }) };
  records.Course = { live: await create('Course', { title: 'Algebra', code: 'MATH' }), hidden: await create('Course', { title: 'Secret', code: 'SEC', status: 'Hidden' }) };
  records.Department = { live: await create('Department', live('Mathematics')), hidden: await create('Department', { title: 'Closed', status: 'Hidden' }) };
  records.Schedule = { live: await create('Schedule', live('Block A')), hidden: await create('Schedule', { title: 'Block Z', status: 'Hidden' }) };
  records.Group = { live: await create('Group', { name: 'Everyone' }), hidden: await create('Group', { name: 'Hidden club', status: 'Hidden' }) };
  records.Section = {
    live: await create('Section', { title: 'Algebra I', courseId: records.Course.live, termId: records.Term.live, locationId: records.Location.live }),
    hidden: await create('Section', { title: 'Secret I', status: 'Hidden', courseId: records.Course.hidden }),
  };
  records.Person = { live: await create('Person', { firstName: 'Pat', lastName: 'Lee', username: 'pat', accountLevel: 'User' }) };
  records.BlogPost = {
    live: await create('BlogPost', { title: 'Welcome' }),
    hidden: await create('BlogPost', { title: 'Draft', status: 'Hidden' }),
    private: await create('BlogPost', { title: 'Members only', visibility: 'Private' }),
  };
  records.Page = { live: await create('Page', { title: 'About' }), hidden: await create('Page', { title: 'Unlisted', status: 'Hidden' }) };
  for (const post of Object.values(records.BlogPost)) {
    await ok('mutation($id: ID!) { commentBlogPost(id: $id, message: "Nice") { databaseId } }', { id: post });
  }
  for (const group of Object.values(records.Group)) {
    await ok('mutation($g: ID!, $p: ID!) { setGroupMember(group: $g, person: $p) { databaseId } }', { g: String(group), p: String(records.Person.live) });
  }
  for (const section of Object.values(records.Section)) {
    await ok('mutation($s: ID!, $p: ID!) { setSectionParticipant(section: $s, person: $p, role: Student) { databaseId } }', { s: String(section), p: String(records.Person.live) });
  }
}, 60_000);
afterAll(() => w?.stop());

describe('every object type with an identity is a Node', () => {
  const implementations = schema.getImplementations(schema.getType('Node') as never).objects.map((t) => t.name).sort();

  it('covers both services: monitoring objects, the eight campus kinds, comments and join rows', () => {
    expect(implementations).toEqual(Object.keys(SAMPLES).sort());
    // Node.id is the spec's `ID!`; the database keys moved to fields of their own.
    for (const name of implementations) {
      const type = schema.getType(name);
      expect(isObjectType(type) && String(type.getFields().id!.type)).toBe('ID!');
    }
  });

  it.each(Object.keys(SAMPLES))('%s: an id from a list refetches the same object through node and nodes', async (type) => {
    const objects = await listed(type);
    expect(objects.length, `the seed lists some ${type}`).toBeGreaterThan(0);
    const ids = objects.map((o) => o.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const fields = `... on ${type} { ${SAMPLES[type]!.fields} }`;
    for (const object of objects) {
      const data = await ok(NODE(fields), { id: object.id });
      expect(data.node).toEqual({ __typename: type, ...object });
    }
    const data = await ok(NODES(fields), { ids: [...ids].reverse() });
    expect(data.nodes).toEqual(objects.map((o) => ({ __typename: type, ...o })).reverse());
  });

  it('gives an object the same id wherever it appears (root lookups, lists, mutation payloads)', async () => {
    const [check] = await listed('Check');
    const byKey = await ok('query($k: String!) { check(uniqueKey: $k) { id } }', { k: check!.uniqueKey });
    expect(byKey.check.id).toBe(check!.id);
    const paused = await ok('mutation($id: ID!) { pauseCheck(id: $id) { id } }', { id: check!.uuid });
    expect(paused.pauseCheck.id).toBe(check!.id);
    const section = await ok('query($id: ID) { section(id: $id) { id course { id } } }', { id: records.Section!.live });
    const [course] = (await listed('Course')).filter((c) => c.databaseId === records.Course!.live);
    expect(section.section.course.id).toBe(course!.id);
    // An opaque id, but a stable one: the type and the row's key (clients must not rely on it).
    expect(course!.id).toBe(globalId('Course', records.Course!.live!));
  });
});

describe('node answers what the type\'s root field answers', () => {
  const MONITORING = ['Project', 'Check', 'Flip', 'Ping', 'Channel', 'Notification'];
  const READ_WRITE_ONLY = ['Ping', 'Channel', 'Notification'];
  let aliceIds: Record<string, string>;

  beforeAll(async () => {
    aliceIds = {};
    for (const type of MONITORING) aliceIds[type] = (await listed(type))[0]!.id as string;
  });

  it('a read-write key of the project reads every monitoring object', async () => {
    const data = await ok(NODES(''), { ids: MONITORING.map((t) => aliceIds[t]) }, { key: w.alice.api_key, token: null });
    expect(data.nodes.map((n: { __typename: string }) => n.__typename)).toEqual(MONITORING);
  });

  it('a read-only key reads projects, checks and flips; pings, channels and notifications are refused as at their fields', async () => {
    const r = await q(NODES('... on Check { uuid uniqueKey }'), { ids: MONITORING.map((t) => aliceIds[t]) }, { key: w.alice.api_key_readonly, token: null });
    const byType = Object.fromEntries(MONITORING.map((t, i) => [t, r.data!.nodes[i]]));
    expect(byType.Project).toMatchObject({ __typename: 'Project', id: aliceIds.Project });
    // The UUID stays hidden from read-only keys, the global id does not reveal it.
    expect(byType.Check).toMatchObject({ __typename: 'Check', id: aliceIds.Check, uuid: null });
    expect(byType.Flip).toMatchObject({ __typename: 'Flip', id: aliceIds.Flip });
    for (const type of READ_WRITE_ONLY) expect(byType[type], type).toBeNull();
    const refused = r.errors!.filter((e) => e.message === 'wrong api key');
    expect(refused.map((e) => [e.extensions.code, (e as { path?: unknown[] }).path])).toEqual(
      // A read-only key's uuid is null without an error; the three refusals are at their entries.
      READ_WRITE_ONLY.map((t) => ['UNAUTHENTICATED', ['nodes', MONITORING.indexOf(t)]]),
    );
    expect(r.errors).toHaveLength(READ_WRITE_ONLY.length);
  });

  it('another project\'s key gets null for every one of them, with no error that would confirm they exist', async () => {
    const r = await q(NODES(''), { ids: MONITORING.map((t) => aliceIds[t]) }, { key: w.bob.api_key, token: null });
    expect(r).toEqual({ data: { nodes: MONITORING.map(() => null) } });
    const own = await ok(NODE(''), { id: (await listed('Check', { key: w.bob.api_key }))[0]!.id }, { key: w.bob.api_key, token: null });
    expect(own.node.__typename).toBe('Check');
  });

  it('without a key, or with a wrong one, a monitoring node is refused as `check(id:)` refuses it', async () => {
    for (const [key, message] of [[null, 'missing api key'], ['hcw_' + 'x'.repeat(28), 'wrong api key']] as const) {
      const r = await q(NODE(''), { id: aliceIds.Check }, { key, token: null });
      expect(r.data).toEqual({ node: null });
      expect(r.errors!.map((e) => [e.message, e.extensions.code])).toEqual([[message, 'UNAUTHENTICATED']]);
    }
  });

  it('a ping the ping log no longer lists is null, as its body is 404 over REST', async () => {
    const [ping] = (await listed('Ping')).filter((p) => p.n === 1);
    await w.app.db.project.update({ where: { id: w.alice.id }, data: { pingLogLimit: 1 } });
    try {
      expect(await ok(NODE(''), { id: ping!.id })).toEqual({ node: null });
    } finally {
      await w.app.db.project.update({ where: { id: w.alice.id }, data: { pingLogLimit: 100 } });
    }
    expect((await ok(NODE(''), { id: ping!.id })).node).toMatchObject({ __typename: 'Ping' });
  });

  it.each(KIND_LIST.map((k) => k.name))('%s: each caller gets exactly what its root field gives them, its refusal included', async (kind) => {
    for (const [state, databaseId] of Object.entries(records[kind]!)) {
      const id = globalId(kind, databaseId);
      for (const caller of CALLERS) {
        const who = { key: null, token: tokens[caller] };
        const root = await q(`query($id: ID) { r: ${SINGULAR[kind]}(id: $id) { databaseId } }`, { id: databaseId }, who);
        const node = await q(`query($id: ID!) { r: node(id: $id) { ... on ${kind} { databaseId } } }`, { id }, who);
        const seen = (r: GqlResult) => ({ data: r.data?.r ?? null, codes: (r.errors ?? []).map((e) => e.extensions.code) });
        expect({ state, caller, ...seen(node) }).toEqual({ state, caller, ...seen(root) });
      }
    }
  });

  it('refuses Hidden and Private records to the callers their root field refuses', async () => {
    const hidden = globalId('Course', records.Course!.hidden!);
    const anonymous = await q(NODE(''), { id: hidden }, { key: null, token: null });
    expect(anonymous.errors!.map((e) => [e.message, e.extensions.code])).toEqual([['Login required', 'UNAUTHENTICATED']]);
    const user = await q(NODE(''), { id: hidden }, { key: null, token: tokens.User });
    expect(user.errors!.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
    expect((await ok(NODE(''), { id: hidden }, { key: null, token: tokens.Staff })).node).toMatchObject({ __typename: 'Course' });
    // Groups need a login at all; a private post needs one too.
    const group = await q(NODE(''), { id: globalId('Group', records.Group!.live!) }, { key: null, token: null });
    expect(group.errors!.map((e) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
    const post = await q(NODE(''), { id: globalId('BlogPost', records.BlogPost!.private!) }, { key: null, token: null });
    expect(post.errors!.map((e) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
    expect((await ok(NODE(''), { id: globalId('BlogPost', records.BlogPost!.private!) }, { key: null, token: tokens.User })).node).toMatchObject({ __typename: 'BlogPost' });
  });

  it('comments and join rows: readable when the records they hang on are, refused with those records\' error otherwise', async () => {
    const admin = { key: null, token: tokens.Administrator };
    const one = async (query: string, id: number, path: string[]) => (at(await ok(query, { id }, admin), path)[0]!.id as string);
    // Comments on the live post, the hidden draft and the private post; Pat's memberships of the
    // live and the hidden group; Pat's places in the live and the hidden section.
    const ids = [
      ...(await Promise.all(['live', 'hidden', 'private'].map((s) => one('query($id: ID) { blogPost(id: $id) { comments { id } } }', records.BlogPost![s]!, ['blogPost', 'comments'])))),
      ...(await Promise.all(['live', 'hidden'].map((s) => one('query($id: ID) { group(id: $id) { members { id } } }', records.Group![s]!, ['group', 'members'])))),
      ...(await Promise.all(['live', 'hidden'].map((s) => one('query($id: ID) { section(id: $id) { participants { id } } }', records.Section![s]!, ['section', 'participants'])))),
    ];
    const answer = async (caller: Caller) => {
      const r = await q(NODES(''), { ids }, { key: null, token: tokens[caller] });
      const errors = new Map((r.errors ?? []).map((e) => [(e as unknown as { path: unknown[] }).path[1], e.extensions.code]));
      return r.data!.nodes.map((n: unknown, i: number) => (n ? 'read' : (errors.get(i) ?? 'null')));
    };
    // Groups need a login; Hidden records need Staff; a private post needs a login.
    expect(await answer('anonymous')).toEqual(['read', 'UNAUTHENTICATED', 'UNAUTHENTICATED', 'UNAUTHENTICATED', 'UNAUTHENTICATED', 'read', 'UNAUTHENTICATED']);
    expect(await answer('User')).toEqual(['read', 'FORBIDDEN', 'read', 'read', 'FORBIDDEN', 'read', 'FORBIDDEN']);
    expect(await answer('Staff')).toEqual(ids.map(() => 'read'));
  });

  it('a global id of one kind does not find a record of another kind sharing its table', async () => {
    // Blog posts and pages are both Content rows: a BlogPost id with a page's key names nothing.
    expect(await ok(NODE(''), { id: globalId('BlogPost', records.Page!.live!) })).toEqual({ node: null });
    expect((await ok(NODE(''), { id: globalId('Page', records.Page!.live!) })).node).toMatchObject({ __typename: 'Page' });
  });
});

describe('malformed and unknown ids', () => {
  const MALFORMED = [
    '',
    'not base64!',
    'Q2hlY2s=', // "Check"
    globalId('Check', ''),
    globalId('Check', 'abc'),
    globalId('Check', '0'),
    globalId('Check', '01'),
    globalId('Check', '-1'),
    globalId('Check', '1.5'),
    globalId('Check', '99999999999'),
    globalId('Check', 999_999),
    globalId('Nope', 1),
    globalId('Query', 1),
    globalId('CheckPage', 1),
    globalId('Node', 1),
    globalId('Ping', 1),
    globalId('Ping', '1:2:3'),
    globalId('Ping', '1:0'),
    globalId('Project', 'not-a-uuid'),
    globalId('Project', '00000000-0000-4000-8000-000000000000'),
    globalId('Section', 2 ** 31),
    globalId('Comment', 999_999),
    globalId('GroupMember', 'x'),
  ];

  it.each(MALFORMED)('node(id: %j) is null without an error', async (id) => {
    expect(await q(NODE(''), { id })).toEqual({ data: { node: null } });
  });

  it('nodes answers null entries in place, between the ids that name something', async () => {
    const [check] = await listed('Check');
    const [section] = await listed('Section');
    const data = await ok(NODES(''), { ids: [check!.id, ...MALFORMED, section!.id, check!.id] });
    expect(data.nodes).toEqual([{ __typename: 'Check', id: check!.id }, ...MALFORMED.map(() => null), { __typename: 'Section', id: section!.id }, { __typename: 'Check', id: check!.id }]);
  });

  it(`nodes takes at most ${NODES_MAX} ids, and says so with BAD_USER_INPUT`, async () => {
    const [check] = await listed('Check');
    const full = await ok(NODES(''), { ids: Array(NODES_MAX).fill(check!.id) });
    expect(full.nodes).toHaveLength(NODES_MAX);
    const r = await q(NODES(''), { ids: Array(NODES_MAX + 1).fill(check!.id) });
    expect(r.data).toBeNull();
    expect(r.errors!.map((e) => [e.message, e.extensions.code])).toEqual([[`ids: at most ${NODES_MAX} per call, got ${NODES_MAX + 1}`, 'BAD_USER_INPUT']]);
    expect((await ok(NODES(''), { ids: [] })).nodes).toEqual([]);
  });
});

describe('nodes loads each type in a constant number of statements', () => {
  /** Statements one request runs, as the database saw them. */
  async function statements(query: string, variables: Record<string, unknown>) {
    const seen: string[] = [];
    const stop = w.app.onStatement((sql) => seen.push(sql));
    try {
      await ok(query, variables);
    } finally {
      stop();
    }
    return seen;
  }

  it('50 checks with their flips and channels cost what 5 do; so do 50 sections with their courses, and 50 pings', async () => {
    for (let i = 0; i < 48; i++) {
      const { json } = await w.api('POST', '/api/v3/checks/', { body: { name: `bulk ${i}`, channels: '*' } });
      await w.ping(`/ping/${json.uuid}`);
    }
    for (let i = 0; i < 48; i++) await create('Section', { title: `Bulk ${i}`, courseId: records.Course!.live });
    const checks = (await listed('Check')).map((c) => c.id as string);
    const sections = (await listed('Section')).map((s) => s.id as string);
    const pings = (await listed('Ping')).map((p) => p.id as string);
    expect([checks.length, sections.length, pings.length]).toEqual([50, 50, 54]);
    const queries = {
      checks: [NODES('... on Check { name flips { newStatus } channels { name } }'), checks],
      sections: [NODES('... on Section { title course { title } }'), sections],
      pings: [NODES('... on Ping { n type }'), pings],
    } as const;
    for (const [name, [query, ids]] of Object.entries(queries)) {
      const few = await statements(query, { ids: ids.slice(0, 5) });
      const many = await statements(query, { ids: ids.slice(0, 50) });
      expect({ name, count: many.length }).toEqual({ name, count: few.length });
      // The key lookup, the campus session, then one statement per type and relation level.
      expect(many.length, `${name}: ${many.join('\n')}`).toBeLessThanOrEqual(6);
    }
  });
});
