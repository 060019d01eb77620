// No N+1: the SQL a nested query runs must not grow with the number of checks. Every statement
// is recorded by a second Prisma client (same database file, same adapter) with query logging,
// put into a copy of the app's deps that an in-process yoga serves.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { createAdapterFactory, sqliteFilePath } from '../../src/db/adapter.ts';
import { createProject, setPingLogLimit, type CreatedProject } from '../../src/monitoring/projects/service.ts';
import { createWorld, T0, type World } from '../helpers/world.ts';
import { postgresUnderTest } from '../helpers/postgres.ts';
import { gql } from '../helpers/gql.ts';
import { inProcess, servicesOn, type Query } from './in-process.ts';

let w: World;
/** A client that emits every statement it runs as a `query` event. */
const loggingClient = (url: string) => new PrismaClient({ adapter: createAdapterFactory(url), log: [{ emit: 'event', level: 'query' }] });
let logged: ReturnType<typeof loggingClient>;
let q: Query;
const statements: string[] = [];

const NESTED = `{ project { checks { nodes {
  name status lastPing nextPing
  channels { name kind }
  flips { up reason }
  pings { n type duration }
} } } }`;

beforeAll(async () => {
  // Statements of the query's plan only: the rate limiter checks a key's validity once a
  // minute (src/http/limits.ts), which the advancing test clock would land inside a count.
  w = await createWorld({ RATE_LIMITS: 'off' });
  logged = loggingClient(w.databaseUrl);
  logged.$on('query', (e) => statements.push(e.query));
  q = inProcess(servicesOn(w.app, logged), w.app.log, null);
  await seed(w.alice, 2);
  await seed(w.bob, 10);
});
afterAll(async () => {
  await logged.$disconnect();
  await w.stop();
});

/** `count` checks, each with two channels, a timed run (start, success), a failure and flips. */
async function seed(project: CreatedProject, count: number) {
  await w.channel(project, { name: 'mail' });
  await w.channel(project, { kind: 'webhook', value: 'https://example.org/hook', name: 'hook' });
  for (let i = 0; i < count; i++) {
    const res = await w.api('POST', '/api/v3/checks/', { key: project.api_key, body: { name: `c${i}`, channels: '*' } });
    w.clock.set(T0);
    await w.ping(`/ping/${res.json.uuid}/start`);
    w.clock.advance(1_500);
    await w.ping(`/ping/${res.json.uuid}`);
    await w.ping(`/ping/${res.json.uuid}/fail`);
  }
}

async function run(key: string) {
  statements.length = 0;
  const r = await q(NESTED, {}, key);
  expect(r.errors).toBeUndefined();
  return { statements: [...statements], nodes: r.data.project.checks.nodes };
}

it.skipIf(postgresUnderTest())('runs the same statements for 2 checks as for 10 (SQLite only: the setup opens a SQLite client; PostgreSQL: postgres-latest-pings.test.ts)', async () => {
  const small = await run(w.alice.api_key);
  const large = await run(w.bob.api_key);
  expect(small.nodes).toHaveLength(2);
  expect(large.nodes).toHaveLength(10);
  expect(large.nodes[9]).toEqual({
    name: 'c9', status: 'DOWN', lastPing: new Date(T0.getTime() + 1_500).toISOString(),
    nextPing: null,
    channels: [{ name: 'mail', kind: 'EMAIL' }, { name: 'hook', kind: 'WEBHOOK' }],
    flips: [{ up: false, reason: 'fail' }, { up: true, reason: '' }],
    pings: [{ n: 3, type: 'fail', duration: null }, { n: 2, type: 'success', duration: 1.5 }, { n: 1, type: 'start', duration: null }],
  });
  expect(large.statements.length).toBe(small.statements.length);
  // Statement for statement the same SQL, apart from the number of IN (...) placeholders.
  const shape = (sql: string) => sql.replace(/\(\?(,\?)*\)/g, '(…)');
  expect(large.statements.map(shape)).toEqual(small.statements.map(shape));
  // Relations load with one IN (...) per level, never one query per check.
  expect(large.statements.filter((s) => /`checkId` = \?|`Check`.`id` = \?/.test(s))).toEqual([]);
  expect(small.statements.length).toBeLessThanOrEqual(12);
});

