// Text filters and identifiers are bounded in the domain, so REST and GraphQL refuse the same
// over-long input with a client error (400 / BAD_USER_INPUT) before it reaches a query: a tag
// or `query` of 60,000 characters used to become a LIKE pattern SQLite refuses (a 500).
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { campusGql, gql } from '../helpers/gql.ts';

const w = useWorld({ RATE_LIMITS: 'off' });
let admin = '';

beforeAll(async () => {
  admin = (await w.campusToken('Administrator')).token;
  // Rows to match against: an empty table never evaluates a LIKE pattern.
  expect((await w.campus('POST', '/groups/create', { token: admin, fields: { Name: 'School' }, json: true })).status).toBe(200);
  expect((await w.api('POST', '/api/v3/checks/', { body: { name: 'db', slug: 'db', tags: 'prod db' } })).status).toBe(201);
});

const long = (n: number) => 'x'.repeat(n);

describe('campus filters and identifiers', () => {
  it('a browse filter of 200 characters runs; 201 is refused over both transports', async () => {
    expect((await campusGql(w, 'query($q: String) { groups(query: $q) { totalCount } }', { q: long(200) }, admin)).data.groups.totalCount).toBe(0);
    const refused = await campusGql(w, 'query($q: String) { groups(query: $q) { totalCount } }', { q: long(50_001) }, admin);
    expect(refused.errors?.map((e) => [e.message, e.extensions.code])).toEqual([['query is too long: at most 200 characters', 'BAD_USER_INPUT']]);
    const rest = await w.campus('GET', `/groups?query=${long(201)}`, { token: admin });
    expect([rest.status, rest.json]).toEqual([400, { success: false, message: 'query is too long: at most 200 characters' }]);
    // Slate still finds by a short query.
    expect((await w.campus('GET', '/groups?query=Scho', { token: admin })).json.total).toBe(1);
  });

  it('every section filter is bounded the same way', async () => {
    for (const [arg, param] of [['term', 'term'], ['course', 'course'], ['location', 'location'], ['enrolledUser', 'enrolled_user']]) {
      const res = await campusGql(w, `query($v: String) { sections(${arg}: $v) { totalCount } }`, { v: long(201) }, admin);
      expect(res.errors?.[0]?.message).toBe(`${param} is too long: at most 200 characters`);
      expect(res.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
      expect((await w.campus('GET', `/sections?${param}=${long(201)}`, { token: admin })).status).toBe(400);
    }
  });

  it('an identifier past 255 characters names nothing, without a look-up', async () => {
    const groupReads = async (handle: string) => {
      let reads = 0;
      const stop = w.app.onStatement((sql) => void (/[`"]Group[`"]/.test(sql) && reads++));
      const res = await campusGql(w, 'query($h: String) { group(handle: $h) { name } }', { h: handle }, admin);
      stop();
      expect(res).toMatchObject({ status: 200, data: { group: null } });
      return reads;
    };
    expect(await groupReads(long(255))).toBeGreaterThan(0);
    expect(await groupReads(long(60_000))).toBe(0);
    expect((await w.campus('GET', `/groups/${long(256)}`, { token: admin })).status).toBe(404);
    const member = await campusGql(w, 'mutation($g: ID!) { setGroupMember(group: $g, person: "1") { role } }', { g: long(60_000) }, admin);
    expect(member.errors?.map((e) => [e.message, e.extensions.code])).toEqual([[`group not found: ${'x'.repeat(100)}…`, 'NOT_FOUND']]);
  });

  it('a comment past 65,535 characters is a validation error and is not stored', async () => {
    const comment = 'mutation($m: String!) { commentGroup(id: 1, message: $m) { id } }';
    const res = await campusGql(w, comment, { m: long(65_536) }, admin);
    expect(res.errors?.map((e) => [e.message, e.extensions.code])).toEqual([['Message is too long.', 'BAD_USER_INPUT']]);
    expect(await w.app.db.comment.count()).toBe(0);
    expect((await campusGql(w, comment, { m: long(65_535) }, admin)).errors).toBeUndefined();
    expect(await w.app.db.comment.count()).toBe(1);
  });

  it('a blank Status or Visibility takes the default instead of failing the insert', async () => {
    const rest = await w.campus('POST', '/groups/create', { token: admin, fields: { Name: 'Blank', Status: '' }, json: true });
    expect([rest.status, rest.json.data?.Status]).toEqual([200, 'Live']);
    const nulls = await campusGql(w, 'mutation { createGroup(input: { name: "Null", status: null }) { status } }', {}, admin);
    expect(nulls.data?.createGroup.status).toBe('Live');
    const post = await w.campus('POST', '/blog/create', { token: admin, fields: { Title: 'Hello', Visibility: null }, json: true });
    expect([post.status, post.json.data?.Visibility]).toEqual([200, 'Public']);
  });
});

describe('check filters', () => {
  const checks = 'query($f: CheckFilter) { project { checks(filter: $f) { nodes { name } } } }';
  const refusal = async (filter: Record<string, unknown>) => (await gql(w, checks, { f: filter })).errors?.map((e) => [e.message, e.extensions.code]);

  it('tags and slug as long as the fields they match still run', async () => {
    expect((await gql(w, checks, { f: { tags: ['prod'], slug: 'db' } })).data.project.checks.nodes).toEqual([{ name: 'db' }]);
    expect((await gql(w, checks, { f: { tags: [long(500)], slug: long(100) } })).data.project.checks.nodes).toEqual([]);
  });

  it('longer tags, more tags, a longer slug: BAD_USER_INPUT over GraphQL, 400 over REST', async () => {
    expect(await refusal({ tags: [long(60_000)] })).toEqual([['tag is too long: at most 500 characters', 'BAD_USER_INPUT']]);
    expect(await refusal({ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) })).toEqual([['too many tags: at most 100', 'BAD_USER_INPUT']]);
    expect(await refusal({ slug: long(101) })).toEqual([['slug is too long: at most 100 characters', 'BAD_USER_INPUT']]);
    const tag = await w.api('GET', `/api/v3/checks/?tag=${long(501)}`);
    expect([tag.status, tag.json]).toEqual([400, { error: 'tag is too long: at most 500 characters' }]);
    const many = await w.api('GET', `/api/v3/checks/?${Array.from({ length: 101 }, (_, i) => `tag=t${i}`).join('&')}`);
    expect([many.status, many.json]).toEqual([400, { error: 'too many tags: at most 100' }]);
    expect((await w.api('GET', `/api/v3/checks/?slug=${long(101)}`)).status).toBe(400);
    expect((await w.api('GET', '/api/v3/checks/?tag=prod&slug=db')).json.checks).toHaveLength(1);
  });
});
