// A 5xx only for a real server fault, and then the request changes nothing (issue #11). A
// trigger makes the database refuse one kind of row, as a full disk or a lost connection would
// in the middle of a request; the answer is a plain 500 without internals, every write of the
// request is rolled back, and the server answers the next request normally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { campusGql, gql } from '../helpers/gql.ts';
import { changedTables, openSnapshotter, type Snapshotter } from '../helpers/db-snapshot.ts';

const w = useWorld();

const FAULT = 'injected fault';

type Operation = 'INSERT' | 'UPDATE' | 'DELETE';

/**
 * Makes `operation` on `table` fail until the returned function is called; with `when`, only
 * for rows it holds for (SQL over NEW or OLD, the same in SQLite and PostgreSQL).
 */
async function failOn(table: string, operation: Operation, when?: string): Promise<() => Promise<void>> {
  const name = `fault_${table.toLowerCase()}_${operation.toLowerCase()}`;
  if (w.databaseUrl.startsWith('postgres')) {
    await w.app.db.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '${FAULT}'; END $$ LANGUAGE plpgsql`);
    await w.app.db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE ${operation} ON "${table}" FOR EACH ROW ${when ? `WHEN (${when})` : ''} EXECUTE FUNCTION ${name}()`);
    return async () => {
      await w.app.db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "${table}"`);
      await w.app.db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    };
  }
  await w.app.db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE ${operation} ON "${table}" ${when ? `WHEN ${when}` : ''} BEGIN SELECT RAISE(ABORT, '${FAULT}'); END`);
  return async () => void (await w.app.db.$executeRawUnsafe(`DROP TRIGGER ${name}`));
}

/** Makes inserts into `table` fail until the returned function is called. */
const failInserts = (table: string) => failOn(table, 'INSERT');

const counts = async () => ({
  checks: await w.app.db.check.count(),
  pings: await w.app.db.ping.count(),
  links: await w.app.db.checkChannel.count(),
  nPings: (await w.app.db.check.aggregate({ _sum: { nPings: true } }))._sum.nPings ?? 0,
});

beforeAll(async () => {
  await w.channel(w.alice, { kind: 'webhook', value: 'http://127.0.0.1:9/hook', name: 'ops' });
});

it('REST: a check whose channel link fails is not created, and the answer is a plain 500', async () => {
  const before = await counts();
  const restore = await failInserts('CheckChannel');
  try {
    const res = await w.api('POST', '/api/v3/checks/', { body: { name: 'nightly', channels: '*' } });
    expect(res.status).toBe(500);
    expect(res.text).not.toContain(FAULT);
    expect(res.text).not.toMatch(/prisma|sqlite|postgres|stack/i);
    expect(await counts()).toEqual(before);
  } finally {
    await restore();
  }
  // The same request succeeds once the fault is gone: nothing was left half-made.
  const ok = await w.api('POST', '/api/v3/checks/', { body: { name: 'nightly', channels: '*' } });
  expect(ok.status).toBe(201);
  expect((await counts()).links).toBe(before.links + 1);
});

it('GraphQL: the same fault is INTERNAL_SERVER_ERROR without internals, and nothing is stored', async () => {
  const before = await counts();
  const restore = await failInserts('CheckChannel');
  try {
    const res = await gql(w, 'mutation { createCheck(input: { name: "weekly", channels: "*" }) { check { id } } }');
    expect(res.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(res)).not.toContain(FAULT);
    expect(await counts()).toEqual(before);
  } finally {
    await restore();
  }
});

it('pings: a batch the database refuses is answered 5xx and not counted; the next ping is', async () => {
  const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'pinged' } })).json;
  const before = await counts();
  const restore = await failInserts('Ping');
  try {
    const res = await w.ping(`/ping/${check.uuid}`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.text).not.toContain(FAULT);
    expect(await counts()).toEqual(before);
  } finally {
    await restore();
  }
  expect((await w.ping(`/ping/${check.uuid}`)).status).toBe(200);
  const after = await counts();
  expect([after.pings, after.nPings]).toEqual([before.pings + 1, before.nPings + 1]);
  expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
});

