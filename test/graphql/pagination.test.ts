// Page arguments on every paginated field: out-of-range sizes and offsets are refused with
// BAD_USER_INPUT before anything is read (Prisma would read a negative `take` from the end).
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();
let staff: string;
let check: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'paged', timeout: 60, grace: 60 } })).json.uuid;
  for (const kind of ['', '/start', '/fail']) await w.ping(`/ping/${check}${kind}`);
  await w.channel(w.alice, { name: 'ops' });
  for (const title of ['Autumn', 'Winter', 'Spring']) {
    const r = await q(`mutation { createTerm(input: { title: "${title}" }) { databaseId } }`);
    expect(r.errors).toBeUndefined();
  }
});

async function q(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${w.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key, Authorization: `Token ${staff}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, ...((await res.json()) as { data?: any; errors?: Array<{ message: string; path?: unknown[]; extensions?: any }> }) };
}

const CAMPUS_LISTS = ['people', 'sections', 'courses', 'blogPosts', 'pages', 'groups', 'locations', 'terms'];

/** Each paginated field, a query with `$n` in the argument, the error's path and the largest value allowed. */
const FIELDS: Array<[string, string, string, unknown[], number]> = [
  ['project.checks', 'first', 'query($n: Int) { project { checks(first: $n) { totalCount } } }', ['project', 'checks'], 1000],
  ['Check.pings', 'first', `query($n: Int) { check(id: "${'$id'}") { pings(first: $n) { n } } }`, ['check', 'pings'], 1000],
  ['Check.notifications', 'first', `query($n: Int) { check(id: "${'$id'}") { notifications(first: $n) { uuid } } }`, ['check', 'notifications'], 100],
  ['Channel.notifications', 'first', 'query($n: Int) { project { channels { notifications(first: $n) { uuid } } } }', ['project', 'channels', 0, 'notifications'], 100],
  ...CAMPUS_LISTS.flatMap((list): Array<[string, string, string, unknown[], number]> => [
    [list, 'first', `query($n: Int) { ${list}(first: $n) { totalCount } }`, [list], 1000],
    [list, 'offset', `query($n: Int) { ${list}(first: 10, offset: $n) { totalCount } }`, [list], 1_000_000],
  ]),
];
const withCheck = (query: string) => query.replace('$id', () => check);

describe('page arguments', () => {
  it.each(FIELDS)('%s(%s:) refuses -1 and max + 1 and accepts 0 and max', async (_field, arg, query, path, max) => {
    for (const n of [-1, max + 1, 2 ** 31 - 1]) {
      const r = await q(withCheck(query), { n });
      expect(r.status).toBe(200);
      expect(r.errors).toEqual([expect.objectContaining({ message: `${arg} must be between 0 and ${max}`, path, extensions: { code: 'BAD_USER_INPUT' } })]);
    }
    for (const n of [0, max]) {
      const r = await q(withCheck(query), { n });
      expect(r.errors).toBeUndefined();
    }
  });

  it('refuses literals as it refuses variables', async () => {
    const r = await q('{ terms(first: -1) { nodes { title } } }');
    expect(r.errors).toEqual([expect.objectContaining({ message: 'first must be between 0 and 1000', path: ['terms'], extensions: { code: 'BAD_USER_INPUT' } })]);
    expect(r.data).toBeNull();
    const pings = await q(withCheck('{ check(id: "$id") { name pings(first: -5) { n } } }'));
    // Pings are nullable: the rest of the check is still there.
    expect(pings.data.check).toEqual({ name: 'paged', pings: null });
    expect(pings.errors![0]).toMatchObject({ path: ['check', 'pings'], extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('pages campus lists: first 0 is no records (with the total), offset alone skips that many', async () => {
    const titles = async (args: string) => {
      const r = await q(`{ terms(${args}) { totalCount nodes { title } } }`);
      expect(r.errors).toBeUndefined();
      return { total: r.data.terms.totalCount, titles: r.data.terms.nodes.map((n: { title: string }) => n.title) };
    };
    expect(await titles('first: 0')).toEqual({ total: 3, titles: [] });
    expect(await titles('first: 2')).toEqual({ total: 3, titles: ['Autumn', 'Winter'] });
    expect(await titles('first: 2, offset: 2')).toEqual({ total: 3, titles: ['Spring'] });
    expect(await titles('offset: 1')).toEqual({ total: 3, titles: ['Winter', 'Spring'] });
    expect(await titles('offset: 5')).toEqual({ total: 3, titles: [] });
  });

  it('still lists what a valid page asks for', async () => {
    const r = await q(withCheck('{ check(id: "$id") { pings(first: 2) { type } notifications(first: 0) { uuid } } project { checks(first: 1) { nodes { name } } } }'));
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ check: { pings: [{ type: 'fail' }, { type: 'start' }], notifications: [] }, project: { checks: { nodes: [{ name: 'paged' }] } } });
  });
});
