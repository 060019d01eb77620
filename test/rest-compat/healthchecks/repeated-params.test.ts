// A repeated query parameter counts by its last value, as Django's QueryDict.get reads it
// (URLSearchParams.get would take the first): list filters, flips filters, rid and create.
import { expect, it } from 'vitest';
import { useWorldPerTest } from '../../helpers/fixtures.ts';

const w = useWorldPerTest();

async function check(name: string, slug?: string) {
  const created = await w.api('POST', '/api/v3/checks/', { body: { name, ...(slug ? { slug } : {}) } });
  expect(created.status).toBe(201);
  return created.json.uuid as string;
}

it('filters the check list by the last slug', async () => {
  await check('t one', 't-one');
  const names = async (query: string) => (await w.api('GET', `/api/v3/checks/?${query}`)).json.checks.map((c: { name: string }) => c.name);
  expect(await names('slug=x&slug=t-one')).toEqual(['t one']);
  expect(await names('slug=t-one&slug=x')).toEqual([]);
});

it('judges the flips filters by their last values', async () => {
  const uuid = await check('flippy');
  expect((await w.api('GET', `/api/v3/checks/${uuid}/flips/?seconds=5&seconds=x`)).status).toBe(400);
  expect((await w.api('GET', `/api/v3/checks/${uuid}/flips/?seconds=x&seconds=5`)).status).toBe(200);
});

it('takes the last rid of a ping, and the last create of a slug ping', async () => {
  const uuid = await check('ridden');
  const rid = '1f2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b';
  expect(await w.ping(`/ping/${uuid}?rid=${rid}&rid=bad`)).toMatchObject({ status: 400, text: 'invalid uuid format' });
  expect((await w.ping(`/ping/${uuid}?rid=bad&rid=${rid}`)).status).toBe(200);
  const stored = await w.app.db.ping.findMany({ where: { check: { code: uuid } } });
  expect(stored.map((p) => p.rid)).toEqual([rid]);

  const key = w.alice.ping_key;
  expect((await w.ping(`/ping/${key}/made-here?create=1&create=0`)).status).toBe(404);
  expect(await w.app.db.check.count({ where: { slug: 'made-here' } })).toBe(0);
  expect(await w.ping(`/ping/${key}/made-here?create=0&create=1`)).toMatchObject({ status: 201, text: 'Created' });
  expect(await w.app.db.check.count({ where: { slug: 'made-here' } })).toBe(1);
});

it('reads a ping URL\'s query string as URL parsing would, without parsing the URL', async () => {
  const { queryOf } = await import('../../../rest-compat/healthchecks/ping-routes.ts');
  const read = (url: string) => [...queryOf(url)];
  const viaUrl = (url: string) => [...new URL(url, 'http://localhost').searchParams];
  for (const url of ['/ping/x', '/ping/x?', '/ping/x?rid=a&rid=b', '/ping/x?create=1#frag?create=0', '/ping/x?a=%20b+c&d', '/ping/x?a=é']) expect(read(url)).toEqual(viaUrl(url));
});
