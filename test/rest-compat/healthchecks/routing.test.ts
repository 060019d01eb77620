import { expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();

it('redirects a GET without the trailing slash (301), as Django does', async () => {
  const res = await w.api('GET', '/api/v2/checks?tag=a');
  expect(res.status).toBe(301);
  expect(res.headers.get('location')).toBe('/api/v2/checks/?tag=a');
  expect((await w.api('GET', '/api/v2/nothing-here')).status).toBe(404);
});

it('refuses (414) rather than echoes an address too long for a Location header (found by fuzzing)', async () => {
  const long = `/api/v1/checks?tag=${'-0%20%20'.repeat(1500)}`;
  const res = await w.api('GET', long);
  expect(res.status).toBe(414);
  expect(res.json).toEqual({ error: 'the address is too long' });
  expect(res.headers.get('location')).toBeNull();
});

it('allows only GET on a unique_key path and only known shapes of ids', async () => {
  const check = (await w.api('POST', '/api/v2/checks/', { body: {} })).json;
  const row = await w.app.db.check.findUniqueOrThrow({ where: { code: check.uuid } });
  expect((await w.api('POST', `/api/v2/checks/${row.uniqueKey}`, { body: {} })).status).toBe(405);
  expect((await w.api('DELETE', `/api/v2/checks/${row.uniqueKey}`)).status).toBe(405);
  expect((await w.api('POST', `/api/v2/checks/${row.uniqueKey}/pause`)).status).toBe(404);
  expect((await w.api('GET', `/api/v2/checks/${check.uuid.toUpperCase()}`)).status).toBe(404);
  expect((await w.api('GET', `/api/v2/checks/${check.uuid}/pings/x/body`)).status).toBe(404);
  expect((await w.api('HEAD', '/api/v2/checks/')).status).toBe(405);
});

it("refuses another project's pings and ping bodies with 403", async () => {
  const check = (await w.api('POST', '/api/v2/checks/', { body: {} })).json;
  await w.ping(`/ping/${check.uuid}`, { method: 'POST', body: 'secret' });
  expect((await w.api('GET', `/api/v2/checks/${check.uuid}/pings/`, { key: w.bob.api_key })).status).toBe(403);
  expect((await w.api('GET', `/api/v2/checks/${check.uuid}/pings/1/body`, { key: w.bob.api_key })).status).toBe(403);
  expect((await w.api('GET', `/api/v2/checks/${check.uuid}/flips/`, { key: w.bob.api_key })).status).toBe(403);
});

it('takes api_key from the JSON body only on POST, and prefers the header', async () => {
  const viaBody = await w.api('POST', '/api/v2/checks/', { key: null, body: { api_key: w.alice.api_key } });
  expect(viaBody.status).toBe(201);
  const check = viaBody.json.uuid;
  expect((await w.api('POST', `/api/v2/checks/${check}/pause`, { key: null, body: { api_key: w.alice.api_key } })).status).toBe(200);
  // An explicit (even empty) header wins over the body, as in Healthchecks.
  expect((await w.api('POST', '/api/v2/checks/', { key: '', body: { api_key: w.alice.api_key } })).json).toEqual({ error: 'missing api key' });
  expect((await w.api('POST', '/api/v2/checks/', { key: null, body: { api_key: w.alice.api_key_readonly } })).json).toEqual({ error: 'wrong api key' });
});

it('accepts pings by HEAD, with a trailing slash, and 404s unknown signals', async () => {
  const check = (await w.api('POST', '/api/v2/checks/', { body: {} })).json;
  expect((await w.ping(`/ping/${check.uuid}`, { method: 'HEAD' })).status).toBe(200);
  expect((await w.ping(`/ping/${check.uuid}/`)).status).toBe(200);
  expect((await w.ping(`/ping/${check.uuid}/unknown`)).status).toBe(404);
  const pings = await w.app.db.ping.findMany({ where: { check: { code: check.uuid } } });
  expect(pings.map((p) => p.method)).toEqual(['HEAD', 'GET']);
});

it('refuses ping bodies over 2.5 MB with 400 and records nothing', async () => {
  const check = (await w.api('POST', '/api/v2/checks/', { body: {} })).json;
  const res = await w.ping(`/ping/${check.uuid}`, { method: 'POST', body: Buffer.alloc(2.5 * 1024 * 1024 + 1, 0x61) });
  expect(res.status).toBe(400);
  expect(await w.app.db.ping.count({ where: { check: { code: check.uuid } } })).toBe(0);
});
