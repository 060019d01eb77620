// Checks linked to campus records over GraphQL: Check.records and <Kind>.checks with each side's
// own authorization, the link and unlink mutations for all eight kinds, batching, and
// recordChecksChanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { createWorld, type World } from '../helpers/world.ts';

let w: World;
let staff: string;
let user: string;
const clients: Client[] = [];
beforeAll(async () => {
  // Statement counts cover the query's plan only: the rate limiter's once-a-minute
  // credential check (src/http/limits.ts) is not part of it.
  w = await createWorld({ RATE_LIMITS: 'off' });
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await w.stop();
});

/** A GraphQL call with an API key and a campus token, either may be null. */
async function call(query: string, variables: Record<string, unknown> = {}, creds: { key?: string | null; token?: string | null } = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const key = creds.key === undefined ? w.alice.api_key : creds.key;
  if (key) headers['X-Api-Key'] = key;
  if (creds.token) headers.Authorization = `Token ${creds.token}`;
  const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as { data?: any; errors?: Array<{ message: string; path?: string[]; extensions: { code: string } }> };
}

/** The data of a call that must succeed. */
async function ok(query: string, variables: Record<string, unknown> = {}, creds: { key?: string | null; token?: string | null } = {}) {
  const r = await call(query, variables, creds);
  expect(r.errors).toBeUndefined();
  return r.data;
}

/** Creates a campus record over Slate's REST API (as Staff) and returns it in Slate's shape. */
async function create(prefix: string, fields: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await w.campus('POST', `/${prefix}/create`, { token: staff, fields });
  expect(res.json.success).toBe(true);
  return res.json.data;
}

async function newCheck(name: string, tags = '', key = w.alice.api_key): Promise<string> {
  const res = await w.api('POST', '/api/v3/checks/', { key, body: { name, tags } });
  expect(res.status).toBe(201);
  return res.json.uuid;
}

const tagsOf = async (uuid: string) => (await w.app.db.check.findUniqueOrThrow({ where: { code: uuid } })).tags;

const LINK = 'mutation($c: ID!, $k: CampusKind!, $h: String!) { linkCheckRecord(check: $c, kind: $k, handle: $h) { name tags: tagsString } }';
const UNLINK = 'mutation($c: ID!, $k: CampusKind!, $h: String!) { unlinkCheckRecord(check: $c, kind: $k, handle: $h) { name tags: tagsString } }';

let courseId: number;
beforeAll(async () => {
  courseId = (await create('courses', { Title: 'Mathematics', Code: 'MATH' })).ID;
  await create('sections', { CourseID: courseId, Title: 'Algebra I' });
  await create('sections', { CourseID: courseId, Title: 'Hidden geometry', Status: 'Hidden' });
  await create('groups', { Name: 'Staff room' });
});

describe('Check.records', () => {
  it('lists the linked records a campus caller may read: public ones anonymously, more with a token', async () => {
    await newCheck('roster', 'prod campus:section/MATH-001 campus:section/MATH-002 campus:group/staff_room campus:course/MATH campus:term/none');
    const query = '{ project { checks { nodes { name records { __typename ... on Section { code } ... on Group { name } ... on Course { courseCode: code } } } } } }';
    const find = (data: any) => data.project.checks.nodes.find((n: { name: string }) => n.name === 'roster').records;
    expect(find(await ok(query))).toEqual([{ __typename: 'Section', code: 'MATH-001' }, { __typename: 'Course', courseCode: 'MATH' }]);
    expect(find(await ok(query, {}, { token: user }))).toEqual([
      { __typename: 'Section', code: 'MATH-001' }, { __typename: 'Group', name: 'Staff room' }, { __typename: 'Course', courseCode: 'MATH' },
    ]);
    expect(find(await ok(query, {}, { token: staff }))).toEqual([
      { __typename: 'Section', code: 'MATH-001' }, { __typename: 'Section', code: 'MATH-002' }, { __typename: 'Group', name: 'Staff room' }, { __typename: 'Course', courseCode: 'MATH' },
    ]);
  });
});

