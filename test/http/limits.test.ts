// Abuse limits over real HTTP: 429 with Retry-After and each route family's error shape,
// refills on the ManualClock, the metrics counted, and what is never limited.
import { beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';

async function scrape(w: World, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${w.url}/metrics`)).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/);
    if (m && m[1] === name && wanted.every((l) => (m[2] ?? '').includes(l))) total += Number(m[3]);
  }
  return total;
}

const login = (w: World, username: string, password: string) => w.campus('POST', '/login', { fields: { '_LOGIN[username]': username, '_LOGIN[password]': password } });
const gqlPost = (w: World, headers: Record<string, string>) =>
  fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ query: '{ __typename }' }) });

describe('with small limits', () => {
  const w = useWorld({
      RATE_LIMIT_LOGIN_ACCOUNT: '3/1h',
      RATE_LIMIT_LOGIN_ADDRESS: '8/10m',
      RATE_LIMIT_API: '5/1m',
      RATE_LIMIT_GRAPHQL: '4/1m',
    });
  let staff: string;
  beforeAll(async () => {
    staff = (await w.campusToken('Staff')).token;
    const res = await w.campus('POST', '/people/create', { token: staff, fields: { FirstName: 'Lou', LastName: 'Login', Username: 'llogin', Password: 'correct horse', AccountLevel: 'Staff' } });
    expect(res.status).toBe(200);
  });

  it('counts failed logins per account; a success does not count; then 429 in Slate shape', async () => {
    const before = await scrape(w, 'gateway_rate_limited_total', { scope: 'login_account' });
    expect((await login(w, 'llogin', 'wrong')).status).toBe(401);
    expect((await login(w, 'llogin', 'correct horse')).status).toBe(200);
    expect((await login(w, 'llogin', 'wrong')).status).toBe(401);
    expect((await login(w, 'LLogin', 'wrong')).status).toBe(401);
    const refused = await login(w, 'llogin', 'correct horse');
    expect(refused.status).toBe(429);
    // 3 tokens per hour: the next one in 20 minutes.
    expect(refused.headers.get('retry-after')).toBe('1200');
    expect(refused.json).toEqual({ success: false, message: 'Too many login attempts, try again in 1200 seconds' });
    expect(await scrape(w, 'gateway_rate_limited_total', { scope: 'login_account' })).toBe(before + 1);
    // Another account is not affected.
    expect((await login(w, 'someone-else', 'x')).status).toBe(401);
    w.clock.advance(20 * 60_000);
    expect((await login(w, 'llogin', 'correct horse')).status).toBe(200);
  });

  it('limits login attempts per client address whatever the account', async () => {
    w.clock.advance(3_600_000);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await login(w, `nobody${i}`, 'x')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    const refused = await login(w, 'llogin', 'correct horse');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json.success).toBe(false);
    expect(await scrape(w, 'gateway_rate_limited_total', { scope: 'login_address' })).toBe(2);
    w.clock.advance(10 * 60_000);
    expect((await login(w, 'llogin', 'correct horse')).status).toBe(200);
    // Logout is not a login attempt.
    expect((await w.campus('POST', '/login/logout')).status).toBe(200);
  });

  it('limits the Management API per key, in Healthchecks error shape', async () => {
    for (let i = 0; i < 5; i++) expect((await w.api('GET', '/api/v3/checks/')).status).toBe(200);
    const refused = await w.api('GET', '/api/v1/checks/');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('12');
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(refused.json).toEqual({ error: 'rate limit exceeded, try again in 12 seconds' });
    // Bob's key has its own budget; the status endpoint and preflights are not limited.
    expect((await w.api('GET', '/api/v3/checks/', { key: w.bob.api_key })).status).toBe(200);
    expect((await w.api('GET', '/api/v3/status/')).status).toBe(200);
    expect((await w.api('OPTIONS', '/api/v3/checks/')).status).toBe(204);
    expect(await scrape(w, 'gateway_rate_limited_total', { scope: 'api' })).toBe(1);
    w.clock.advance(12_000);
    expect((await w.api('GET', '/api/v3/checks/')).status).toBe(200);
  });

  it('never limits pings, badges or /healthz', async () => {
    const check = await w.api('POST', '/api/v3/checks/', { key: w.bob.api_key, body: { name: 'c' } });
    const badge = (await w.api('GET', '/api/v3/badges/', { key: w.bob.api_key })).json.badges;
    for (let i = 0; i < 30; i++) {
      expect((await w.ping(`/ping/${check.json.ping_url.split('/').pop()}`)).status).toBe(200);
      expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
    }
    const svg = Object.values(badge as Record<string, { svg: string }>)[0]!.svg;
    for (let i = 0; i < 30; i++) expect((await fetch(svg)).status).toBe(200);
  });

  it('limits GraphQL per API key or campus token, with a RATE_LIMITED GraphQL error', async () => {
    for (let i = 0; i < 4; i++) expect((await gqlPost(w, { 'X-Api-Key': w.alice.api_key })).status).toBe(200);
    const refused = await gqlPost(w, { 'X-Api-Key': w.alice.api_key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('15');
    expect(await refused.json()).toEqual({ errors: [{ message: 'Too many requests, try again in 15 seconds', extensions: { code: 'RATE_LIMITED', retryAfter: 15 } }] });
    // A campus token is a budget of its own.
    for (let i = 0; i < 4; i++) expect((await gqlPost(w, { Authorization: `Token ${staff}` })).status).toBe(200);
    expect((await gqlPost(w, { Authorization: `Token ${staff}` })).status).toBe(429);
    expect(await scrape(w, 'gateway_rate_limited_total', { scope: 'graphql' })).toBe(2);
    expect(await scrape(w, 'gateway_rate_limit_keys', { scope: 'graphql' })).toBe(2);
  });
});

describe('RATE_LIMITS=off', () => {
  const w = useWorld({ RATE_LIMITS: 'off', RATE_LIMIT_API: '1/1h' });

  it('lets everything through', async () => {
    for (let i = 0; i < 5; i++) expect((await w.api('GET', '/api/v3/checks/')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(w, 'x', 'y')).status).toBe(401);
    expect(await scrape(w, 'gateway_rate_limited_total')).toBe(0);
  });
});
