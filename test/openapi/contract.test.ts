// The OpenAPI document against the server's real answers: each request below goes to a running
// gateway, and its status, media type and body must be what the document declares for that
// operation (response-check.ts). A serializer that gains, loses or retypes a key fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/openapi/document.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { responseChecker } from './response-check.ts';

const w = useWorld();
let contract: ReturnType<typeof responseChecker>;
beforeAll(() => {
  contract = responseChecker(openapiDocument(w.url));
});

/** Sends a Management API request and checks the answer against `template`'s operation. */
async function api(method: string, path: string, template: string, options?: Parameters<typeof w.api>[2]) {
  const res = await w.api(method, path, options);
  contract.check(template, method, res);
  return res;
}

async function ping(path: string, template: string, init: RequestInit = {}) {
  const res = await fetch(w.url + path, init);
  const text = await res.text();
  contract.check(template, init.method ?? 'GET', { status: res.status, headers: res.headers, text, json: undefined });
  return { status: res.status, text };
}

async function campus(method: string, path: string, template: string, options?: Parameters<typeof w.campus>[2]) {
  const res = await w.campus(method, path, options);
  contract.check(template, method, res);
  return res;
}

describe('Management API answers match the document', () => {
  it('checks: list, create, unique match, read, update, pause, resume, delete, refusals', async () => {
    await api('GET', '/api/v3/checks/', '/api/v3/checks/');
    const created = await api('POST', '/api/v3/checks/', '/api/v3/checks/', { body: { name: 'Backups', slug: 'backups', tags: 'prod db', timeout: 3600, grace: 300 } });
    expect(created.status).toBe(201);
    const uuid: string = created.json.uuid;
    const again = await api('POST', '/api/v3/checks/', '/api/v3/checks/', { body: { name: 'Backups', desc: 'nightly', unique: ['name'] } });
    expect(again.status).toBe(200);
    const cron = await api('POST', '/api/v3/checks/', '/api/v3/checks/', { body: { name: 'Cron', schedule: '*/5 * * * *', tz: 'Europe/Riga', channels: '' } });
    expect(cron.json.schedule).toBe('*/5 * * * *');

    const list = await api('GET', '/api/v3/checks/?tag=prod', '/api/v3/checks/');
    expect(list.json.checks).toHaveLength(1);
    await api('GET', `/api/v3/checks/${uuid}`, '/api/v3/checks/{check}');
    // A read-only key sees unique_key in place of the uuid and URLs.
    const readOnly = await api('GET', '/api/v3/checks/', '/api/v3/checks/', { key: w.alice.api_key_readonly });
    const uniqueKey: string = readOnly.json.checks[0].unique_key;
    expect(readOnly.json.checks[0].uuid).toBeUndefined();
    await api('GET', `/api/v3/checks/${uniqueKey}`, '/api/v3/checks/{check}', { key: w.alice.api_key_readonly });

    await api('POST', `/api/v3/checks/${uuid}`, '/api/v3/checks/{check}', { body: { desc: 'changed', methods: 'POST' } });
    const invalid = await api('POST', `/api/v3/checks/${uuid}`, '/api/v3/checks/{check}', { body: { timeout: 1 } });
    expect(invalid.json).toEqual({ error: 'json validation error: timeout is too small' });
    expect((await api('POST', `/api/v3/checks/${uuid}/pause`, '/api/v3/checks/{uuid}/pause')).json.status).toBe('paused');
    expect((await api('POST', `/api/v3/checks/${uuid}/resume`, '/api/v3/checks/{uuid}/resume')).json.status).toBe('new');
    const notPaused = await api('POST', `/api/v3/checks/${uuid}/resume`, '/api/v3/checks/{uuid}/resume');
    expect([notPaused.status, notPaused.text]).toEqual([409, 'check is not paused']);

    expect((await api('GET', '/api/v3/checks/', '/api/v3/checks/', { key: null })).status).toBe(401);
    expect((await api('GET', '/api/v3/checks/', '/api/v3/checks/', { key: 'x'.repeat(32) })).status).toBe(401);
    expect((await api('GET', `/api/v3/checks/${uuid}`, '/api/v3/checks/{check}', { key: w.bob.api_key })).status).toBe(403);
    expect((await api('GET', '/api/v3/checks/00000000-0000-0000-0000-000000000000', '/api/v3/checks/{check}')).status).toBe(404);
    expect((await api('POST', '/api/v3/checks/', '/api/v3/checks/', { rawBody: '[1]' })).status).toBe(400);

    expect((await api('DELETE', `/api/v3/checks/${uuid}`, '/api/v3/checks/{check}')).json.uuid).toBe(uuid);
  });

  it('pings, ping bodies, flips (v1, v2, v3), channels, badges, status', async () => {
    const channel = await w.channel(w.alice, { name: 'Ops' });
    const created = await api('POST', '/api/v3/checks/', '/api/v3/checks/', { body: { name: 'Job', slug: 'job', timeout: 60, grace: 60, channels: '*' } });
    const uuid: string = created.json.uuid;
    const rid = '6f9c1b1e-2a8d-4c4e-9d0a-0c1f2e3d4a5b';

    expect((await ping(`/ping/${uuid}/start?rid=${rid}`, '/ping/{uuid}/start')).text).toBe('OK');
    w.clock.advance(1500);
    await ping(`/ping/${uuid}?rid=${rid}`, '/ping/{uuid}', { method: 'POST', body: 'all good' });
    await ping(`/ping/${uuid}/fail`, '/ping/{uuid}/fail');
    await ping(`/ping/${uuid}/log`, '/ping/{uuid}/log', { method: 'POST', body: 'a line' });
    await ping(`/ping/${uuid}/1`, '/ping/{key}/{slug}');
    expect((await ping(`/ping/${w.alice.ping_key}/job`, '/ping/{key}/{slug}')).status).toBe(200);
    expect((await ping(`/ping/${w.alice.ping_key}/job/0`, '/ping/{key}/{slug}/{exit_status}')).status).toBe(200);
    expect((await ping(`/ping/${w.alice.ping_key}/new-job/start?create=1`, '/ping/{key}/{slug}/start')).status).toBe(201);
    expect((await ping(`/ping/${uuid}/256`, '/ping/{key}/{slug}')).status).toBe(400);
    expect((await ping('/ping/00000000-0000-0000-0000-000000000000', '/ping/{uuid}')).status).toBe(404);

    const pings = await api('GET', `/api/v3/checks/${uuid}/pings/`, '/api/v3/checks/{uuid}/pings/');
    const withBody = pings.json.pings.find((p: { body_url: string | null }) => p.body_url);
    expect(pings.json.pings.some((p: { duration?: number }) => p.duration !== undefined)).toBe(true);
    const body = await api('GET', new URL(withBody.body_url).pathname, '/api/v3/checks/{uuid}/pings/{n}/body');
    expect(body.status).toBe(200);
    expect((await api('GET', `/api/v3/checks/${uuid}/pings/999/body`, '/api/v3/checks/{uuid}/pings/{n}/body')).status).toBe(404);

    for (const v of [1, 2, 3]) {
      const flips = await api('GET', `/api/v${v}/checks/${uuid}/flips/`, `/api/v${v}/checks/{check}/flips/`);
      expect(Array.isArray(flips.json)).toBe(v === 2);
      await api('GET', `/api/v${v}/checks/${uuid}`, `/api/v${v}/checks/{check}`);
      await api('GET', `/api/v${v}/checks/`, `/api/v${v}/checks/`);
    }
    expect((await api('GET', `/api/v3/checks/${uuid}/flips/?seconds=x`, '/api/v3/checks/{check}/flips/')).status).toBe(400);
    // v1 reports a running check as "started".
    await ping(`/ping/${uuid}/start`, '/ping/{uuid}/start');
    expect((await api('GET', `/api/v1/checks/${uuid}`, '/api/v1/checks/{check}')).json.status).toBe('started');

    const channels = await api('GET', '/api/v3/channels/', '/api/v3/channels/');
    expect(channels.json.channels).toEqual([{ id: channel.code, name: 'Ops', kind: 'email' }]);
    const badges = await api('GET', '/api/v3/badges/', '/api/v3/badges/');
    const badgeUrl = new URL(badges.json.badges['*'].json);
    const badge = await fetch(w.url + badgeUrl.pathname);
    contract.check('/badge/{badge_key}/{file}', 'GET', { status: badge.status, headers: badge.headers, text: '', json: await badge.json() });
    const statusText = await fetch(`${w.url}/api/v3/status/`);
    contract.check('/api/v3/status/', 'GET', { status: statusText.status, headers: statusText.headers, text: await statusText.text(), json: undefined });
  });
});

