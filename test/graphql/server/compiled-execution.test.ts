// Queries and mutations run compiled (graphql-jit, src/graphql/server/compiled-execution.ts): seen from
// the outside through /metrics, which counts executions by executor and the operations kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COMPILED_DOCUMENTS } from '../../../src/graphql/server/compiled-execution.ts';
import { createWorld, type World } from '../../helpers/world.ts';
import { gql } from '../../helpers/gql.ts';

let w: World;
beforeAll(async () => {
  // Hundreds of requests from one key: the rate limit is not what is tested here.
  w = await createWorld({ RATE_LIMITS: 'off' });
  await w.api('POST', '/api/v2/checks/', { body: { name: 'backup', timeout: 60, grace: 60 } });
});
afterAll(() => w.stop());

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${w.url}/metrics`)).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name && wanted.every((l) => (m[2] ?? '').includes(l))) total += Number(m[3]);
  }
  return total;
}
const executions = (executor: 'compiled' | 'interpreted') => metric('gateway_graphql_executions_total', { executor });

describe('compiled execution', () => {
  it('runs the dashboard query and a mutation compiled, with the same answers', async () => {
    const [compiled, interpreted] = [await executions('compiled'), await executions('interpreted')];
    const dashboard = 'query Dashboard($n: Int!) { project { checks(first: $n) { nodes { name status lastPing pings(first: 10) { n } flips { newStatus } } } } }';
    for (let i = 0; i < 3; i++) {
      const r = await gql(w, dashboard, { n: 100 });
      expect(r.errors).toBeUndefined();
      expect(r.data.project.checks.nodes).toEqual([{ name: 'backup', status: 'NEW', lastPing: null, pings: [], flips: [] }]);
    }
    const created = await gql(w, 'mutation { createCheck(input: { name: "db", timeout: 60, grace: 60 }) { check { name } } }');
    expect(created.errors).toBeUndefined();
    expect(await executions('compiled')).toBe(compiled + 4);
    expect(await executions('interpreted')).toBe(interpreted);
  });

  it('runs the operation named, when one document holds two', async () => {
    const doc = 'query A { project { name } } query B { project { checks { totalCount } } }';
    const run = async (operationName: string) => {
      const res = await fetch(`${w.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key },
        body: JSON.stringify({ query: doc, operationName }),
      });
      return ((await res.json()) as { data: unknown }).data;
    };
    expect(await run('A')).toEqual({ project: { name: expect.any(String) } });
    expect(await run('B')).toEqual({ project: { checks: { totalCount: 2 } } });
    expect(await run('A')).toEqual({ project: { name: expect.any(String) } });
  });

  it('leaves to the interpreter what reaches a type with a read rule of its own (campus records)', async () => {
    const interpreted = await executions('interpreted');
    // Person's read rule runs in its isTypeOf, which graphql-jit would call without the caller.
    const r = await gql(w, '{ person(handle: "nobody") { firstName } }', {}, null);
    expect(r.data).toEqual({ person: null });
    expect(await executions('interpreted')).toBe(interpreted + 1);
  });

  it(`keeps the compiled operations of at most ${MAX_COMPILED_DOCUMENTS} documents, the most recent`, async () => {
    const distinct = (i: number) => `{ project { n${i}: name } }`;
    for (let i = 0; i < MAX_COMPILED_DOCUMENTS + 40; i++) {
      const r = await gql(w, distinct(i));
      expect(r.data.project[`n${i}`]).toEqual(expect.any(String));
    }
    const kept = await metric('gateway_graphql_compiled_operations');
    expect(kept).toBeLessThanOrEqual(MAX_COMPILED_DOCUMENTS);
    expect(kept).toBeGreaterThan(MAX_COMPILED_DOCUMENTS - 10);
    // The least recent was dropped: it compiles again, and answers as before.
    expect((await gql(w, distinct(0))).data.project.n0).toEqual(expect.any(String));
    expect(await metric('gateway_graphql_compiled_operations')).toBeLessThanOrEqual(MAX_COMPILED_DOCUMENTS);
  });
});
