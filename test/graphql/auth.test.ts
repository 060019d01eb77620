// Who may read and write what over GraphQL: missing and wrong keys, read-only keys, and another
// project's checks (invisible: NOT_FOUND, never FORBIDDEN).
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { inProcess, servicesOn, type Query } from './in-process.ts';

const w = useWorld();
let q: Query;
let code: string;
let uniqueKey: string;

beforeAll(async () => {
  q = inProcess(w.app.services, w.app.log, w.alice.api_key);
  await w.channel(w.alice, { name: 'pager' });
  const r = await q('mutation { createCheck(input: { name: "alice-only", tags: "prod", channels: "*" }) { check { uuid uniqueKey } } }');
  ({ uuid: code, uniqueKey } = r.data.createCheck.check);
});

const stored = () => w.app.db.check.findUniqueOrThrow({ where: { code } });

describe('keys', () => {
  it('answers a request without a key with UNAUTHENTICATED "missing api key"', async () => {
    const r = await q('{ project { name } }', {}, null);
    expect(r.data).toBeNull();
    expect(r.errors).toEqual([expect.objectContaining({ message: 'missing api key', extensions: { code: 'UNAUTHENTICATED' } })]);
  });

  it('answers an unknown key with "wrong api key"', async () => {
    const r = await q('{ project { name } }', {}, 'x'.repeat(32));
    expect(r.errors![0]).toMatchObject({ message: 'wrong api key', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('authenticates once per request, however many fields need the caller', async () => {
    let keyLookups = 0;
    const projects = w.app.db.project;
    const counting = new Proxy(projects, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop !== 'findUnique') return typeof value === 'function' ? value.bind(target) : value;
        return (args: { where: Record<string, unknown> }) => {
          if ('apiKeyHash' in args.where) keyLookups++;
          return value.call(target, args);
        };
      },
    });
    const db = new Proxy(w.app.db, { get: (target, prop) => (prop === 'project' ? counting : Reflect.get(target, prop)) });
    const counted = inProcess(servicesOn(w.app, db), w.app.log, w.alice.api_key);
    const r = await counted('query($id: ID) { a: project { name } b: project { uuid } c: check(id: $id) { name pings { n } } }', { id: code });
    expect(r.errors).toBeUndefined();
    expect(r.data).toMatchObject({ a: { name: 'Alice' }, b: { uuid: w.alice.id }, c: { name: 'alice-only', pings: [] } });
    expect(keyLookups).toBe(1);
  });
});

describe('read-only keys', () => {
  const ro = () => w.alice.api_key_readonly;

  it('read the project and its checks, without UUIDs or URLs', async () => {
    const r = await q('{ project { name checks { nodes { uuid uniqueKey name pingUrl updateUrl pauseUrl resumeUrl badgeUrl status } } } }', {}, ro());
    expect(r.errors).toBeUndefined();
    expect(r.data.project.checks.nodes).toEqual([
      { uuid: null, uniqueKey, name: 'alice-only', pingUrl: null, updateUrl: null, pauseUrl: null, resumeUrl: null, badgeUrl: expect.stringMatching(/\/b\/2\/.+\.svg$/), status: 'NEW' },
    ]);
    const rw = await q('query($k: String) { check(uniqueKey: $k) { uuid pingUrl updateUrl pauseUrl } }', { k: uniqueKey });
    expect(rw.data.check).toEqual({
      uuid: code,
      pingUrl: `${w.app.deps.settings.siteRoot}/ping/${code}`,
      updateUrl: `${w.app.deps.settings.siteRoot}/api/v3/checks/${code}`,
      pauseUrl: `${w.app.deps.settings.siteRoot}/api/v3/checks/${code}/pause`,
    });
  });

  it('get null and a "wrong api key" error for channels and pings, and keep the rest of the data', async () => {
    const r = await q('{ project { name channels { name } checks { nodes { name channels { name } pings { n } } } } }', {}, ro());
    expect(r.data.project).toEqual({ name: 'Alice', channels: null, checks: { nodes: [{ name: 'alice-only', channels: null, pings: null }] } });
    expect(r.errors!.map((e) => [e.message, e.extensions!.code])).toEqual(Array(3).fill(['wrong api key', 'UNAUTHENTICATED']));
  });

  it('cannot run any mutation, and nothing changes', async () => {
    const before = await stored();
    const attempts = {
      createCheck: 'mutation { createCheck(input: { name: "ro" }) { created } }',
      updateCheck: `mutation { updateCheck(id: "${code}", input: { name: "ro" }) { name } }`,
      pauseCheck: `mutation { pauseCheck(id: "${code}") { status } }`,
      resumeCheck: `mutation { resumeCheck(id: "${code}") { status } }`,
      deleteCheck: `mutation { deleteCheck(id: "${code}") { name } }`,
      createChannel: 'mutation { createChannel(kind: EMAIL, value: "ro@example.org") { uuid } }',
    };
    for (const [name, mutation] of Object.entries(attempts)) {
      const r = await q(mutation, {}, ro());
      expect(r.errors, name).toEqual([expect.objectContaining({ message: 'wrong api key', extensions: { code: 'UNAUTHENTICATED' } })]);
    }
    expect(await stored()).toEqual(before);
    expect(await w.app.db.check.count({ where: { projectId: w.alice.id } })).toBe(1);
    expect(await w.app.db.channel.count({ where: { projectId: w.alice.id } })).toBe(1);
  });
});

describe("another project's checks", () => {
  // Over GraphQL a foreign check is reported exactly like a missing one, so a key cannot probe
  // which UUIDs exist in other projects (REST keeps Healthchecks' 403 for compatibility).
  const notFound = [expect.objectContaining({ message: 'not found', extensions: { code: 'NOT_FOUND' } })];

  it('are NOT_FOUND by UUID and by unique key, like checks that do not exist', async () => {
    const bob = w.bob.api_key;
    expect((await q('query($id: ID) { check(id: $id) { name } }', { id: code }, bob)).errors).toEqual(notFound);
    expect((await q('query($k: String) { check(uniqueKey: $k) { name } }', { k: uniqueKey }, bob)).errors).toEqual(notFound);
    expect((await q('{ check(id: "00000000-0000-4000-8000-000000000000") { name } }', {}, bob)).errors).toEqual(notFound);
  });

  it('are NOT_FOUND for every mutation, and stay unchanged', async () => {
    const before = await stored();
    for (const mutation of [
      `mutation { updateCheck(id: "${code}", input: { name: "stolen" }) { name } }`,
      `mutation { pauseCheck(id: "${code}") { status } }`,
      `mutation { resumeCheck(id: "${code}") { status } }`,
      `mutation { deleteCheck(id: "${code}") { name } }`,
    ]) {
      expect((await q(mutation, {}, w.bob.api_key)).errors, mutation).toEqual(notFound);
    }
    expect(await stored()).toEqual(before);
  });

  it('never appear in the project listing', async () => {
    const r = await q('{ project { name checks { totalCount } } }', {}, w.bob.api_key);
    expect(r.data.project).toEqual({ name: 'Bob', checks: { totalCount: 0 } });
  });
});
