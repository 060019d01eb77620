// Fuzzing /graphql: real operations with variables of wrong types and extreme values, random
// query text, deep selections, garbage JSON bodies and GET queries, asking for
// application/json or application/graphql-response+json (where the spec's 4xx codes apply).
// GraphQL answers 200 with `errors` (or 4xx for a request it cannot read): both fine. No 5xx,
// no change on a 4xx or on an answer that executed nothing (harness.ts).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { extremeNumber, garbageToken, nastyString, queryString } from './arbitraries.ts';
import { checkRequest, fuzzWorld, RUNS, type FuzzWorld } from './harness.ts';

let fw: FuzzWorld;
let staff = '';
let checkId = '';

beforeAll(async () => {
  fw = await fuzzWorld(async (w) => {
    staff = (await w.campusToken('Staff')).token;
    checkId = (await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', slug: 'backup' } })).json.uuid;
    await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Algebra', Code: 'MATH' }, json: true });
  });
});
afterAll(() => fw?.close());

/** Operations from the schema, each taking its arguments from variables. */
const OPERATIONS = [
  'query($id: ID, $u: String) { check(id: $id, uniqueKey: $u) { name status tags pings { n } flips { timestamp } } }',
  'query { project { name checks { name status } } }',
  'query($first: Int, $offset: Int, $sort: String, $q: String, $dir: SortDirection) { courses(first: $first, offset: $offset, sort: $sort, q: $q, dir: $dir) { total } }',
  'query($id: ID, $h: String) { course(id: $id, handle: $h) { ID Title } person(id: $id) { ID } section(handle: $h) { ID } }',
  'query($first: Int, $offset: Int, $q: String) { people(first: $first, offset: $offset, q: $q) { total } blogPosts(first: $first) { total } }',
  'mutation($input: CheckInput!) { createCheck(input: $input) { created } }',
  'mutation($id: ID!, $input: CheckInput!) { updateCheck(id: $id, input: $input) { name } }',
  'mutation($id: ID!) { pauseCheck(id: $id) { status } }',
  'mutation($id: ID!) { deleteCheck(id: $id) { name } }',
  'mutation($input: CourseInput!) { createCourse(input: $input) { ID } }',
  'mutation($id: ID!, $message: String!) { commentCourse(id: $id, message: $message) { ID } }',
  'mutation($id: ID!) { deleteCourse(id: $id) { ID } }',
  'mutation($username: String!, $password: String!) { login(username: $username, password: $password) { Handle } }',
  'mutation($seconds: Int) { setNagPeriod(seconds: $seconds) }',
  'mutation($person: ID!, $groups: [ID!]!) { setPersonGroups(person: $person, groups: $groups) }',
];

const VARIABLE_NAMES = ['id', 'u', 'first', 'offset', 'sort', 'q', 'dir', 'h', 'input', 'message', 'username', 'password', 'seconds', 'person', 'groups', '__proto__', 'constructor'];
const INPUT_FIELDS = ['name', 'slug', 'tags', 'desc', 'timeout', 'grace', 'schedule', 'tz', 'Title', 'Code', 'Handle', 'channels', 'methods', 'manualResume', '__proto__'];

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    extremeNumber,
    nastyString,
    fc.boolean(),
    fc.constant(null),
    // $CHECK becomes the seeded check's UUID; 1 is the seeded course's ID.
    fc.constantFrom('ASC', 'DESC', 'x', '$CHECK', '$CHECK', 1),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...INPUT_FIELDS), tie('v'), { maxKeys: 5 }),
  ),
})).v;

/** Query text: a real operation, one mangled, one with a selection nested hundreds deep, or noise. */
const queryText = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...OPERATIONS) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...OPERATIONS), fc.nat(), fc.nat({ max: 20 })).map(([op, at, n]) => op.slice(0, at % op.length) + op.slice((at % op.length) + n)) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 800 }).map((d) => `{ project { ${'checks { project { '.repeat(d)}name${' } }'.repeat(d)} } }`) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map((n) => `{ ${'project { name } '.repeat(n)} }`) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 2000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`) },
  { weight: 1, arbitrary: fc.constantFrom('{ __schema { types { name fields { name args { name type { name ofType { name ofType { name } } } } } } } }', 'subscription { checkEvents { name } }', '{ __typename @skip(if: true) @skip(if: true) }', 'query q { ...f } fragment f on Query { ...f }') },
  { weight: 1, arbitrary: nastyString },
);

const headers = fc.record({
  'X-Api-Key': fc.oneof(fc.constant(''), fc.constant('alice'), garbageToken),
  Authorization: fc.oneof(fc.constant(''), fc.constant('staff'), garbageToken.map((t) => `Token ${t}`)),
  // No text/event-stream: a subscription would stream until the timeout (the SSE fuzz has its own file).
  Accept: fc.constantFrom(
    '',
    'application/graphql-response+json',
    'application/graphql-response+json',
    'application/json',
    'application/graphql-response+json, application/json;q=0.9',
    'application/json;q=0.1, application/graphql-response+json',
    '*/*',
    'text/html',
  ),
});

function realHeaders(h: { 'X-Api-Key': string; Authorization: string; Accept: string }, contentType: string | null) {
  const out: Record<string, string> = {};
  if (h.Accept) out.Accept = h.Accept;
  if (h['X-Api-Key']) out['X-Api-Key'] = h['X-Api-Key'] === 'alice' ? fw.w.alice.api_key : h['X-Api-Key'];
  if (h.Authorization) out.Authorization = h.Authorization === 'staff' ? `Token ${staff}` : h.Authorization;
  if (contentType) out['Content-Type'] = contentType;
  return out;
}

describe('fuzzing /graphql', () => {
  it('random operations, variables, bodies and GET queries: no 5xx, no change on 4xx', async () => {
    const variables = fc.oneof(
      fc.dictionary(fc.constantFrom(...VARIABLE_NAMES), value, { maxKeys: 6 }),
      fc.constantFrom(null, [], 'x', 1),
    );
    const payload = fc.oneof(
      { weight: 6, arbitrary: fc.record({ query: queryText, variables, operationName: fc.option(fc.constantFrom('q', '', 'x'), { nil: undefined }) }).map((p) => JSON.stringify(p)) },
      { weight: 1, arbitrary: fc.constantFrom('{', '[]', '[{"query":"{ __typename }"}]', 'null', '{"query": 1}', '{"query": {"a": 1}}', '{"query":"{ __typename }","variables":"{"}', '{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"x"}}}') },
      { weight: 1, arbitrary: fc.integer({ min: 100, max: 3000 }).map((d) => `{"query":"{ __typename }","variables":${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a).toString('latin1')) },
    );
    const request = fc.oneof(
      { weight: 5, arbitrary: fc.tuple(fc.constant('POST'), payload, fc.constantFrom('application/json', 'application/json', 'application/graphql+json', 'text/plain', 'application/x-www-form-urlencoded', '')) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('GET', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'), fc.constant(''), fc.constant('')) },
    );
    const getQuery = fc.oneof(queryString, queryText.map((q) => `?query=${encodeURIComponent(q.replace(/[\ud800-\udfff]/g, '?'))}`));
    await fc.assert(
      fc.asyncProperty(request, getQuery, headers, fc.constantFrom('/graphql', '/graphql/'), async ([m, body, type], q, h, path) => {
        const text = body.replaceAll('"$CHECK"', JSON.stringify(checkId));
        await checkRequest(fw, { method: m, path: m === 'POST' ? path : path + q, headers: realHeaders(h, type || null), body: m === 'POST' ? Buffer.from(text, 'utf8') : undefined });
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
