// One suite, every transport: the shared behaviours of check management must not depend on
// whether a client speaks Healthchecks' REST or GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorld, T0, type World } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import type { Driver, Result } from './driver.ts';
import { restDriver } from './rest-driver.ts';
import { graphqlDriver } from './graphql-driver.ts';

function ok<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`expected success, got ${r.code}: ${r.message}`);
  return r.value;
}

const transports: Array<[string, (w: World) => Driver]> = [
  ['REST', restDriver],
  ['GraphQL', graphqlDriver],
];

describe.each(transports)('check management over %s', (_name, makeDriver) => {
  const w = useWorld();
  let d: Driver;
  let rw: string;
  let ro: string;
  beforeAll(async () => {
    d = makeDriver(w);
    rw = w.alice.api_key;
    ro = w.alice.api_key_readonly;
  });

  it('creates with Healthchecks defaults', async () => {
    const { check, created } = ok(await d.createCheck(rw, {}));
    expect(created).toBe(true);
    expect(check).toMatchObject({ name: '', tags: '', timeout: 86400, grace: 3600, status: 'new', started: false, nPings: 0, manualResume: false });
    expect(await w.app.db.check.count({ where: { code: check.id } })).toBe(1);
  });

  it('rejects invalid input with the same message and stores nothing', async () => {
    const before = await w.app.db.check.count();
    const r = await d.createCheck(rw, { timeout: 10 });
    expect(r).toEqual({ ok: false, code: 'VALIDATION', message: 'json validation error: timeout is too small' });
    const tz = await d.createCheck(rw, { schedule: '0 * * * *', tz: 'Nowhere/City' });
    expect(tz).toMatchObject({ ok: false, code: 'VALIDATION', message: 'json validation error: tz is not a valid timezone' });
    expect(await w.app.db.check.count()).toBe(before);
  });

  it('upserts on unique fields', async () => {
    const a = ok(await d.createCheck(rw, { name: 'nightly', timeout: 600, unique: ['name'] }));
    const b = ok(await d.createCheck(rw, { name: 'nightly', timeout: 900, unique: ['name'] }));
    expect(a.created).toBe(true);
    expect(b.created).toBe(false);
    expect(b.check.id).toBe(a.check.id);
    expect(b.check.timeout).toBe(900);
  });

  it('updates partially and switches between simple and cron', async () => {
    const { check } = ok(await d.createCheck(rw, { name: 'partial', tags: 'a b', timeout: 300 }));
    const cron = ok(await d.updateCheck(rw, check.id, { schedule: '15 2 * * *', tz: 'America/New_York' }));
    expect(cron).toMatchObject({ name: 'partial', tags: 'a b', schedule: '15 2 * * *', tz: 'America/New_York', timeout: null });
    const simple = ok(await d.updateCheck(rw, check.id, { timeout: 120 }));
    expect(simple).toMatchObject({ timeout: 120, schedule: null });
  });

  it('pauses, resumes, refuses to resume a running check, and records the flips', async () => {
    const { check } = ok(await d.createCheck(rw, { name: 'pause-me', timeout: 60, grace: 60 }));
    w.clock.set(T0);
    await w.ping(`/ping/${check.id}`);
    expect(await d.resumeCheck(rw, check.id)).toMatchObject({ ok: false, code: 'CONFLICT', message: 'check is not paused' });
    expect(ok(await d.pauseCheck(rw, check.id)).status).toBe('paused');
    expect(ok(await d.resumeCheck(rw, check.id)).status).toBe('new');
    const flips = ok(await d.flips(rw, check.id));
    expect(flips.map((f) => f.up)).toEqual([false, false, true]);
  });

  it('filters by tags with AND semantics', async () => {
    const world = await createWorld();
    try {
      const dd = makeDriver(world);
      for (const tags of ['x y', 'x', 'y']) ok(await dd.createCheck(world.alice.api_key, { name: tags, tags }));
      expect(ok(await dd.listChecks(world.alice.api_key, ['x'])).map((c) => c.name)).toEqual(['x y', 'x']);
      expect(ok(await dd.listChecks(world.alice.api_key, ['x', 'y'])).map((c) => c.name)).toEqual(['x y']);
    } finally {
      await world.stop();
    }
  });

  it('lets read-only keys read but not write', async () => {
    const { check } = ok(await d.createCheck(rw, { name: 'readable' }));
    expect(ok(await d.listChecks(ro)).some((c) => c.name === 'readable')).toBe(true);
    for (const attempt of [d.createCheck(ro, {}), d.updateCheck(ro, check.id, { grace: 120 }), d.pauseCheck(ro, check.id), d.deleteCheck(ro, check.id)]) {
      expect(await attempt).toMatchObject({ ok: false, code: 'UNAUTHENTICATED', message: 'wrong api key' });
    }
    expect((await w.app.db.check.findUniqueOrThrow({ where: { code: check.id } })).grace).toBe(3600);
  });

  it("keeps projects apart: another project's check can be neither read nor changed", async () => {
    const { check } = ok(await d.createCheck(rw, { name: 'private' }));
    const bob = w.bob.api_key;
    for (const attempt of [d.getCheck(bob, check.id), d.updateCheck(bob, check.id, { name: 'stolen' }), d.pauseCheck(bob, check.id), d.deleteCheck(bob, check.id)]) {
      const r = await attempt;
      expect(r.ok).toBe(false);
      if (!r.ok) expect(['FORBIDDEN', 'NOT_FOUND']).toContain(r.code);
    }
    expect(ok(await d.listChecks(bob)).some((c) => c.name === 'private')).toBe(false);
    expect((await w.app.db.check.findUniqueOrThrow({ where: { code: check.id } })).name).toBe('private');
  });

  it('rejects missing and unknown keys', async () => {
    expect(await d.listChecks('')).toMatchObject({ ok: false, code: 'UNAUTHENTICATED', message: 'missing api key' });
    expect(await d.listChecks('k'.repeat(32))).toMatchObject({ ok: false, code: 'UNAUTHENTICATED', message: 'wrong api key' });
  });

  it('deletes and returns the check as it was', async () => {
    const { check } = ok(await d.createCheck(rw, { name: 'bye' }));
    expect(ok(await d.deleteCheck(rw, check.id)).name).toBe('bye');
    expect(await d.getCheck(rw, check.id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});
