import { describe, expect, it } from 'vitest';
import { createWorld, T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();

async function newCheck(body: Record<string, unknown> = {}) {
  const res = await w.api('POST', '/api/v2/checks/', { body });
  return res.json.uuid as string;
}
const row = (code: string) => w.app.db.check.findUniqueOrThrow({ where: { code } });
const pingsOf = async (code: string) => w.app.db.ping.findMany({ where: { check: { code } }, orderBy: { n: 'asc' } });

describe('/ping/<uuid>', () => {
  it('records a success: 200 OK, status up, flip new->up, Healthchecks headers', async () => {
    const code = await newCheck({ timeout: 3600, grace: 60 });
    w.clock.set(T0);
    const res = await w.ping(`/ping/${code}`, { headers: { 'User-Agent': 'curl/8', 'X-Forwarded-For': '203.0.113.9, 10.0.0.1' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('OK');
    expect(res.headers.get('ping-body-limit')).toBe('10000');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toContain('no-cache');
    const check = await row(code);
    expect(check).toMatchObject({ status: 'up', nPings: 1 });
    expect(check.lastPing).toEqual(T0);
    expect(check.alertAfter).toEqual(new Date(T0.getTime() + (3600 + 60) * 1000));
    const [ping] = await pingsOf(code);
    // No TRUSTED_PROXIES: X-Forwarded-For is anyone's text, the peer is stored (test/http/trusted-proxies.test.ts).
    expect(ping).toMatchObject({ n: 1, kind: 'success', method: 'GET', ua: 'curl/8', remoteAddr: '127.0.0.1', scheme: 'http' });
    const flips = await w.app.db.flip.findMany({ where: { checkId: check.id } });
    expect(flips.map((f) => [f.oldStatus, f.newStatus])).toEqual([['new', 'up']]);
  });

  it('handles /start, /fail, /log and exit statuses', async () => {
    const code = await newCheck();
    expect((await w.ping(`/ping/${code}/start`)).status).toBe(200);
    expect((await row(code)).lastStart).not.toBeNull();
    expect((await w.ping(`/ping/${code}/log`, { method: 'POST', body: 'progress' })).status).toBe(200);
    expect((await row(code)).status).toBe('new');
    expect((await w.ping(`/ping/${code}/0`)).status).toBe(200);
    expect((await row(code)).status).toBe('up');
    expect((await w.ping(`/ping/${code}/3`)).status).toBe(200);
    expect((await row(code)).status).toBe('down');
    expect((await w.ping(`/ping/${code}/fail`)).status).toBe(200);
    const bad = await w.ping(`/ping/${code}/256`);
    expect(bad.status).toBe(400);
    expect(bad.text).toBe('invalid url format');
    const kinds = (await pingsOf(code)).map((p) => [p.kind, p.exitStatus]);
    expect(kinds).toEqual([['start', null], ['log', null], ['success', 0], ['fail', 3], ['fail', null]]);
  });

  it('answers 404 not found for unknown checks and malformed paths', async () => {
    const unknown = await w.ping('/ping/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('not found');
    expect((await w.ping('/ping/not-a-uuid')).status).toBe(404);
  });

  it('validates rid and pairs start and completion into a duration', async () => {
    const code = await newCheck();
    const rid = '1f2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b';
    expect((await w.ping(`/ping/${code}/start?rid=nope`)).text).toBe('invalid uuid format');
    expect((await w.ping(`/ping/${code}/start?rid=`)).status).toBe(400);
    w.clock.set(T0);
    await w.ping(`/ping/${code}/start?rid=${rid.toUpperCase()}`);
    w.clock.set(new Date(T0.getTime() + 90_500));
    await w.ping(`/ping/${code}?rid=${rid}`);
    const check = await row(code);
    expect(check.lastDurationMs).toBe(90_500);
    const list = await w.api('GET', `/api/v2/checks/${code}/pings/`);
    expect(list.json.pings[0]).toMatchObject({ type: 'success', rid, duration: 90.5 });
    expect(list.json.pings[1]).not.toHaveProperty('duration');
    expect((await w.api('GET', `/api/v2/checks/${code}`)).json.last_duration).toBe(90);
  });

  it('looks the check up before the rest, as Healthchecks: an unknown uuid is 404 even with a bad exit status or rid', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/ping/${unknown}/256`, `/ping/${unknown}?rid=bad`, `/ping/${unknown}`]) {
      const res = await w.ping(path);
      expect([res.status, res.text], path).toEqual([404, 'not found']);
      // The uuid route's view is never-cache, refusals included.
      expect(res.headers.get('cache-control'), path).toContain('no-store');
    }
    const code = await newCheck();
    const bad = await w.ping(`/ping/${code}/256`);
    expect([bad.status, bad.text]).toEqual([400, 'invalid url format']);
    expect(bad.headers.get('cache-control')).toContain('no-store');
    expect((await row(code)).nPings).toBe(0);
  });

  it('shows last_duration 0 for a run under a second, and none before any run (Healthchecks: the timedelta is truthy)', async () => {
    const code = await newCheck();
    expect((await w.api('GET', `/api/v3/checks/${code}`)).json).not.toHaveProperty('last_duration');
    w.clock.set(T0);
    await w.ping(`/ping/${code}/start`);
    w.clock.set(new Date(T0.getTime() + 300));
    await w.ping(`/ping/${code}`);
    expect((await row(code)).lastDurationMs).toBe(300);
    expect((await w.api('GET', `/api/v3/checks/${code}`)).json.last_duration).toBe(0);
  });

  it('turns non-POST pings into ignored ones when methods is POST', async () => {
    const code = await newCheck({ methods: 'POST' });
    await w.ping(`/ping/${code}`);
    expect((await row(code)).status).toBe('new');
    await w.ping(`/ping/${code}`, { method: 'POST' });
    expect((await row(code)).status).toBe('up');
    expect((await pingsOf(code)).map((p) => p.kind)).toEqual(['ign', 'success']);
  });

  it('classifies HTTP bodies by keywords when filter_http_body is on', async () => {
    const code = await newCheck({ filter_http_body: true, success_kw: 'SUCCESS', failure_kw: 'ERROR', start_kw: 'BEGIN' });
    await w.ping(`/ping/${code}`, { method: 'POST', body: 'job ERROR at step 2' });
    expect((await row(code)).status).toBe('down');
    await w.ping(`/ping/${code}/fail`, { method: 'POST', body: 'all SUCCESS' });
    expect((await row(code)).status).toBe('up');
    await w.ping(`/ping/${code}`, { method: 'POST', body: 'nothing to see' });
    expect((await pingsOf(code)).map((p) => p.kind)).toEqual(['fail', 'success', 'ign']);
  });

  it('keeps paused checks paused with manual_resume, and unpauses them otherwise', async () => {
    const manual = await newCheck({ manual_resume: true });
    await w.api('POST', `/api/v2/checks/${manual}/pause`);
    await w.ping(`/ping/${manual}`);
    expect((await row(manual)).status).toBe('paused');
    expect((await pingsOf(manual)).map((p) => p.kind)).toEqual(['ign']);
    const auto = await newCheck();
    await w.api('POST', `/api/v2/checks/${auto}/pause`);
    await w.ping(`/ping/${auto}`);
    expect((await row(auto)).status).toBe('up');
  });

  it('stores bodies up to PING_BODY_LIMIT and serves them verbatim as text/plain', async () => {
    const code = await newCheck();
    const bytes = Buffer.concat([Buffer.from([0xff, 0x00, 0x41]), Buffer.alloc(12000, 0x42)]);
    await w.ping(`/ping/${code}`, { method: 'POST', body: bytes });
    const body = await fetch(`${w.url}/api/v2/checks/${code}/pings/1/body`, { headers: { 'X-Api-Key': w.alice.api_key } });
    expect(body.status).toBe(200);
    expect(body.headers.get('content-type')).toBe('text/plain');
    const got = Buffer.from(await body.arrayBuffer());
    expect(got.length).toBe(10000);
    expect(got.equals(bytes.subarray(0, 10000))).toBe(true);
    await w.ping(`/ping/${code}`);
    expect((await w.api('GET', `/api/v2/checks/${code}/pings/2/body`)).status).toBe(404);
    const list = await w.api('GET', `/api/v2/checks/${code}/pings/`);
    expect(list.json.pings.map((p: any) => p.body_url)).toEqual([null, `${w.url}/api/v2/checks/${code}/pings/1/body`]);
  });
});

describe('/ping/<ping_key>/<slug>', () => {
  it('pings by slug, creates with ?create=1 (201 Created), refuses upper case and ambiguity', async () => {
    const world = await createWorld();
    try {
      const key = world.alice.ping_key;
      expect((await world.ping(`/ping/${key}/backup`)).status).toBe(404);
      const created = await world.ping(`/ping/${key}/backup?create=1`);
      expect(created.status).toBe(201);
      expect(created.text).toBe('Created');
      const check = await world.app.db.check.findFirstOrThrow({ where: { slug: 'backup' } });
      expect(check).toMatchObject({ name: 'backup', status: 'up', projectId: world.alice.id });
      expect((await world.ping(`/ping/${key}/backup/fail`)).status).toBe(200);
      expect((await world.app.db.check.findFirstOrThrow({ where: { slug: 'backup' } })).status).toBe('down');
      const upper = await world.ping(`/ping/${key}/Backup`);
      expect(upper.status).toBe(400);
      expect(upper.text).toBe('invalid url format');
      await world.api('POST', '/api/v2/checks/', { body: { name: 'dup' } });
      await world.api('POST', '/api/v2/checks/', { body: { name: 'dup' } });
      const ambiguous = await world.ping(`/ping/${key}/dup`);
      expect(ambiguous.status).toBe(409);
      expect(ambiguous.text).toBe('ambiguous slug');
      expect((await world.ping(`/ping/${'z'.repeat(32)}/backup`)).status).toBe(404);
    } finally {
      await world.stop();
    }
  });
});

describe('GET /api/v2/checks/<uuid>/pings/', () => {
  it('lists newest first with Healthchecks keys, limited to the project setting', async () => {
    const world = await createWorld();
    try {
      const code = (await world.api('POST', '/api/v2/checks/', { body: {} })).json.uuid;
      world.clock.set('2026-01-05T10:00:00.250Z');
      for (let i = 0; i < 3; i++) await world.ping(`/ping/${code}`, { headers: { 'User-Agent': 'ua' } });
      const res = await world.api('GET', `/api/v2/checks/${code}/pings/`);
      expect(res.status).toBe(200);
      expect(res.json.pings.map((p: any) => p.n)).toEqual([3, 2, 1]);
      expect(Object.keys(res.json.pings[0])).toEqual(['type', 'date', 'n', 'scheme', 'remote_addr', 'method', 'ua', 'rid', 'body_url']);
      expect(res.json.pings[0]).toMatchObject({ type: 'success', date: '2026-01-05T10:00:00.250000+00:00', scheme: 'http', method: 'GET', ua: 'ua', rid: null, body_url: null });
      await world.app.db.project.update({ where: { id: world.alice.id }, data: { pingLogLimit: 2 } });
      expect((await world.api('GET', `/api/v2/checks/${code}/pings/`)).json.pings.map((p: any) => p.n)).toEqual([3, 2]);
    } finally {
      await world.stop();
    }
  });
});

describe('concurrent pings', () => {
  it('acknowledges and stores every one of 60 simultaneous pings to one check, numbered 1..60', async () => {
    const code = await newCheck();
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => w.ping(`/ping/${code}${i % 3 === 0 ? '/start' : ''}`)));
    expect(results.every((r) => r.status === 200 && r.text === 'OK')).toBe(true);
    const check = await row(code);
    expect(check.nPings).toBe(60);
    expect((await pingsOf(code)).map((p) => p.n)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});
