// Fuzzing the Slate-style campus routes (eight kinds, /create, /<id>, /edit, /delete, /save,
// /destroy, /comment, /login): no 5xx, no state change on a 4xx, /healthz still answering.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { KIND_LIST } from '../../src/campus/kinds.ts';
import { body, campusHeaders, campusToken, formText, garbageToken, jsonObjectText, method, queryString, segment } from './arbitraries.ts';
import { checkRequest, fuzzWorld, RUNS, type FuzzWorld } from './harness.ts';

let fw: FuzzWorld;
const tokens: string[] = [];
/** Per kind prefix: IDs and handles of seeded records (several, as the fuzzer deletes some). */
const idents: Record<string, string[]> = {};

const SEED: Record<string, Record<string, unknown>> = {
  people: { FirstName: 'Ada', LastName: 'Lovelace' },
  courses: { Title: 'Algebra', Code: 'MATH' },
  terms: { Title: 'Fall' },
  locations: { Title: 'Room' },
  groups: { Name: 'School' },
  blog: { Title: 'Post' },
  pages: { Title: 'About' },
};

beforeAll(async () => {
  fw = await fuzzWorld(async (w) => {
    for (const level of ['User', 'Student', 'Staff', 'Administrator', 'Developer']) tokens.push((await w.campusToken(level)).token);
    const staff = tokens[2]!;
    for (let i = 0; i < 3; i++) {
      for (const [prefix, fields] of Object.entries(SEED)) {
        const unique = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k === 'Code' ? `${v}${i}` : `${v} ${i}`]));
        const data = (await w.campus('POST', `/${prefix}/create`, { token: staff, fields: unique, json: true })).json.data;
        (idents[prefix] ??= []).push(String(data.ID), data.Handle ?? String(data.ID));
      }
      const course = idents.courses![2 * i]!;
      const section = (await w.campus('POST', '/sections/create', { token: staff, fields: { CourseID: course, Title: `S ${i}` }, json: true })).json.data;
      (idents.sections ??= []).push(String(section.ID), section.Handle ?? String(section.ID));
    }
  });
});
afterAll(() => fw?.close());

const token = () => campusToken(tokens);

const scheme = fc.constantFrom('Token', 'Token', 'Token', 'token', 'Bearer', 'Basic', '');

describe('fuzzing the campus routes', () => {
  for (const kind of KIND_LIST) {
    const fields = [...kind.fields.map((f) => f.name), 'ID', 'Class', 'Created', 'Tags', 'data', 'Message', 'include'];
    it(`/${kind.prefix}: any method, path, query, body and token: no 5xx, no change on 4xx`, async () => {
      const ident = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(idents[kind.prefix] ?? ['1'])) }, { weight: 1, arbitrary: segment });
      // Mostly the method the route table pairs with the path, sometimes any method.
      const routed = fc.oneof(
        fc.constantFrom(['GET', ''], ['POST', '/create'], ['POST', '/save'], ['POST', '/destroy'], ['GET', '/']),
        ident.map((i) => ['GET', `/${i}`]),
        fc.tuple(ident, fc.constantFrom('edit', 'delete', 'comment', 'edit/', 'x')).map(([i, a]) => ['POST', `/${i}/${a}`]),
        ident.map((i) => ['GET', `/${i}/delete`]),
        fc.tuple(ident, segment, segment).map(([a, b, c]) => ['GET', `/${a}/${b}/${c}`]),
      );
      const path = fc.tuple(routed, fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: method })).map(([[m, p], other]) => [other ?? m, p] as const);
      // /save and /destroy read `data`: an array of deltas, of IDs, or anything else.
      const batch = fc
        .tuple(fc.array(fc.oneof(jsonObjectText(fields), fc.constantFrom('1', '"1"', 'null', '[]', '"x"', '-1', '1e308', '{"ID":-0}', '{"ID":9007199254740993}', '{"ID":"1"}', '{"ID":1e308}', '{"ID":1.5}', '{"ID":"1e308"}', '{"ID":2147483648}', '{"ID":"9007199254740993"}', '{"ID":[1]}', '{"ID":{"a":1}}')), { maxLength: 6 }), fc.constantFrom(1, 1, 1, 300))
        .map(([items, times]) => Buffer.from(`{"data":[${Array.from({ length: times }, () => items).flat().join(',')}]}`));
      const bodies = fc.oneof(
        { weight: 4, arbitrary: body(fields) },
        { weight: 1, arbitrary: fc.record({ body: batch, contentType: fc.constant('application/json') }) },
        { weight: 1, arbitrary: fc.record({ body: formText(['data[0][ID]', 'data[]', 'data[0][Title]', 'data']).map((t) => Buffer.from(t)), contentType: fc.constant('application/x-www-form-urlencoded') }) },
      );
      await fc.assert(
        fc.asyncProperty(path, queryString, token(), scheme, bodies, async ([m, p], q, t, s, b) => {
          await checkRequest(fw, { method: m, path: `/${kind.prefix}${p}${q}`, headers: campusHeaders(t, b.contentType, s), body: b.body });
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });
  }

  it('/login, /login/logout and /section-participants/create: no 5xx, no change on 4xx', async () => {
    const path = fc.constantFrom('/login', '/login/logout', '/login/', '/section-participants/create', '/login/logout/x');
    const fields = ['_LOGIN[username]', '_LOGIN[password]', 'username', 'password', 'CourseSectionID', 'PersonID', 'Role', '_session'];
    // Not the seeded tokens: a logout with one would end the session the other properties use.
    const anyToken = fc.oneof(garbageToken, fc.constant(null));
    await fc.assert(
      fc.asyncProperty(method, path, queryString, anyToken, scheme, body(fields), async (m, p, q, t, s, b) => {
        await checkRequest(fw, { method: m, path: p + q, headers: campusHeaders(t, b.contentType, s), body: b.body });
      }),
      { numRuns: RUNS },
    );
  });
});