describe('checks of a record', () => {
  it("shows only the key's project's checks, to read-only keys too", async () => {
    await newCheck('grades export', 'campus:course/MATH');
    await newCheck('bob export', 'campus:course/MATH', w.bob.api_key);
    const query = '{ course(handle: "MATH") { code checks { name pingUrl uniqueKey status } } }';
    const alice = (await ok(query)).course.checks.map((c: { name: string }) => c.name);
    expect(alice).toEqual(['roster', 'grades export']);
    expect((await ok(query, {}, { key: w.bob.api_key })).course.checks.map((c: { name: string }) => c.name)).toEqual(['bob export']);
    const readOnly = (await ok(query, {}, { key: w.alice.api_key_readonly })).course.checks;
    expect(readOnly.map((c: { name: string; pingUrl: string | null }) => [c.name, c.pingUrl])).toEqual([['roster', null], ['grades export', null]]);
  });

  it('is null with an UNAUTHENTICATED error without a key (the record itself still shows), and with a wrong key', async () => {
    const r = await call('{ course(handle: "MATH") { code checks { name } } }', {}, { key: null });
    expect(r.data.course).toEqual({ code: 'MATH', checks: null });
    expect(r.errors).toEqual([expect.objectContaining({ message: 'missing api key', path: ['course', 'checks'], extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
    const wrong = await call('{ course(handle: "MATH") { checks { name } } }', {}, { key: 'hcw_wrong_key_00000000000000000000' });
    expect(wrong.data.course.checks).toBeNull();
    expect(wrong.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('walks both ways: a check, its records, their checks', async () => {
    const data = await ok('{ section(handle: "MATH-001") { checks { name records { __typename ... on Section { code checks { name } } } } } }');
    expect(data.section.checks).toEqual([{ name: 'roster', records: [{ __typename: 'Section', code: 'MATH-001', checks: [{ name: 'roster' }] }, { __typename: 'Course' }] }]);
  });
});

describe('linkCheckRecord and unlinkCheckRecord', () => {
  // Each kind, created over REST, named as a script would name it, and the tag the link writes.
  const samples: Array<{ kind: string; prefix: string; fields: Record<string, unknown>; field: string; handle: (r: any) => string; tag: (r: any) => string }> = [
    { kind: 'Person', prefix: 'people', fields: { FirstName: 'Ada', LastName: 'Lovelace', Username: 'ada' }, field: 'person', handle: (r) => r.Username, tag: () => 'campus:person/ada' },
    { kind: 'Section', prefix: 'sections', fields: { Title: 'Calculus' }, field: 'section', handle: (r) => r.Code, tag: (r) => `campus:section/${r.Code}` },
    { kind: 'Course', prefix: 'courses', fields: { Title: 'Physics', Code: 'PHY' }, field: 'course', handle: (r) => r.Code, tag: () => 'campus:course/PHY' },
    { kind: 'BlogPost', prefix: 'blog', fields: { Title: 'Nightly news' }, field: 'blogPost', handle: (r) => String(r.ID), tag: (r) => `campus:blogpost/${r.Handle}` },
    { kind: 'Page', prefix: 'pages', fields: { Title: 'About us' }, field: 'page', handle: (r) => r.Handle, tag: (r) => `campus:page/${r.Handle}` },
    { kind: 'Group', prefix: 'groups', fields: { Name: 'Chess club' }, field: 'group', handle: (r) => r.Handle, tag: (r) => `campus:group/${r.Handle}` },
    { kind: 'Location', prefix: 'locations', fields: { Title: 'Room 12' }, field: 'location', handle: (r) => r.Handle, tag: (r) => `campus:location/${r.Handle}` },
    { kind: 'Term', prefix: 'terms', fields: { Title: 'Spring' }, field: 'term', handle: (r) => r.Handle, tag: (r) => `campus:term/${r.Handle}` },
  ];

  it('links a check to a record of each of the eight kinds by tag, shown both ways, and unlinks it', async () => {
    const uuid = await newCheck('every kind', 'keep');
    const expected: string[] = ['keep'];
    for (const s of samples) {
      const record = await create(s.prefix, s.kind === 'Section' ? { ...s.fields, CourseID: courseId } : s.fields);
      const linked = await ok(LINK, { c: uuid, k: s.kind, h: s.handle(record) }, { token: staff });
      expected.push(s.tag(record));
      expect(linked.linkCheckRecord.tags).toBe(expected.join(' '));
      const back = await ok(`query($h: String) { ${s.field}(handle: $h) { checks { name } } }`, { h: s.handle(record) }, { token: staff });
      expect(back[s.field].checks).toEqual([{ name: 'every kind' }]);
    }
    const records = await ok(`query($u: String) { check(uniqueKey: $u) { records { __typename } } }`, { u: (await w.app.db.check.findUniqueOrThrow({ where: { code: uuid } })).uniqueKey }, { token: staff });
    expect(records.check.records.map((r: { __typename: string }) => r.__typename)).toEqual(samples.map((s) => s.kind));
    // Unlinking takes the tag away and the link with it; other tags stay.
    const unlinked = await ok(UNLINK, { c: uuid, k: 'Course', h: 'PHY' }, { token: staff });
    expect(unlinked.unlinkCheckRecord.tags).toBe(expected.filter((t) => t !== 'campus:course/PHY').join(' '));
    expect((await ok('{ course(handle: "PHY") { checks { name } } }')).course.checks).toEqual([]);
  });

  it('changes nothing when linked already or not linked, and names a section by its code unless that is another one’s handle', async () => {
    const uuid = await newCheck('twice', 'campus:section/MATH-001');
    expect((await ok(LINK, { c: uuid, k: 'Section', h: 'algebra_i' })).linkCheckRecord.tags).toBe('campus:section/MATH-001');
    expect((await ok(UNLINK, { c: uuid, k: 'Course', h: 'MATH' })).unlinkCheckRecord.tags).toBe('campus:section/MATH-001');
    // A section whose code is another section's handle is named by its own handle.
    const tricky = await create('sections', { CourseID: courseId, Title: 'Tricky', Code: 'algebra_i' });
    expect((await ok(LINK, { c: uuid, k: 'Section', h: tricky.Handle })).linkCheckRecord.tags).toBe(`campus:section/MATH-001 campus:section/${tricky.Handle}`);
  });

  it('unlinks a tag written before its record existed', async () => {
    const uuid = await newCheck('early', 'campus:location/lab_b');
    expect(await w.app.db.checkRecordLink.count({ where: { check: { code: uuid } } })).toBe(0);
    await create('locations', { Title: 'Lab B' });
    expect((await ok(UNLINK, { c: uuid, k: 'Location', h: 'lab_b' }, { token: staff })).unlinkCheckRecord.tags).toBe('');
  });

  it('refuses read-only keys, unknown and unreadable records, and other projects’ checks, changing nothing', async () => {
    const uuid = await newCheck('guarded', 'prod');
    const refused = async (variables: Record<string, unknown>, creds: { key?: string | null; token?: string | null }) => {
      const r = await call(LINK, variables, creds);
      expect(r.data).toBeNull();
      return [r.errors![0]!.message, r.errors![0]!.extensions.code];
    };
    expect(await refused({ c: uuid, k: 'Course', h: 'MATH' }, { key: w.alice.api_key_readonly })).toEqual(['wrong api key', 'UNAUTHENTICATED']);
    expect(await refused({ c: uuid, k: 'Course', h: 'NOPE' }, {})).toEqual(['Record not found', 'NOT_FOUND']);
    expect(await refused({ c: uuid, k: 'Section', h: 'MATH-002' }, {})).toEqual(['Login required', 'UNAUTHENTICATED']);
    expect(await refused({ c: uuid, k: 'Group', h: 'staff_room' }, {})).toEqual(['Login required', 'UNAUTHENTICATED']);
    expect(await refused({ c: uuid, k: 'Course', h: 'MATH' }, { key: w.bob.api_key })).toEqual(['not found', 'NOT_FOUND']);
    expect(await tagsOf(uuid)).toBe('prod');
    // The hidden section is linkable by a caller who may read it.
    expect((await ok(LINK, { c: uuid, k: 'Section', h: 'MATH-002' }, { token: staff })).linkCheckRecord.tags).toBe('prod campus:section/MATH-002');
  });
});

describe('batching', () => {
  it('reads a page of 50 sections with their checks and statuses in as many statements as a page of 5', async () => {
    const course = (await create('courses', { Title: 'Batch', Code: 'BAT' })).ID;
    for (let i = 0; i < 50; i++) {
      const code = (await create('sections', { CourseID: course, Title: `Batch ${i}` })).Code;
      await newCheck(`batch ${i}`, `campus:section/${code} campus:course/BAT`);
      if (i % 2) await newCheck(`batch ${i} bis`, `campus:section/${code}`);
    }
    const query = `query($n: Int!) { sections(course: "BAT", first: $n) { nodes { code checks { name status lastPing records { ... on Section { code } ... on Course { courseCode: code } } } } } }`;
    const counted = async (n: number) => {
      const sent: string[] = [];
      const stop = w.app.onStatement((sql) => sent.push(sql));
      try {
        return { data: await ok(query, { n }), sent };
      } finally {
        stop();
      }
    };
    const small = await counted(5);
    const large = await counted(50);
    expect(large.data.sections.nodes).toHaveLength(50);
    const odd = large.data.sections.nodes[1];
    expect(odd.checks).toEqual([
      { name: 'batch 1', status: 'NEW', lastPing: null, records: [{ code: odd.code }, { courseCode: 'BAT' }] },
      { name: 'batch 1 bis', status: 'NEW', lastPing: null, records: [{ code: odd.code }] },
    ]);
    expect(large.sent.length).toBe(small.sent.length);
    // The course filter (handle, then code), the sections and their count, the key, the checks
    // with which section each links, then Check.records: the links, their sections, their courses.
    expect(large.sent.length).toBeLessThanOrEqual(10);
  });
});

describe('recordChecksChanged', () => {
  function subscribeTo(variables: Record<string, unknown>, params: Record<string, string>) {
    const c = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: params, retryAttempts: 0, lazy: true });
    clients.push(c);
    const events: any[] = [];
    const errors: unknown[] = [];
    let wake = () => {};
    const stop = c.subscribe(
      { query: 'subscription($k: CampusKind!, $h: String!) { recordChecksChanged(kind: $k, handle: $h) { change check { name status records { __typename } } } }', variables },
      { next: (v) => (events.push(v), wake()), error: (e) => (errors.push(e), wake()), complete: () => {} },
    );
    const next = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited for event ${n}; have ${JSON.stringify(events)}`)), 3000);
        wake = () => {
          if (events.length >= n || errors.length) (clearTimeout(timer), resolve());
        };
        wake();
      });
    return { events, errors, stop, next };
  }
  const subscribed = async (before: number) => {
    for (let i = 0; i < 200 && w.app.deps.events.listenerCount('checkChanged') <= before; i++) await new Promise((r) => setTimeout(r, 10));
  };

  it("pushes changes of the key's project's checks linked to the record, following links as they change", async () => {
    await create('courses', { Title: 'Live', Code: 'LIVE' });
    const linked = await newCheck('live linked', 'campus:course/LIVE');
    const other = await newCheck('live other', 'prod');
    const bobs = await newCheck('live bob', 'campus:course/LIVE', w.bob.api_key);
    const before = w.app.deps.events.listenerCount('checkChanged');
    const sub = subscribeTo({ k: 'Course', h: 'LIVE' }, { 'X-Api-Key': w.alice.api_key });
    await subscribed(before);

    await w.ping(`/ping/${other}`);
    await w.ping(`/ping/${bobs}/fail`);
    await w.ping(`/ping/${linked}/fail`);
    await sub.next(1);
    await w.api('POST', `/api/v3/checks/${other}`, { body: { tags: 'prod campus:course/LIVE' } });
    await w.ping(`/ping/${other}`);
    await w.api('POST', `/api/v3/checks/${linked}`, { body: { tags: '' } });
    await w.ping(`/ping/${linked}`);
    await w.ping(`/ping/${other}/fail`);
    await sub.next(5);
    // Each event shows the check's records as they are then (one subscription context serves all).
    const shown = (e: any) => [e.data.recordChecksChanged.change, e.data.recordChecksChanged.check.name, e.data.recordChecksChanged.check.records.length];
    expect(sub.events.map(shown)).toEqual([
      ['PING', 'live linked', 1],
      ['UPDATED', 'live other', 1],
      ['PING', 'live other', 1],
      ['UPDATED', 'live linked', 0],
      ['PING', 'live other', 1],
    ]);
    expect(sub.events[0].data.recordChecksChanged.check.status).toBe('DOWN');
    sub.stop();
  });

  it('needs an API key and a campus caller who may read the record', async () => {
    const refusal = async (variables: Record<string, unknown>, params: Record<string, string>) => {
      const sub = subscribeTo(variables, params);
      await sub.next(1);
      const error = sub.events[0].errors[0];
      return [error.message, error.extensions.code];
    };
    expect(await refusal({ k: 'Course', h: 'LIVE' }, {})).toEqual(['missing api key', 'UNAUTHENTICATED']);
    expect(await refusal({ k: 'Group', h: 'staff_room' }, { 'X-Api-Key': w.alice.api_key })).toEqual(['Login required', 'UNAUTHENTICATED']);
    expect(await refusal({ k: 'Course', h: 'NOPE' }, { 'X-Api-Key': w.alice.api_key, Authorization: `Token ${staff}` })).toEqual(['Record not found', 'NOT_FOUND']);
  });
});
