// No N+1: the SQL a nested query runs must not grow with the number of checks.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { createAdapterFactory } from '../../src/db/adapter.ts';
import { createWorld, T0, type World } from '../helpers/world.ts';
import { gql } from '../helpers/gql.ts';

let w: World;
let logged: PrismaClient;
const statements: string[] = [];

beforeAll(async () => {
  w = await createWorld();
  // A second client on the same database that records every statement it runs.
  logged = new PrismaClient({ adapter: createAdapterFactory(w.databaseUrl), log: [{ emit: 'event', level: 'query' }] });
  (logged as any).$on('query', (e: { query: string }) => statements.push(e.query));
  w.app.deps.db = logged as any;
  await seed(2);
  await seed(10);
});
afterAll(async () => {
  await logged.$disconnect();
  await w.stop();
});

async function seed(count: number) {
  const channel = await w.channel(w.alice, { name: `ch-${count}` });
  for (let i = 0; i < count; i++) {
    const res = await w.api('POST', '/api/v2/checks/', { body: { name: `n${count}-${i}`, tags: `set${count}`, channels: channel.code } });
    w.clock.set(T0);
    await w.ping(`/ping/${res.json.uuid}`);
    await w.ping(`/ping/${res.json.uuid}/fail`);
  }
}

async function countStatements(tag: string) {
  statements.length = 0;
  const r = await gql(w, `query($t: [String!]) { project { checks(tags: $t) { nodes { name status channels { name } flips { up } pings { n type } } } } }`, { t: [tag] });
  expect(r.errors).toBeUndefined();
  return { count: statements.length, nodes: r.data.project.checks.nodes.length };
}

it('limits nested pings per check, not across all checks', async () => {
  const r = await gql(w, `{ project { checks(tags: ["set10"]) { nodes { pings(first: 1) { type } } } } }`);
  expect(r.data.project.checks.nodes.map((n: any) => n.pings)).toEqual(Array(10).fill([{ type: 'fail' }]));
});

it('runs the same number of statements for 2 checks as for 10', async () => {
  const small = await countStatements('set2');
  const large = await countStatements('set10');
  expect(small.nodes).toBe(2);
  expect(large.nodes).toBe(10);
  expect(large.count).toBe(small.count);
  // Auth, project, checks, then one IN (...) query per relation level.
  expect(small.count).toBeLessThanOrEqual(12);
  expect(statements.every((q) => !/WHERE .*`checkId` = \?/.test(q))).toBe(true);
});
