import { describe, expect, it } from 'vitest';
import { runMonitorPass } from '../../../src/monitoring/monitor/pass.ts';
import { createWorld, T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();

const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('GET /api/v2/checks/<id>/flips/', () => {
  it('lists flips newest first as a bare array on v2 and wrapped on v3, with seconds/start/end filters', async () => {
    const code = (await w.api('POST', '/api/v2/checks/', { body: { timeout: 60, grace: 60 } })).json.uuid;
    w.clock.set(T0);
    await w.ping(`/ping/${code}`); // new -> up at T0
    await runMonitorPass(w.app.deps, at(600)); // down, dated at T0 + 120 s
    w.clock.set(at(700));
    await w.ping(`/ping/${code}`); // down -> up at T0 + 700 s
    const v2 = await w.api('GET', `/api/v2/checks/${code}/flips/`);
    expect(v2.status).toBe(200);
    expect(v2.json).toEqual([
      { timestamp: '2026-01-05T10:11:40+00:00', up: 1 },
      { timestamp: '2026-01-05T10:02:00+00:00', up: 0 },
      { timestamp: '2026-01-05T10:00:00+00:00', up: 1 },
    ]);
    const v3 = await w.api('GET', `/api/v3/checks/${code}/flips/`);
    expect(v3.json.flips).toHaveLength(3);
    const start = Math.floor(at(60).getTime() / 1000);
    expect((await w.api('GET', `/api/v2/checks/${code}/flips/?start=${start}`)).json).toHaveLength(2);
    expect((await w.api('GET', `/api/v2/checks/${code}/flips/?end=${start}`)).json).toHaveLength(1);
    w.clock.set(at(800));
    expect((await w.api('GET', `/api/v2/checks/${code}/flips/?seconds=200`)).json).toHaveLength(1);
    for (const bad of ['seconds=-1', 'start=abc', 'end=1.5', 'start=99999999999']) {
      expect((await w.api('GET', `/api/v2/checks/${code}/flips/?${bad}`)).status, bad).toBe(400);
    }
    const row = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    const byUniqueKey = await w.api('GET', `/api/v2/checks/${row.uniqueKey}/flips/`, { key: w.alice.api_key_readonly });
    expect(byUniqueKey.json).toHaveLength(3);
    expect((await w.api('GET', `/api/v2/checks/${row.uniqueKey}/flips/`, { key: w.bob.api_key })).status).toBe(404);
  });
});

describe('badges', () => {
  it('lists badge URLs per tag and every URL resolves to SVG, JSON and Shields JSON', async () => {
    const world = await createWorld();
    try {
      const up = (await world.api('POST', '/api/v2/checks/', { body: { tags: 'web db', timeout: 60, grace: 60 } })).json.uuid;
      await world.api('POST', '/api/v2/checks/', { body: { tags: 'db', timeout: 60, grace: 60 } });
      world.clock.set(T0);
      await world.ping(`/ping/${up}`);
      const res = await world.api('GET', '/api/v2/badges/', { key: world.alice.api_key_readonly });
      expect(res.status).toBe(200);
      expect(Object.keys(res.json.badges).sort()).toEqual(['*', 'db', 'web']);
      const web = res.json.badges.web;
      expect(Object.keys(web)).toEqual(['svg', 'svg3', 'json', 'json3', 'shields', 'shields3']);
      // Healthchecks' form: the project's badge key, then the signature.
      expect(web.svg).toMatch(new RegExp(`^${world.url}/badge/${world.alice.badge_key}/[\\w-]{8}-2/web\\.svg$`));
      for (const urls of Object.values(res.json.badges) as Record<string, string>[]) {
        for (const url of Object.values(urls)) {
          const r = await fetch(url);
          expect(r.status, url).toBe(200);
          if (url.endsWith('.svg')) expect(r.headers.get('content-type')).toBe('image/svg+xml');
        }
      }
      const webJson = await (await fetch(web.json)).json();
      expect(webJson).toEqual({ status: 'up', total: 1, grace: 0, down: 0 });
      // One minute past the timeout the tagged check is in grace: late on 3-state badges only.
      world.clock.set(at(90));
      expect(await (await fetch(web.json3)).json()).toEqual({ status: 'late', total: 1, grace: 1, down: 0 });
      expect(await (await fetch(web.json)).json()).toMatchObject({ status: 'up' });
      expect(await (await fetch(res.json.badges.web.shields3)).json()).toEqual({ schemaVersion: 1, label: 'web', message: 'late', color: 'important' });
      world.clock.set(at(200));
      expect(await (await fetch(res.json.badges['*'].json)).json()).toMatchObject({ status: 'down', total: 2 });
      const forged = web.json.replace(/\/badge\/([^/]+)\/[^/]+\//, '/badge/$1/AAAAAAAA-2/');
      expect((await fetch(forged)).status).toBe(404);
    } finally {
      await world.stop();
    }
  });

  it('serves the per-check badge_url', async () => {
    const check = (await w.api('POST', '/api/v2/checks/', { body: { name: 'Badge Me' } })).json;
    const r = await fetch(check.badge_url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/svg+xml');
    expect(await r.text()).toContain('Badge Me');
    const json = await fetch(check.badge_url.replace('.svg', '.json'));
    expect(await json.json()).toEqual({ status: 'up', total: 1, grace: 0, down: 0 });
  });

  it('answers badges as Healthchecks\' @cors("GET") views: OPTIONS 204, other methods 405, CORS headers on each', async () => {
    const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'Cors', tags: 'web' } })).json;
    const badges = (await w.api('GET', '/api/v3/badges/', { key: w.alice.api_key_readonly })).json.badges;
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'X-Api-Key', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-max-age': '600' };
    const corsOf = (r: Response) => Object.fromEntries(Object.keys(cors).map((k) => [k, r.headers.get(k)]));
    for (const url of [check.badge_url as string, badges.web.json as string, badges['*'].svg as string]) {
      const got = await fetch(url);
      expect(got.status, url).toBe(200);
      expect(corsOf(got), url).toEqual(cors);
      expect(got.headers.get('cache-control'), url).toContain('no-store');
      const preflight = await fetch(url, { method: 'OPTIONS' });
      expect([preflight.status, await preflight.text()], url).toEqual([204, '']);
      expect(corsOf(preflight), url).toEqual(cors);
      for (const method of ['POST', 'HEAD', 'DELETE']) {
        const refused = await fetch(url, { method });
        expect(refused.status, `${method} ${url}`).toBe(405);
        expect(corsOf(refused), url).toEqual(cors);
      }
    }
  });
});
