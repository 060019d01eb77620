// Badge URLs in Healthchecks' form (/badge/<badge key>/<signature>[-2][/<tag>].<fmt>, and
// /b/<states>/<check badge key>.<fmt>), signed with SECRET_KEY exactly as Healthchecks signs
// them (signatures below printed by Python, see test/monitoring/badges/healthchecks-form.test.ts),
// beside the URLs issued before badge keys were stored, which keep working.
import { describe, expect, it } from 'vitest';
import { createWorld, T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { gql } from '../../helpers/gql.ts';
import { setCheckBadgeKey, setProjectBadgeKey } from '../../../src/monitoring/badges/keys.ts';
import { badgeSignature, legacySigningKey } from '../../../src/monitoring/badges/badge.ts';
import { createProject, rotateKey } from '../../../src/monitoring/projects/service.ts';

const SECRET = 'django-insecure-7f3#kq!x9v$w2m@p0z&l8r^e5t*y1u(i)o';
const UUID_KEY = '9d6a0c6e-58c4-4ad9-9a1b-1f0f5f3c2a77';
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const w = useWorld({ SECRET_KEY: SECRET });

const get = async (url: string) => {
  const r = await fetch(url);
  const text = await r.text();
  return { status: r.status, type: r.headers.get('content-type'), text, json: r.headers.get('content-type') === 'application/json' ? JSON.parse(text) : undefined };
};

describe("badge URLs in Healthchecks' form", () => {
  it('issues and serves /badge/<badge key>/<signature>[-2][/<tag>] in svg, json and shields, two and three states', async () => {
    await setProjectBadgeKey(w.app.db, w.alice.id, UUID_KEY);
    w.clock.set(T0);
    const backups = (await w.api('POST', '/api/v3/checks/', { body: { name: 'nightly', tags: 'backups', timeout: 60, grace: 60 } })).json;
    await w.api('POST', '/api/v3/checks/', { body: { name: 'other', tags: 'db@dc1' } });
    await w.ping(`/ping/${backups.uuid}`);

    const badges = (await w.api('GET', '/api/v3/badges/', { key: w.alice.api_key_readonly })).json.badges;
    const root = `${w.url}/badge/${UUID_KEY}`;
    expect(badges.backups).toEqual({
      svg: `${root}/DzAmyXUm-2/backups.svg`,
      svg3: `${root}/DzAmyXUm/backups.svg`,
      json: `${root}/DzAmyXUm-2/backups.json`,
      json3: `${root}/DzAmyXUm/backups.json`,
      shields: `${root}/DzAmyXUm-2/backups.shields`,
      shields3: `${root}/DzAmyXUm/backups.shields`,
    });
    expect(badges['*'].svg).toBe(`${root}/cmGp0fmn-2.svg`);
    expect(badges['db@dc1'].json3).toBe(`${root}/IC_Q7RrI/db%2540dc1.json`);
    // GraphQL's Project.badges issues the same URLs.
    const viaGraphQL = await gql(w, '{ project { badges { tag svg json3 } } }');
    expect(viaGraphQL.data.project.badges).toContainEqual({ tag: 'backups', svg: badges.backups.svg, json3: badges.backups.json3 });

    const svg = await get(badges.backups.svg);
    expect([svg.status, svg.type]).toEqual([200, 'image/svg+xml']);
    expect(svg.text).toContain('>backups</text>');
    expect(svg.text).toContain('>up</text>');
    expect((await get(badges.backups.json)).json).toEqual({ status: 'up', total: 1, grace: 0, down: 0 });
    expect((await get(badges.backups.shields)).json).toEqual({ schemaVersion: 1, label: 'backups', message: 'up', color: 'success' });
    expect((await get(badges['db@dc1'].json)).json).toEqual({ status: 'up', total: 1, grace: 0, down: 0 });

    // In its grace period the check is "late" on three-state badges and "up" on "-2" ones.
    w.clock.set(at(90));
    expect((await get(badges.backups.json3)).json).toEqual({ status: 'late', total: 1, grace: 1, down: 0 });
    expect((await get(badges.backups.json)).json).toEqual({ status: 'up', total: 1, grace: 1, down: 0 });
    expect((await get(badges.backups.shields3)).json).toMatchObject({ message: 'late', color: 'important' });
    expect((await get(badges.backups.svg3)).text).toContain('>late</text>');
    expect((await get(badges['*'].json3)).json).toEqual({ status: 'late', total: 2, grace: 1, down: 0 });
    w.clock.set(at(200));
    expect((await get(badges['*'].json)).json).toEqual({ status: 'down', total: 2, grace: 0, down: 1 });
    expect((await get(badges['*'].shields)).json).toEqual({ schemaVersion: 1, label: 'Mychecks', message: 'down', color: 'critical' });

    // Wrong signatures are 404, as Healthchecks' HttpResponseNotFound.
    for (const url of [
      `${root}/AAAAAAAA-2/backups.json`,
      `${root}/cmGp0fmn/backups.json`, // the "*" signature on a tag
      `${root}/DzAmyXUm.json`, // a tag's signature on all checks
      `${w.url}/badge/${UUID_KEY.replace('9', '8')}/DzAmyXUm/backups.json`, // another key
      `${root}/DzAmyXUm/backups.png`,
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });

  it("keeps an imported project's URLs signed with its old instance's SECRET_KEY, whatever this one's", async () => {
    // Python: base64_hmac("alice", "foo", "---")[:8] == "HLoyq8dX"; ("alice", "*", "---") == "6SKpySaJ".
    await setProjectBadgeKey(w.app.db, w.bob.id, 'alice', '---');
    await w.api('POST', '/api/v3/checks/', { key: w.bob.api_key, body: { name: 'foo check', tags: 'foo' } });
    const badges = (await w.api('GET', '/api/v3/badges/', { key: w.bob.api_key })).json.badges;
    expect(badges.foo.json).toBe(`${w.url}/badge/alice/HLoyq8dX-2/foo.json`);
    expect(badges['*'].svg3).toBe(`${w.url}/badge/alice/6SKpySaJ.svg`);
    expect((await get(`${w.url}/badge/alice/HLoyq8dX-2/foo.json`)).json).toEqual({ status: 'up', total: 1, grace: 0, down: 0 });
    expect((await get(`${w.url}/badge/alice/6SKpySaJ.svg`)).status).toBe(200);
    // Signed with this installation's SECRET_KEY instead: not this project's URL.
    expect((await get(`${w.url}/badge/alice/pTVMJtSI/foo.json`)).status).toBe(404);
    await expect(setProjectBadgeKey(w.app.db, w.alice.id, 'alice')).rejects.toThrow(`badge key already used by project ${w.bob.id}`);
  });

  it('still serves the URLs issued before badge keys were stored, until the badge key is rotated', async () => {
    const p = await createProject(w.app.db, { name: 'Old' });
    // A project made before the badgeKey column: only the hash of its key.
    await w.app.db.project.update({ where: { id: p.id }, data: { badgeKey: null } });
    await w.api('POST', '/api/v3/checks/', { key: p.api_key, body: { name: 'web check', tags: 'web' } });
    const row = await w.app.db.project.findUniqueOrThrow({ where: { id: p.id } });
    const old = `${w.url}/badge/${p.id}/${badgeSignature(legacySigningKey(row.badgeKeyHash), 'web')}-2/web.json`;
    const oldAll = `${w.url}/badge/${p.id}/${badgeSignature(legacySigningKey(row.badgeKeyHash), '*')}.svg`;
    expect((await get(old)).json).toEqual({ status: 'up', total: 1, grace: 0, down: 0 });

    // The first listing gives the project a badge key, once; new URLs carry it, old ones still work.
    const first = (await w.api('GET', '/api/v3/badges/', { key: p.api_key })).json.badges;
    const second = (await w.api('GET', '/api/v3/badges/', { key: p.api_key })).json.badges;
    expect(second).toEqual(first);
    const stored = await w.app.db.project.findUniqueOrThrow({ where: { id: p.id } });
    expect(stored.badgeKey).toMatch(/^[a-z0-9]{32}$/);
    expect(first.web.json).toMatch(new RegExp(`/badge/${stored.badgeKey}/[\\w-]{8}-2/web\\.json$`));
    for (const url of [first.web.json, old, oldAll]) expect((await get(url)).status, url).toBe(200);
    expect((await get(old.replace(/\/[\w-]{8}-2\//, '/AAAAAAAA-2/'))).status).toBe(404);

    // A new badge key revokes both forms.
    const key = await rotateKey(w.app.db, p.id, 'badge_key');
    for (const url of [first.web.json, old, oldAll]) expect((await get(url)).status, url).toBe(404);
    expect((await w.api('GET', '/api/v3/badges/', { key: p.api_key })).json.badges.web.json).toContain(`/badge/${key}/`);
  });

  it('serves per-check badges at /b/<states>/<badge key>, with imported keys', async () => {
    const IMPORTED = '5B0C7E1A-3D2F-4C6B-9E8A-7F6D5C4B3A29';
    const lower = IMPORTED.toLowerCase();
    w.clock.set(T0);
    const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'Per check', timeout: 60, grace: 60 } })).json;
    const other = (await w.api('POST', '/api/v3/checks/', { body: { name: 'Other' } })).json;
    const ids = await w.app.db.check.findMany({ where: { code: { in: [check.uuid, other.uuid] } }, select: { id: true, code: true } });
    const idOf = (code: string) => ids.find((c) => c.code === code)!.id;
    await setCheckBadgeKey(w.app.db, idOf(check.uuid), IMPORTED);
    await w.ping(`/ping/${check.uuid}`);

    const json = (await w.api('GET', `/api/v3/checks/${check.uuid}`)).json;
    expect(json.badge_url).toBe(`${w.url}/b/2/${lower}.svg`);
    expect((await gql(w, 'query ($id: ID) { check(id: $id) { badgeUrl } }', { id: check.uuid })).data.check.badgeUrl).toBe(json.badge_url);
    const svg = await get(json.badge_url);
    expect([svg.status, svg.type]).toEqual([200, 'image/svg+xml']);
    expect(svg.text).toContain('>Per check</text>');
    w.clock.set(at(90));
    expect((await get(`${w.url}/b/3/${lower}.json`)).json).toEqual({ status: 'late', total: 1, grace: 1, down: 0 });
    expect((await get(`${w.url}/b/2/${lower}.json`)).json).toEqual({ status: 'up', total: 1, grace: 1, down: 0 });
    expect((await get(`${w.url}/b/2/${lower}.shields`)).json).toEqual({ schemaVersion: 1, label: 'Per check', message: 'up', color: 'success' });
    // Healthchecks' <uuid:...> converter matches lower case only; an unknown key is 404 too.
    expect((await get(`${w.url}/b/2/${IMPORTED}.svg`)).status).toBe(404);
    expect((await get(`${w.url}/b/2/${lower.replace('5', '6')}.svg`)).status).toBe(404);
    await expect(setCheckBadgeKey(w.app.db, idOf(other.uuid), lower)).rejects.toThrow(`badge key already used by check ${check.uuid}`);
  });
});

describe('SECRET_KEY unset', () => {
  it("signs with the installation's own secret, made once and shared by every instance on the database", async () => {
    const first = await createWorld();
    let second: Awaited<ReturnType<typeof createWorld>> | undefined;
    try {
      // Made at start: the first badge read, even a 404, writes nothing.
      expect(await first.app.db.installationSecret.count()).toBe(1);
      expect((await get(`${first.url}/badge/${'x'.repeat(32)}/${'y'.repeat(8)}.json`)).status).toBe(404);
      await first.api('POST', '/api/v3/checks/', { body: { tags: 'web' } });
      const url = (await first.api('GET', '/api/v3/badges/', { key: first.alice.api_key })).json.badges.web.json as string;
      expect(await first.app.db.installationSecret.count()).toBe(1);
      // Another instance (or the next start) on the same database issues and accepts the same URL.
      second = await createWorld({ DATABASE_URL: first.databaseUrl });
      const again = (await second.api('GET', '/api/v3/badges/', { key: first.alice.api_key })).json.badges.web.json as string;
      expect(again.replace(second.url, '')).toBe(url.replace(first.url, ''));
      expect((await get(again)).json).toMatchObject({ status: 'up', total: 1 });
      expect(await second.app.db.installationSecret.count()).toBe(1);
    } finally {
      await second?.stop();
      await first.stop();
    }
  });
});
