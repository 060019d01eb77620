// Rate limits that GraphQL and header games used to get around: the `login` mutation counts
// against POST /login's per-account and per-address budgets (every aliased login too); a budget
// of its own only for a valid key or token (a random one counts against the address); a
// Management API key sent as `api_key` in the body counts as the header would; operations over
// WebSocket count as HTTP requests.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
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

const gql = async (w: World, query: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { data?: any; errors?: Array<{ message: string; path?: string[]; extensions: any }> } };
};
const loginOp = (username: string, password: string, alias = 'login') => `${alias}: login(username: ${JSON.stringify(username)}, password: ${JSON.stringify(password)}) { personId }`;
const restLogin = (w: World, username: string, password: string) => w.campus('POST', '/login', { fields: { '_LOGIN[username]': username, '_LOGIN[password]': password } });
const randomKey = () => Math.random().toString(36).slice(2).padEnd(32, 'x');

/** Runs `queries` one after another on one graphql-transport-ws socket; the result (or errors) of each. */
async function overSocket(w: World, connectionParams: Record<string, unknown>, queries: string[]) {
  const ws = new WebSocket(w.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
  const inbox: any[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (m) => (inbox.push(JSON.parse(String(m))), waiters.splice(0).forEach((f) => f())));
  const next = async (pred: (m: any) => boolean) => {
    for (;;) {
      const i = inbox.findIndex(pred);
      if (i >= 0) return inbox.splice(i, 1)[0];
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ type: 'connection_init', payload: connectionParams }));
  await next((m) => m.type === 'connection_ack');
  const out: any[] = [];
  for (const [i, query] of queries.entries()) {
    ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query } }));
    const m = await next((x) => x.id === String(i) && (x.type === 'next' || x.type === 'error'));
    out.push(m.type === 'error' ? { errors: m.payload } : m.payload);
  }
  ws.close();
  return out;
}