it.skipIf(postgresUnderTest())('loads the pings of a page once per asked size, aliases and fragments included, a skipped field not at all, and none for a read-only key (SQLite only: the setup opens a SQLite client)', async () => {
  const query = `query($skip: Boolean!) { project { checks { nodes {
    last: pings(first: 1) { n }
    ...Two
    skipped: pings(first: 3) @skip(if: $skip) { n }
  } } } }
  fragment Two on Check { two: pings(first: 2) { n type duration } }`;
  const windows = () => statements.filter((sql) => sql.includes('"windows"')).length;
  for (const skip of [true, false]) {
    statements.length = 0;
    const r = await q(query, { skip }, w.bob.api_key);
    expect(r.errors).toBeUndefined();
    expect(windows()).toBe(skip ? 2 : 3);
    const nodes = r.data.project.checks.nodes;
    expect(nodes).toHaveLength(10);
    for (const node of nodes) {
      expect(node.last).toEqual([{ n: 3 }]);
      expect(node.two).toEqual([{ n: 3, type: 'fail', duration: null }, { n: 2, type: 'success', duration: 1.5 }]);
      if (skip) expect(node).not.toHaveProperty('skipped');
      else expect(node.skipped).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
    }
  }
  statements.length = 0;
  const readOnly = await q('{ project { checks { nodes { name pings(first: 2) { n } } } } }', {}, w.bob.api_key_readonly);
  expect(readOnly.data.project.checks.nodes.map((n: { pings: unknown }) => n.pings)).toEqual(Array(10).fill(null));
  expect(readOnly.errors?.map((e) => e.extensions?.code)).toEqual(Array(10).fill('UNAUTHENTICATED'));
  expect(windows()).toBe(0);
});

it.skipIf(postgresUnderTest())('limits nested pings per check, not across all checks (SQLite only: the setup opens a SQLite client; PostgreSQL: postgres-latest-pings.test.ts)', async () => {
  const r = await q('{ project { checks { nodes { pings(first: 1) { type } } } } }', {}, w.bob.api_key);
  expect(r.data.project.checks.nodes.map((n: { pings: unknown }) => n.pings)).toEqual(Array(10).fill([{ type: 'fail' }]));
});

// Issue target 3: the dashboard query in at most 4 statements, counted where the app sends them.
// Literal page sizes, as a dashboard would write them (the query cost limit allows them).
const DASHBOARD = `query Dashboard { project { checks(first: 100) { nodes {
  name status lastPing
  pings(first: 10) { n type date duration }
  flips { timestamp newStatus oldStatus }
} } } }`;

it.skipIf(postgresUnderTest())('refuses a query asking for more pings than a request may, page sizes given as variables (SQLite only: the setup opens a SQLite client; PostgreSQL: postgres-latest-pings.test.ts)', async () => {
  const erin = await createProject(w.app.db, { name: 'Erin' });
  for (let i = 0; i < 21; i++) await w.api('POST', '/api/v3/checks/', { key: erin.api_key, body: { name: `e${i}` } });
  const query = 'query($checks: Int!, $pings: Int!) { project { checks(first: $checks) { nodes { name pings(first: $pings) { n } } } } }';
  const refused = await gql(w, query, { checks: 21, pings: 1000 }, erin.api_key);
  expect(refused.errors?.[0]).toMatchObject({ message: expect.stringMatching(/21000 pings, more than 20000/), extensions: { code: 'BAD_USER_INPUT' } });
  const fine = await gql(w, query, { checks: 21, pings: 900 }, erin.api_key);
  expect(fine.errors).toBeUndefined();
  expect(fine.data.project.checks.nodes).toHaveLength(21);
});

it.skipIf(postgresUnderTest())('refuses a query whose literal page sizes cost far more than a dashboard (SQLite only: the setup opens a SQLite client; PostgreSQL: postgres-latest-pings.test.ts)', async () => {
  const r = await gql(w, '{ project { checks(first: 1000) { nodes { pings(first: 100) { n } } } } }', {}, w.alice.api_key);
  expect(r.errors?.[0]?.message).toMatch(/cost/i);
});

/** Runs `query` over HTTP and returns its data with the SQL statements the app sent meanwhile. */
async function counted(query: string, variables: Record<string, unknown>, key: string) {
  const sent: string[] = [];
  const stop = w.app.onStatement((sql) => sent.push(sql));
  try {
    const r = await gql(w, query, variables, key);
    expect(r.errors).toBeUndefined();
    return { data: r.data, sent };
  } finally {
    stop();
  }
}

/** Ping `round` (n = round + 1) of the pattern start, success, fail, start, success, fail… */
const kindOf = (round: number) => (['start', 'success', 'fail'] as const)[round % 3]!;
const at = (base: Date, round: number) => new Date(base.getTime() + (round + 1) * 1000);