describe('campus answers match the document', () => {
  it('people and sections: browse, create, read, validation failure, login', async () => {
    const staff = (await w.campusToken('Staff')).token;
    expect((await campus('GET', '/people', '/people')).status).toBe(401);
    const person = await campus('POST', '/people/create', '/people/create', {
      token: staff,
      fields: { FirstName: 'Ada', LastName: 'Lovelace', Username: 'ada', Password: 'analytical-engine', Email: 'ada@school.test' },
    });
    expect(person.json).toMatchObject({ success: true, data: { Username: 'ada' } });
    const invalid = await campus('POST', '/people/create', '/people/create', { token: staff, fields: { FirstName: 'A' } });
    expect(invalid.json.success).toBe(false);
    await campus('GET', '/people/ada', '/people/{ident}');
    await campus('GET', '/people/ada?include=recordURL,Groups', '/people/{ident}', { token: staff });
    await campus('GET', '/people?limit=5&offset=0', '/people', { token: staff });
    await campus('GET', '/people?sort=Nope', '/people', { token: staff });
    await campus('GET', '/people/create', '/people/create', { token: staff });

    const course = await campus('POST', '/courses/create', '/courses/create', { token: staff, fields: { Title: 'Algebra', Code: 'MATH' }, json: true });
    const section = await campus('POST', '/sections/create', '/sections/create', { token: staff, fields: { CourseID: course.json.data.ID, Title: 'Algebra A' } });
    expect(section.json.success).toBe(true);
    await campus('GET', '/sections', '/sections');
    await campus('GET', '/sections?course=MATH&include=Course,StudentsCount', '/sections');
    await campus('GET', `/sections/${section.json.data.Handle}?include=Course`, '/sections/{ident}');
    await campus('GET', '/sections/nope', '/sections/{ident}');
    await campus('GET', `/sections/${section.json.data.ID}/delete`, '/sections/{ident}/delete', { token: staff });
    expect((await campus('POST', '/courses/MATH/delete', '/courses/{ident}/delete', { token: staff })).status).toBe(409);

    const login = await campus('POST', '/login', '/login', { fields: { '_LOGIN[username]': 'ada', '_LOGIN[password]': 'analytical-engine' } });
    expect(login.json.data.PersonID).toBe(person.json.data.ID);
    await campus('GET', '/login', '/login', { token: login.json.data.Handle });
    expect((await campus('POST', '/login', '/login', { fields: { '_LOGIN[username]': 'ada', '_LOGIN[password]': 'wrong-password' } })).status).toBe(401);
    expect((await campus('GET', '/login', '/login')).status).toBe(401);
    await campus('POST', '/login/logout', '/login/logout', { token: login.json.data.Handle });
  });

  it('a response that does not match fails, naming the operation', async () => {
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'Drift' } });
    const res = await w.api('GET', `/api/v3/checks/${created.json.uuid}`);
    const { name: _name, ...withoutName } = res.json;
    expect(() => contract.check('/api/v3/checks/{check}', 'GET', { ...res, json: withoutName })).toThrow(/GET \/api\/v3\/checks\/\{check\} → 200: body does not match[\s\S]*name/);
    expect(() => contract.check('/api/v3/checks/{check}', 'GET', { ...res, json: { ...res.json, extra: 1 } })).toThrow(/additional properties/);
    expect(() => contract.check('/api/v3/checks/{check}', 'GET', { ...res, status: 418 })).toThrow(/status not declared/);
  });

  it('checked every main operation', () => {
    const ops = new Set([...contract.checked].map((k) => k.split(' ').slice(0, 2).join(' ')));
    for (const op of ['GET /api/v3/checks/', 'POST /api/v3/checks/', 'POST /api/v3/checks/{check}', 'DELETE /api/v3/checks/{check}', 'POST /api/v3/checks/{uuid}/pause', 'GET /api/v3/checks/{uuid}/pings/', 'GET /api/v3/channels/', 'GET /api/v3/badges/', 'GET /ping/{uuid}', 'GET /people', 'POST /people/create', 'GET /sections/{ident}', 'POST /login']) {
      expect(ops, op).toContain(op);
    }
  });
});