describe('the GraphQL login mutation', () => {
  const w = useWorld({ RATE_LIMIT_LOGIN_ACCOUNT: '3/1h', RATE_LIMIT_LOGIN_ADDRESS: '8/10m', RATE_LIMIT_GRAPHQL: '1000/1m' });
  beforeAll(async () => {
    const staff = (await w.campusToken('Staff')).token;
    const res = await w.campus('POST', '/people/create', { token: staff, fields: { FirstName: 'Lou', LastName: 'Login', Username: 'llogin', Password: 'correct horse', AccountLevel: 'Staff' } });
    expect(res.status).toBe(200);
  });
  // Each test starts with full buckets: the address refills in 10 minutes, an account in an hour.
  const refill = () => w.clock.advance(3_600_000);
  let sessionsBefore = 0;
  beforeEach(async () => {
    sessionsBefore = await w.app.db.campusSession.count({ where: { person: { Username: 'llogin' } } });
  });

  it('shares the per-account budget with POST /login; a success does not count', async () => {
    refill();
    expect((await gql(w, `mutation { ${loginOp('llogin', 'wrong')} }`)).body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    expect((await gql(w, `mutation { ${loginOp('llogin', 'correct horse')} }`)).body.data?.login.personId).toBeGreaterThan(0);
    expect((await restLogin(w, 'LLogin', 'wrong')).status).toBe(401);
    expect((await gql(w, `mutation { ${loginOp('llogin', 'wrong')} }`)).body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    // Three failures in the hour: the right password is refused too, over both transports.
    const refused = await gql(w, `mutation { ${loginOp('llogin', 'correct horse')} }`);
    // As over REST: a 429 with Retry-After (the error's `http` hint), the error at its field.
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('1200');
    expect(refused.body.errors).toEqual([
      { message: 'Too many login attempts, try again in 1200 seconds', locations: [{ line: 1, column: 12 }], path: ['login'], extensions: { code: 'RATE_LIMITED', retryAfter: 1200 } },
    ]);
    expect((await restLogin(w, 'llogin', 'correct horse')).status).toBe(429);
    expect(await scrape(w, 'gateway_rate_limited_total', { scope: 'login_account' })).toBe(2);
    w.clock.advance(20 * 60_000);
    expect((await gql(w, `mutation { ${loginOp('llogin', 'correct horse')} }`)).body.data?.login).toBeTruthy();
  });

  it('counts every aliased login of one operation', async () => {
    refill();
    // Successful logins give the account's token back but not the address's: the ninth of
    // nine aliased logins is refused (and, a mutation's fields running in order, ends it).
    const ops = Array.from({ length: 25 }, (_, i) => loginOp('llogin', 'correct horse', `a${i}`)).join(' ');
    const res = await gql(w, `mutation { ${ops} }`);
    expect(res.body.data).toBeNull();
    expect(res.body.errors!.map((e) => [e.path, e.extensions.code])).toEqual([[['a8'], 'RATE_LIMITED']]);
    expect(await w.app.db.campusSession.count({ where: { person: { Username: 'llogin' } } })).toBe(sessionsBefore + 8);
    expect((await restLogin(w, 'llogin', 'correct horse')).status).toBe(429);
  });

  it('counts per client address whatever the account, over HTTP and WebSocket alike', async () => {
    refill();
    for (let i = 0; i < 6; i++) expect((await gql(w, `mutation { ${loginOp(`nobody${i}`, 'x')} }`)).body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    const socket = await overSocket(w, {}, [`mutation { ${loginOp('someone', 'x')} }`, `mutation { ${loginOp('someone-else', 'x')} }`, `mutation { ${loginOp('llogin', 'correct horse')} }`]);
    expect(socket.map((r) => r.errors?.[0]?.extensions.code)).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED', 'RATE_LIMITED']);
    expect((await restLogin(w, 'llogin', 'correct horse')).status).toBe(429);
    expect(await scrape(w, 'gateway_rate_limited_total', { scope: 'login_address' })).toBeGreaterThanOrEqual(3);
    w.clock.advance(10 * 60_000);
    expect((await restLogin(w, 'llogin', 'correct horse')).status).toBe(200);
  });
});

describe('budgets keyed on valid credentials', () => {
  const w = useWorld({ RATE_LIMIT_API: '5/1m', RATE_LIMIT_GRAPHQL: '4/1m' });
  let staff = '';
  beforeAll(async () => {
    staff = (await w.campusToken('Staff')).token;
  });
  const refill = () => w.clock.advance(60_000);

  it('a random X-Api-Key or token per request counts against the address; a valid one has its own budget', async () => {
    refill();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await gql(w, '{ __typename }', { 'X-Api-Key': randomKey() })).status);
    statuses.push((await gql(w, '{ __typename }', { Authorization: `Token ${randomKey()}` })).status);
    const refused = await gql(w, '{ __typename }', { Authorization: `Token ${randomKey()}` });
    expect([...statuses, refused.status]).toEqual([200, 200, 200, 200, 429]);
    expect(refused.body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 15 });
    // The valid key and token still have budgets of their own.
    for (let i = 0; i < 4; i++) expect((await gql(w, '{ __typename }', { 'X-Api-Key': w.alice.api_key })).status).toBe(200);
    expect((await gql(w, '{ __typename }', { 'X-Api-Key': w.alice.api_key })).status).toBe(429);
    expect((await gql(w, '{ __typename }', { Authorization: `Token ${staff}` })).status).toBe(200);
  });

  it('the Management API: random keys count against the address, a valid key has its own budget', async () => {
    refill();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await w.api('GET', '/api/v3/checks/', { key: randomKey() })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await w.api('GET', '/api/v3/checks/')).status).toBe(200);
  });

  it('counts a key sent as api_key in the JSON body as its own budget', async () => {
    refill();
    const create = (body: Record<string, unknown>) => w.api('POST', '/api/v1/checks/', { key: null, body });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await create({ api_key: w.bob.api_key, name: `b${i}`, unique: ['name'] })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // Alice's header key and the address (an unknown body key) are other budgets.
    expect((await w.api('GET', '/api/v3/checks/')).status).toBe(200);
    expect((await create({ api_key: randomKey(), name: 'x' })).status).toBe(401);
    expect(await w.app.db.check.count({ where: { projectId: w.bob.id } })).toBe(5);
  });

  it('counts operations over WebSocket with the HTTP requests of the same credentials', async () => {
    refill();
    const results = await overSocket(w, { 'X-Api-Key': w.alice.api_key }, Array(5).fill('{ project { name } }'));
    expect(results.slice(0, 4)).toEqual(Array(4).fill({ data: { project: { name: 'Alice' } } }));
    expect(results[4].errors).toEqual([{ message: 'Too many requests, try again in 15 seconds', extensions: { code: 'RATE_LIMITED', retryAfter: 15 } }]);
    expect((await gql(w, '{ __typename }', { 'X-Api-Key': w.alice.api_key })).status).toBe(429);
    // Anonymous operations share the address's budget.
    const anonymous = await overSocket(w, {}, Array(5).fill('{ __typename }'));
    expect(anonymous.map((r) => r.errors?.[0]?.extensions.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'RATE_LIMITED']);
    expect(await scrape(w, 'gateway_rate_limited_total', { scope: 'graphql' })).toBeGreaterThanOrEqual(3);
  });
});