it.skipIf(postgresUnderTest())('loads 100 checks with their last 10 pings and their flips in at most 4 statements (SQLite only: the setup opens a SQLite client; PostgreSQL: postgres-latest-pings.test.ts)', async () => {
  const carol = await createProject(w.app.db, { name: 'Carol' });
  const base = new Date(T0.getTime() + 86_400_000);
  const checks: { code: string; pings: number }[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await w.api('POST', '/api/v3/checks/', { key: carol.api_key, body: { name: `c${i}` } });
    checks.push({ code: res.json.uuid, pings: 12 + (i % 3) });
  }
  // One ping a second per check: every success comes 1 s after its start, every fail right after
  // a success; success and fail alternate, so each of them is a flip.
  for (let round = 0; round < 14; round++) {
    w.clock.set(at(base, round));
    const path = { start: '/start', success: '', fail: '/fail' }[kindOf(round)];
    await Promise.all(checks.filter((c) => round < c.pings).map((c) => w.ping(`/ping/${c.code}${path}`)));
  }

  const { data, sent } = await counted(DASHBOARD, {}, carol.api_key);
  // The key, the page of checks, their flips, their pings with what their durations need.
  expect(sent.length).toBeLessThanOrEqual(4);

  const nodes = data.project.checks.nodes;
  expect(nodes).toHaveLength(100);
  nodes.forEach((node: any, i: number) => {
    const total = checks[i]!.pings;
    const rounds = [...Array(total).keys()];
    const lastOutcome = rounds.filter((r) => kindOf(r) !== 'start').pop()!;
    // Newest first; the oldest listed success still pairs with its start just outside the window.
    const pings = rounds.slice(-10).reverse().map((r) => ({
      n: r + 1, type: kindOf(r), date: at(base, r).toISOString(), duration: kindOf(r) === 'success' ? 1 : null,
    }));
    const flips = rounds.filter((r) => kindOf(r) !== 'start').reverse().map((r) => ({
      timestamp: at(base, r).toISOString(),
      newStatus: kindOf(r) === 'success' ? 'up' : 'down',
      oldStatus: r === 1 ? 'new' : kindOf(r) === 'success' ? 'down' : 'up',
    }));
    expect(node).toEqual({
      // A start is not a "last ping" (Healthchecks' last_ping).
      name: `c${i}`, status: kindOf(lastOutcome) === 'success' ? 'UP' : 'DOWN', lastPing: at(base, lastOutcome).toISOString(), pings, flips,
    });
  });
});

it.skipIf(postgresUnderTest())('reads a bounded window of a check with 500 pings: 10 index entries, not 500 rows (SQLite only: the setup opens a SQLite client; PostgreSQL: postgres-latest-pings.test.ts)', async () => {
  const dave = await createProject(w.app.db, { name: 'Dave' });
  await setPingLogLimit(w.app.db, dave.id, 1000); // keep all 500
  const res = await w.api('POST', '/api/v3/checks/', { key: dave.api_key, body: { name: 'busy' } });
  for (let batch = 0; batch < 10; batch++) {
    await Promise.all(Array.from({ length: 50 }, () => w.ping(`/ping/${res.json.uuid}`)));
  }
  const { data, sent } = await counted(DASHBOARD, {}, dave.api_key);
  expect(data.project.checks.nodes[0].pings.map((p: { n: number }) => p.n)).toEqual([500, 499, 498, 497, 496, 495, 494, 493, 492, 491]);
  // The pings statement reads each check's newest pings off the (checkId, n) index: a range
  // search, never a scan of the check's pings (Prisma's nested `take` reads them all).
  const window = sent.find((sql) => sql.includes('"Ping" p'));
  expect(window).toBeDefined();
  const db = new Database(sqliteFilePath(w.databaseUrl), { readonly: true });
  try {
    // The plan does not depend on the values: every parameter is bound to NULL.
    const parameters = Array((window!.match(/\?/g) ?? []).length).fill(null);
    const details = (db.prepare(`EXPLAIN QUERY PLAN ${window}`).all(...parameters) as { detail: string }[]).map((row) => row.detail);
    expect(details).toContain('SEARCH p USING INDEX Ping_checkId_n_key (checkId=? AND n>?)');
    expect(details.filter((d) => /^SCAN (p|q|e)\b/.test(d))).toEqual([]);
  } finally {
    db.close();
  }
});