// Campus writes run a record, its contact points, memberships and tags, or a whole /save or
// /destroy batch, in one transaction; record events go out only after it commits.
describe('campus writes: a fault rolls back the whole request', () => {
  let staff = '';
  let user = '';
  let snapshots: Snapshotter;
  const events: unknown[] = [];

  beforeAll(async () => {
    staff = (await w.campusToken('Staff')).token;
    user = (await w.campusToken('User')).token;
    snapshots = await openSnapshotter(w.databaseUrl);
    w.app.deps.events.on('recordChanged', (e) => events.push(e));
  });
  afterAll(() => snapshots?.close());

  /** Runs `request` with the fault in place; afterwards no table differs and no record event went out. */
  async function changesNothing(fault: () => Promise<() => Promise<void>>, request: () => Promise<void>) {
    const before = await snapshots.snapshot();
    const published = events.length;
    const restore = await fault();
    try {
      await request();
    } finally {
      await restore();
    }
    expect(changedTables(before, await snapshots.snapshot())).toEqual([]);
    expect(events.length).toBe(published);
  }

  const plain500 = (res: ApiResponse) => {
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ success: false, message: 'internal server error' });
  };
  const internalError = (res: { errors?: Array<{ extensions?: any }> }) => {
    expect(res.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(res)).not.toContain(FAULT);
  };
  const create = async (prefix: string, fields: Record<string, unknown>, token = staff) => {
    const res = await w.campus('POST', `/${prefix}/create`, { token, fields, json: true });
    expect(res.json.success, res.text).toBe(true);
    return res.json.data as { ID: number; Handle?: string };
  };

  it('REST create: a blog post whose tag link fails leaves no post and no tag', async () => {
    const fields = { Title: 'Tagged', tags: 'News, Sports' };
    await changesNothing(
      () => failInserts('ContentTag'),
      async () => plain500(await w.campus('POST', '/blog/create', { token: user, fields })),
    );
    // Without the fault the same request stores the post with both tags.
    const ok = await w.campus('POST', '/blog/create', { token: user, fields });
    expect(ok.json.success).toBe(true);
    expect(await w.app.db.contentTag.count({ where: { ContentID: ok.json.data.ID } })).toBe(2);
    expect(events.length).toBeGreaterThan(0);
  });

  it('REST edit: a membership that fails undoes the field change and the new contact point', async () => {
    const chess = await create('groups', { Name: 'Chess' });
    const person = await create('people', { FirstName: 'Ada', LastName: 'Lovelace' });
    await changesNothing(
      () => failInserts('GroupMember'),
      async () =>
        plain500(await w.campus('POST', `/people/${person.ID}/edit`, { token: staff, fields: { FirstName: 'Grace', Email: 'grace@example.org', groupIDs: chess.Handle } })),
    );
    expect((await w.app.db.person.findUniqueOrThrow({ where: { ID: person.ID } })).FirstName).toBe('Ada');
  });

  it('REST /save: a fault in the second item keeps the first item\'s edit and creation out', async () => {
    const algebra = await create('courses', { Title: 'Algebra', Code: 'ALG' });
    const data = [{ ID: algebra.ID, Title: 'Renamed' }, { Title: 'Geometry', Code: 'GEO' }, { Title: 'Second', Code: 'SEC' }];
    await changesNothing(
      () => failOn('Course', 'INSERT', `NEW."Title" = 'Second'`),
      async () => plain500(await w.campus('POST', '/courses/save', { token: staff, fields: { data }, json: true })),
    );
    const ok = await w.campus('POST', '/courses/save', { token: staff, fields: { data }, json: true });
    expect(ok.json.data.map((c: { Title: string }) => c.Title)).toEqual(['Renamed', 'Geometry', 'Second']);
  });

  it('REST /save: an item refused for validation is reported, and the others are saved', async () => {
    const before = await w.app.db.course.count();
    const res = await w.campus('POST', '/courses/save', { token: staff, fields: { data: [{ Title: 'Logic', Code: 'LOG' }, { Title: 'Dup', Code: 'LOG' }] }, json: true });
    expect(res.json).toMatchObject({ success: true, data: [{ Title: 'Logic' }], failed: [{ validationErrors: { Code: 'Code already registered' } }] });
    expect(await w.app.db.course.count()).toBe(before + 1);
  });

  it('REST /destroy: a fault deleting the second record keeps the first', async () => {
    const a = await create('courses', { Title: 'Keep A', Code: 'KA' });
    const b = await create('courses', { Title: 'Keep B', Code: 'KB' });
    await changesNothing(
      () => failOn('Course', 'DELETE', `OLD."ID" = ${b.ID}`),
      async () => plain500(await w.campus('POST', '/courses/destroy', { token: staff, fields: { data: [a.ID, b.ID] }, json: true })),
    );
    expect(await w.app.db.course.count({ where: { ID: { in: [a.ID, b.ID] } } })).toBe(2);
  });

  it('REST delete: a record that cannot be deleted keeps its comments', async () => {
    const course = await create('courses', { Title: 'Discussed', Code: 'DIS' });
    expect((await w.campus('POST', `/courses/${course.ID}/comment`, { token: user, fields: { Message: 'hello' } })).json.success).toBe(true);
    await changesNothing(
      () => failOn('Course', 'DELETE'),
      async () => plain500(await w.campus('POST', `/courses/${course.ID}/delete`, { token: staff })),
    );
    expect(await w.app.db.comment.count({ where: { ContextID: course.ID, ContextClass: 'Slate\\Courses\\Course' } })).toBe(1);
  });

  it('GraphQL createBlogPost, updatePerson, deleteCourse and setPersonGroups: INTERNAL_SERVER_ERROR and nothing changed', async () => {
    await changesNothing(
      () => failInserts('ContentTag'),
      async () => internalError(await campusGql(w, 'mutation { createBlogPost(input: { title: "Graph", tags: ["A", "B"] }) { id } }', {}, user)),
    );
    const person = await create('people', { FirstName: 'Alan', LastName: 'Turing' });
    await changesNothing(
      () => failInserts('ContactPoint'),
      async () =>
        internalError(await campusGql(w, 'mutation($id: ID!) { updatePerson(id: $id, input: { firstName: "Al", email: "al@example.org" }) { id } }', { id: person.ID }, staff)),
    );
    const course = await create('courses', { Title: 'Graphs', Code: 'GRA' });
    await w.campus('POST', `/courses/${course.ID}/comment`, { token: user, fields: { Message: 'hello' } });
    await changesNothing(
      () => failOn('Course', 'DELETE'),
      async () => internalError(await campusGql(w, 'mutation($id: ID!) { deleteCourse(id: $id) { id } }', { id: course.ID }, staff)),
    );
    const [go, bridge] = [await create('groups', { Name: 'Go' }), await create('groups', { Name: 'Bridge' })];
    const setGroups = (groups: string[]) => campusGql(w, 'mutation($p: ID!, $g: [ID!]!) { setPersonGroups(person: $p, groups: $g) }', { p: String(person.ID), g: groups }, staff);
    expect((await setGroups([go.Handle!])).data).toEqual({ setPersonGroups: [go.ID] });
    // Replacing Go with Bridge removes Go first; the failing insert must bring it back.
    await changesNothing(
      () => failInserts('GroupMember'),
      async () => internalError(await setGroups([bridge.Handle!])),
    );
  });
});
