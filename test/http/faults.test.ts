// A 5xx only for a real server fault, and then the request changes nothing (issue #11). A
// trigger makes the database refuse one kind of row, as a full disk or a lost connection would
// in the middle of a request; the answer is a plain 500 without internals, every write of the
// request is rolled back, and the server answers the next request normally.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { gql } from '../helpers/gql.ts';

let w: World;

const FAULT = 'injected fault';

/** Makes inserts into `table` fail until the returned function is called. */
async function failInserts(table: string): Promise<() => Promise<void>> {
  const name = `fault_${table.toLowerCase()}`;
  if (w.databaseUrl.startsWith('postgres')) {
    await w.app.db.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '${FAULT}'; END $$ LANGUAGE plpgsql`);
    await w.app.db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${name}()`);
    return async () => {
      await w.app.db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "${table}"`);
      await w.app.db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    };
  }
  await w.app.db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" BEGIN SELECT RAISE(ABORT, '${FAULT}'); END`);
  return async () => void (await w.app.db.$executeRawUnsafe(`DROP TRIGGER ${name}`));
}

const counts = async () => ({
  checks: await w.app.db.check.count(),
  pings: await w.app.db.ping.count(),
  links: await w.app.db.checkChannel.count(),
  nPings: (await w.app.db.check.aggregate({ _sum: { nPings: true } }))._sum.nPings ?? 0,
});

beforeAll(async () => {
  w = await createWorld();
  await w.channel(w.alice, { kind: 'webhook', value: 'http://127.0.0.1:9/hook', name: 'ops' });
});
afterAll(() => w?.stop());

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
