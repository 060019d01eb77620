// No N+1: the SQL a nested query runs must not grow with the number of checks. Every statement
// is recorded by a second Prisma client (same database file, same adapter) with query logging,
// put into a copy of the app's deps that an in-process yoga serves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { createAdapterFactory } from '../../src/db/adapter.ts';
import type { CreatedProject } from '../../src/monitoring/projects/service.ts';
import { createWorld, T0, type World } from '../helpers/world.ts';
import { inProcess, type Query } from './in-process.ts';

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
  w = await createWorld();
  logged = loggingClient(w.databaseUrl);
  logged.$on('query', (e) => statements.push(e.query));
  q = inProcess({ ...w.app.deps, db: logged as unknown as typeof w.app.deps.db }, w.app.log, null);
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

it('runs the same statements for 2 checks as for 10', async () => {
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

it('limits nested pings per check, not across all checks', async () => {
  const r = await q('{ project { checks { nodes { pings(first: 1) { type } } } } }', {}, w.bob.api_key);
  expect(r.data.project.checks.nodes.map((n: { pings: unknown }) => n.pings)).toEqual(Array(10).fill([{ type: 'fail' }]));
});
