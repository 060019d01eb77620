// Pings over GraphQL: newest first, the project's ping log limit, and the domain's durations.
import { beforeAll, expect, it } from 'vitest';
import { setPingLogLimit } from '../../src/monitoring/projects/service.ts';
import { T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { inProcess, type Query } from './in-process.ts';

const w = useWorld();
let q: Query;
let code: string;
const PINGS = 'query($id: ID, $first: Int) { check(id: $id) { pings(first: $first) { n type duration } } }';

beforeAll(async () => {
  q = inProcess(w.app.services, w.app.log, w.alice.api_key);
  code = (await q('mutation { createCheck(input: { name: "timed" }) { check { uuid } } }')).data.createCheck.check.uuid;
  w.clock.set(T0);
  await w.ping(`/ping/${code}/start`);
  w.clock.advance(2_500);
  await w.ping(`/ping/${code}`);
  w.clock.advance(60_000);
  await w.ping(`/ping/${code}/log`);
  await w.ping(`/ping/${code}/fail`);
});

it('lists pings newest first with the duration since their start, as REST does', async () => {
  const r = await q(PINGS, { id: code, first: 10 });
  expect(r.data.check.pings).toEqual([
    { n: 4, type: 'fail', duration: null },
    { n: 3, type: 'log', duration: null },
    { n: 2, type: 'success', duration: 2.5 },
    { n: 1, type: 'start', duration: null },
  ]);
  const rest = await w.api('GET', `/api/v3/checks/${code}/pings/`);
  expect(rest.json.pings.map((p: { n: number; duration?: number }) => [p.n, p.duration ?? null])).toEqual([[4, null], [3, null], [2, 2.5], [1, null]]);
});

it('finds the start of a completion listed without it (the domain looks back)', async () => {
  const r = await q(PINGS, { id: code, first: 3 });
  expect(r.data.check.pings.at(-1)).toEqual({ n: 2, type: 'success', duration: 2.5 });
});

it("lists at most the project's pingLogLimit pings, however many are asked for", async () => {
  await setPingLogLimit(w.app.db, w.alice.id, 2);
  try {
    const r = await q(PINGS, { id: code, first: 10 });
    expect(r.data.check.pings.map((p: { n: number }) => p.n)).toEqual([4, 3]);
  } finally {
    await setPingLogLimit(w.app.db, w.alice.id, 100);
  }
});

it('returns the body as text only when asked for', async () => {
  await w.ping(`/ping/${code}/log`, { method: 'POST', body: 'disk 91% full' });
  const r = await q('query($id: ID) { check(id: $id) { pings(first: 2) { n body } } }', { id: code });
  expect(r.data.check.pings).toEqual([{ n: 5, body: 'disk 91% full' }, { n: 4, body: null }]);
});

it("reads a ping's details only when one is selected, and answers the same either way", async () => {
  const lean = await q(`query($id: ID) { check(id: $id) { pings(first: 10) { n type date } } }`, { id: code });
  const detailed = await q(
    `query($id: ID) { check(id: $id) { lean: pings(first: 10) { n type date } full: pings(first: 10) { n type date ...D } } } fragment D on Ping { scheme method ua remoteAddr exitStatus }`,
    { id: code },
  );
  expect(lean.errors).toBeUndefined();
  expect(detailed.errors).toBeUndefined();
  expect(detailed.data.check.lean).toEqual(lean.data.check.pings);
  expect(detailed.data.check.full.map(({ n, type, date }: Record<string, unknown>) => ({ n, type, date }))).toEqual(lean.data.check.pings);
  const rest = await w.api('GET', `/api/v3/checks/${code}/pings/`);
  expect(detailed.data.check.full.map((p: Record<string, unknown>) => [p.scheme, p.method, p.ua, p.remoteAddr])).toEqual(
    rest.json.pings.map((p: Record<string, unknown>) => [p.scheme, p.method, p.ua, p.remote_addr]),
  );
  expect(detailed.data.check.full[0]).toMatchObject({ scheme: 'http', exitStatus: null });
});
