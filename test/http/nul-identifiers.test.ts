// An identifier holding NUL names nothing: 404 / NOT_FOUND on both databases. (PostgreSQL
// refuses NUL in text, so the lookup itself used to fail with a 500 there; the fuzz suite's
// PostgreSQL pass found it.)
import { beforeAll, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { campusGql, gql } from '../helpers/gql.ts';

const w = useWorld();
let staff = '';
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
});

it('campus routes answer 404 for a record named with NUL, reads and writes alike', async () => {
  for (const [method, path] of [
    ['GET', '/courses/%00'],
    ['GET', '/sections/a%00b/edit'],
    ['POST', '/sections/%00/edit'],
    ['POST', '/people/%00/delete'],
  ] as const) {
    const res = await w.campus(method, path, { token: staff, fields: method === 'POST' ? { Title: 'x' } : undefined });
    expect(res.status, `${method} ${path}`).toBe(404);
  }
  const destroy = await w.campus('POST', '/terms/destroy', { token: staff, fields: { data: [{ ID: '\u0000' }] }, json: true });
  expect(destroy.json).toMatchObject({ success: false, failed: [{ errors: 'ID not found' }] });
  const byHandle = await campusGql(w, 'query { course(handle: "\\u0000") { id } }', {}, staff);
  expect(byHandle.errors?.[0]?.extensions?.code ?? null).not.toBe('INTERNAL_SERVER_ERROR');
});

it('GraphQL check and channel mutations answer NOT_FOUND for an id with NUL', async () => {
  for (const field of ['deleteCheck(id: $id) { name }', 'testChannel(id: $id) { ok }', 'deleteChannel(id: $id)']) {
    const res = await gql(w, `mutation($id: ID!) { ${field} }`, { id: 'a\u0000b' });
    expect(res.errors?.[0]?.extensions?.code, field).toBe('NOT_FOUND');
  }
});

it('badge URLs answer 404 for a project or badge key with NUL', async () => {
  for (const path of ['/badge/%00/%20.svg', '/badge/a%00/sig/tag.json', '/b/2/%00.svg', '/b/3/x%00y.shields']) {
    const res = await fetch(w.url + path);
    expect(res.status, path).toBe(404);
    expect(await res.json()).toEqual({ error: 'not found' });
  }
});

it('check filters with NUL match no check, and a status page slug with NUL is not found', async () => {
  for (const query of ['slug=%00', 'tag=%00', 'tag=a&tag=b%00']) {
    const res = await w.api('GET', `/api/v3/checks/?${query}`);
    expect(res.status, query).toBe(200);
    expect(res.json, query).toEqual({ checks: [] });
  }
  const page = await fetch(`${w.url}/status/a%00b`);
  expect(page.status).toBe(404);
  const byGraphql = await gql(w, 'query { statusPage(slug: "a\\u0000b") { title } checks: project { checks(filter: { tags: ["\\u0000"] }) { nodes { name } } } }');
  expect(byGraphql.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code) ?? []).not.toContain('INTERNAL_SERVER_ERROR');
});

it('a login with NUL in the username fails as an unknown name does, over GraphQL and POST /login', async () => {
  const res = await campusGql(w, 'mutation($u: String!) { login(username: $u, password: "longpassword") { token } }', { u: 'a\u0000b' }, null);
  expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  expect(res.errors?.[0]?.message).toBe('The username or password you entered was incorrect.');
  const rest = await w.campus('POST', '/login', { fields: { username: 'a\u0000b', password: 'longpassword' }, json: true });
  expect(rest.status).toBeGreaterThanOrEqual(400);
  expect(rest.status).toBeLessThan(500);
});

it('a check asked for by a unique key with NUL is not found', async () => {
  const res = await gql(w, 'query($k: String) { check(uniqueKey: $k) { name } }', { k: 'a\u0000b' });
  expect(res.errors?.[0]?.extensions?.code ?? null).not.toBe('INTERNAL_SERVER_ERROR');
  expect(res.data?.check ?? null).toBeNull();
});

it('a checks cursor with NUL is refused as an unknown cursor is, with and without a filter', async () => {
  for (const filter of ['', 'filter: { status: [UP] },']) {
    const unknown = await gql(w, `query { project { checks(${filter} after: "nope") { nodes { name } } } }`);
    const withNul = await gql(w, `query { project { checks(${filter} after: "a\\u0000b") { nodes { name } } } }`);
    expect(unknown.errors?.[0]?.message, filter).toBe('unknown cursor');
    expect(withNul.errors?.[0]?.message, filter).toBe('unknown cursor');
    expect(withNul.errors?.[0]?.extensions?.code, filter).toBe(unknown.errors?.[0]?.extensions?.code);
  }
});
