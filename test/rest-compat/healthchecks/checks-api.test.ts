import { describe, expect, it } from 'vitest';
import { createWorld, T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();

const RW_KEYS = [
  'name', 'slug', 'tags', 'desc', 'grace', 'n_pings', 'status', 'started', 'last_ping', 'next_ping',
  'manual_resume', 'methods', 'subject', 'subject_fail', 'start_kw', 'success_kw', 'failure_kw',
  'filter_subject', 'filter_body', 'filter_http_body', 'filter_default_fail', 'badge_url',
  'uuid', 'ping_url', 'update_url', 'pause_url', 'resume_url', 'channels', 'timeout',
];

describe('POST /api/v2/checks/ (create)', () => {
  it('creates a check with Healthchecks defaults and 201, keys in Healthchecks order', async () => {
    const res = await w.api('POST', '/api/v2/checks/', { body: {} });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json)).toEqual(RW_KEYS);
    expect(res.json).toMatchObject({
      name: '', slug: '', tags: '', desc: '', grace: 3600, n_pings: 0, status: 'new', started: false,
      last_ping: null, next_ping: null, manual_resume: false, methods: '', channels: '', timeout: 86400,
    });
    const uuid = res.json.uuid as string;
    expect(res.json.ping_url).toBe(`${w.url}/ping/${uuid}`);
    expect(res.json.update_url).toBe(`${w.url}/api/v2/checks/${uuid}`);
    expect(res.json.pause_url).toBe(`${w.url}/api/v2/checks/${uuid}/pause`);
    const row = await w.app.db.check.findUniqueOrThrow({ where: { code: uuid } });
    expect(row).toMatchObject({ projectId: w.alice.id, status: 'new', timeout: 86400, grace: 3600, kind: 'simple' });
  });

  it('creates a cron check: schedule wins over timeout, tz shown, timeout hidden', async () => {
    const res = await w.api('POST', '/api/v2/checks/', {
      body: { name: 'Nightly Backup', schedule: '0 3 * * *', tz: 'Europe/Riga', timeout: 120, grace: 600 },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Nightly Backup', slug: 'nightly-backup', schedule: '0 3 * * *', tz: 'Europe/Riga', grace: 600 });
    expect(res.json).not.toHaveProperty('timeout');
  });

  it('accepts the API key in the JSON body on POST', async () => {
    const res = await w.api('POST', '/api/v2/checks/', { key: null, body: { api_key: w.alice.api_key, name: 'body-key' } });
    expect(res.status).toBe(201);
  });

  it('maps legacy time zones to the canonical name', async () => {
    const res = await w.api('POST', '/api/v2/checks/', { body: { schedule: '0 * * * *', tz: 'Europe/Kiev' } });
    expect(res.status).toBe(201);
    expect(res.json.tz).toBe('Europe/Kyiv');
  });

  it.each([
    [{ timeout: 59 }, 'json validation error: timeout is too small'],
    [{ timeout: 31536001 }, 'json validation error: timeout is too large'],
    [{ grace: '60' }, 'json validation error: grace is not a number'],
    [{ name: 5 }, 'json validation error: name is not a string'],
    [{ timeout: 1, name: 5 }, 'json validation error: name is not a string'],
    [{ methods: 'GET' }, 'json validation error: methods has unexpected value'],
    [{ schedule: 'bad' }, 'json validation error: schedule is not a valid cron or OnCalendar expression'],
    [{ tz: 'Mars/Base' }, 'json validation error: tz is not a valid timezone'],
    [{ unique: ['color'] }, "json validation error: an item in 'unique' has unexpected value"],
    [{ manual_resume: 'yes' }, 'json validation error: manual_resume is not a boolean'],
  ])('rejects %j with 400 %s and stores nothing', async (body, message) => {
    const before = await w.app.db.check.count();
    const res = await w.api('POST', '/api/v2/checks/', { body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: message });
    expect(await w.app.db.check.count()).toBe(before);
  });

  it('answers unparseable JSON and non-objects with 400', async () => {
    const bad = await w.api('POST', '/api/v2/checks/', { rawBody: '{nope', headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'could not parse request body' });
    const arr = await w.api('POST', '/api/v2/checks/', { rawBody: '[1]' });
    expect(arr.status).toBe(400);
    expect(arr.json).toEqual({ error: 'json validation error: value is not an object' });
  });

  it('upserts with unique: 200 and the same check on a match, 201 otherwise', async () => {
    const first = await w.api('POST', '/api/v2/checks/', { body: { name: 'upsert-me', tags: 'a', unique: ['name'] } });
    expect(first.status).toBe(201);
    const second = await w.api('POST', '/api/v2/checks/', { body: { name: 'upsert-me', tags: 'b', unique: ['name'] } });
    expect(second.status).toBe(200);
    expect(second.json.uuid).toBe(first.json.uuid);
    expect(second.json.tags).toBe('b');
    expect(await w.app.db.check.count({ where: { name: 'upsert-me' } })).toBe(1);
    const missingField = await w.api('POST', '/api/v2/checks/', { body: { tags: 'b', unique: ['name'] } });
    expect(missingField.status).toBe(201);
  });

  it('assigns channels by uuid, by name and with *; rejects unknown identifiers changing nothing', async () => {
    const email = await w.channel(w.alice, { name: 'Ops Email' });
    const sms = await w.channel(w.alice, { kind: 'sms', value: '+15551234567', name: 'Pager' });
    const byName = await w.api('POST', '/api/v2/checks/', { body: { channels: 'Ops Email' } });
    expect(byName.json.channels).toBe(email.code);
    const all = await w.api('POST', '/api/v2/checks/', { body: { channels: '*' } });
    expect(all.json.channels).toBe([email.code, sms.code].sort().join(','));
    const before = await w.app.db.check.count();
    const bad = await w.api('POST', '/api/v2/checks/', { body: { channels: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'invalid channel identifier: nope' });
    const empty = await w.api('POST', '/api/v2/checks/', { body: { channels: `${email.code},` } });
    expect(empty.json).toEqual({ error: 'empty channel identifier' });
    expect(await w.app.db.check.count()).toBe(before);
  });
});

describe('GET /api/v2/checks/', () => {
  it('filters by tags: repeatable, AND-ed, exact', async () => {
    const world = await createWorld();
    try {
      for (const tags of ['prod web', 'prod db', 'production web']) {
        await world.api('POST', '/api/v2/checks/', { body: { name: tags, tags } });
      }
      const names = async (q: string) => (await world.api('GET', `/api/v2/checks/${q}`)).json.checks.map((c: any) => c.name);
      expect(await names('')).toEqual(['prod web', 'prod db', 'production web']);
      expect(await names('?tag=prod')).toEqual(['prod web', 'prod db']);
      expect(await names('?tag=prod&tag=web')).toEqual(['prod web']);
      expect(await names('?tag=pro')).toEqual([]);
      expect(await names('?tag=')).toEqual([]);
    } finally {
      await world.stop();
    }
  });

  it('shows read-only keys unique_key instead of uuid and URLs', async () => {
    const created = await w.api('POST', '/api/v2/checks/', { body: { name: 'ro-view' } });
    const res = await w.api('GET', '/api/v2/checks/', { key: w.alice.api_key_readonly });
    expect(res.status).toBe(200);
    const check = res.json.checks.find((c: any) => c.name === 'ro-view');
    expect(check).toHaveProperty('unique_key');
    for (const hidden of ['uuid', 'ping_url', 'update_url', 'pause_url', 'resume_url', 'channels']) {
      expect(check).not.toHaveProperty(hidden);
    }
    expect(Object.keys(check)).toHaveLength(24);
    const byKey = await w.api('GET', `/api/v2/checks/${check.unique_key}`, { key: w.alice.api_key_readonly });
    expect(byKey.status).toBe(200);
    expect(byKey.json.name).toBe('ro-view');
    const row = await w.app.db.check.findUniqueOrThrow({ where: { code: created.json.uuid } });
    expect(check.unique_key).toBe(row.uniqueKey);
  });

  it("never shows another project's checks", async () => {
    await w.api('POST', '/api/v2/checks/', { key: w.bob.api_key, body: { name: 'bobs' } });
    const res = await w.api('GET', '/api/v2/checks/');
    expect(res.json.checks.map((c: any) => c.name)).not.toContain('bobs');
  });
});

describe('single check endpoints', () => {
  it('gets by uuid; 403 for another project; 404 for an unknown uuid or shape', async () => {
    const created = await w.api('POST', '/api/v2/checks/', { body: { name: 'single' } });
    const uuid = created.json.uuid;
    expect((await w.api('GET', `/api/v2/checks/${uuid}`)).json.name).toBe('single');
    expect((await w.api('GET', `/api/v2/checks/${uuid}`, { key: w.bob.api_key })).status).toBe(403);
    expect((await w.api('GET', '/api/v2/checks/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await w.api('GET', '/api/v2/checks/not-an-uuid')).status).toBe(404);
  });

  it('updates only the fields sent and keeps the rest', async () => {
    const created = await w.api('POST', '/api/v2/checks/', { body: { name: 'upd', tags: 'x', timeout: 300 } });
    const res = await w.api('POST', `/api/v2/checks/${created.json.uuid}`, { body: { grace: 120 } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'upd', tags: 'x', timeout: 300, grace: 120 });
    const switched = await w.api('POST', `/api/v2/checks/${created.json.uuid}`, { body: { schedule: '*/5 * * * *' } });
    expect(switched.json.schedule).toBe('*/5 * * * *');
    const bad = await w.api('POST', `/api/v2/checks/${created.json.uuid}`, { body: { grace: 1 } });
    expect(bad.status).toBe(400);
    const row = await w.app.db.check.findUniqueOrThrow({ where: { code: created.json.uuid } });
    expect(row.grace).toBe(120);
    const other = await w.api('POST', `/api/v2/checks/${created.json.uuid}`, { key: w.bob.api_key, body: { grace: 200 } });
    expect(other.status).toBe(403);
  });

  it('pauses (idempotent), resumes, and answers 409 when resuming a check that is not paused', async () => {
    const created = await w.api('POST', '/api/v2/checks/', { body: { name: 'pausable' } });
    const uuid = created.json.uuid;
    const notPaused = await w.api('POST', `/api/v2/checks/${uuid}/resume`);
    expect(notPaused.status).toBe(409);
    expect(notPaused.text).toBe('check is not paused');
    const paused = await w.api('POST', `/api/v2/checks/${uuid}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.json.status).toBe('paused');
    expect((await w.api('POST', `/api/v2/checks/${uuid}/pause`)).status).toBe(200);
    const resumed = await w.api('POST', `/api/v2/checks/${uuid}/resume`);
    expect(resumed.json.status).toBe('new');
    const row = await w.app.db.check.findUniqueOrThrow({ where: { code: uuid }, include: { flips: { orderBy: { id: 'asc' } } } });
    expect(row.flips.map((f) => `${f.oldStatus}->${f.newStatus}`)).toEqual(['new->paused', 'paused->new']);
  });

  it('deletes and returns the check as it was', async () => {
    const created = await w.api('POST', '/api/v2/checks/', { body: { name: 'doomed' } });
    const res = await w.api('DELETE', `/api/v2/checks/${created.json.uuid}`);
    expect(res.status).toBe(200);
    expect(res.json.name).toBe('doomed');
    expect(await w.app.db.check.findUnique({ where: { code: created.json.uuid } })).toBeNull();
    expect((await w.api('DELETE', `/api/v2/checks/${created.json.uuid}`)).status).toBe(404);
  });
});

describe('authentication, methods and CORS', () => {
  it('says "missing api key" for no key or a key of the wrong length, "wrong api key" otherwise', async () => {
    expect((await w.api('GET', '/api/v2/checks/', { key: null })).json).toEqual({ error: 'missing api key' });
    expect((await w.api('GET', '/api/v2/checks/', { key: 'short' })).status).toBe(401);
    const wrong = await w.api('GET', '/api/v2/checks/', { key: 'x'.repeat(32) });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'wrong api key' });
  });

  it('refuses read-only keys on write endpoints, pings and channels with 401 wrong api key', async () => {
    const created = await w.api('POST', '/api/v2/checks/', { body: {} });
    const ro = w.alice.api_key_readonly;
    for (const [method, path] of [
      ['POST', '/api/v2/checks/'],
      ['POST', `/api/v2/checks/${created.json.uuid}`],
      ['DELETE', `/api/v2/checks/${created.json.uuid}`],
      ['POST', `/api/v2/checks/${created.json.uuid}/pause`],
      ['GET', `/api/v2/checks/${created.json.uuid}/pings/`],
      ['GET', '/api/v2/channels/'],
    ] as const) {
      const res = await w.api(method, path, { key: ro });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json).toEqual({ error: 'wrong api key' });
    }
    for (const path of [`/api/v2/checks/${created.json.uuid}`, `/api/v2/checks/${created.json.uuid}/flips/`, '/api/v2/badges/']) {
      expect((await w.api('GET', path, { key: ro })).status, path).toBe(200);
    }
  });

  it('answers OPTIONS with 204 and CORS headers, other methods with 405', async () => {
    const options = await w.api('OPTIONS', '/api/v2/checks/', { key: null });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    expect(options.headers.get('access-control-allow-headers')).toBe('X-Api-Key');
    expect(options.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(options.headers.get('access-control-max-age')).toBe('600');
    expect((await w.api('PUT', '/api/v2/checks/')).status).toBe(405);
    const get = await w.api('GET', '/api/v2/checks/');
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves v1 (status "started") and v3 (slug from the client, status endpoint) from the same code', async () => {
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'Versioned Job' } });
    expect(created.json.slug).toBe('');
    expect(created.json.update_url).toBe(`${w.url}/api/v3/checks/${created.json.uuid}`);
    const withSlug = await w.api('POST', `/api/v3/checks/${created.json.uuid}`, { body: { slug: 'versioned' } });
    expect(withSlug.json.slug).toBe('versioned');
    await w.ping(`/ping/${created.json.uuid}/start`);
    expect((await w.api('GET', `/api/v1/checks/${created.json.uuid}`)).json.status).toBe('started');
    const v2 = await w.api('GET', `/api/v2/checks/${created.json.uuid}`);
    expect(v2.json).toMatchObject({ status: 'new', started: true });
    const status = await w.api('GET', '/api/v3/status/', { key: null });
    expect(status.status).toBe(200);
    expect(status.text).toBe('OK');
  });
});

describe('GET /api/v2/channels/', () => {
  it("lists the key's project channels with id, name and kind", async () => {
    const world = await createWorld();
    try {
      const c = await world.channel(world.alice, { name: 'Mail' });
      await world.channel(world.bob, { name: 'Bob mail' });
      const res = await world.api('GET', '/api/v2/channels/');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ channels: [{ id: c.code, name: 'Mail', kind: 'email' }] });
    } finally {
      await world.stop();
    }
  });
});

export { T0 };
