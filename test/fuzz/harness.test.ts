// The fuzz harness itself: the snapshot sees a write (so "no change on 4xx" can fail) on either
// database, checkRequest fails on a 4xx or an errors-only GraphQL answer that wrote, and on a
// request that blocks the event loop past a second.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../helpers/world.ts';
import { checkRequest, fuzzWorld, type FuzzWorld } from './harness.ts';

let fw: FuzzWorld;
beforeAll(async () => {
  fw = await fuzzWorld();
});
afterAll(() => fw?.close());

describe('the fuzz harness', () => {
  it('sees an insert and an update in the snapshot, and nothing after a read', async () => {
    const empty = await fw.snapshot();
    expect(Object.keys(empty)).toEqual(expect.arrayContaining(['Check', 'Ping', 'Person', 'Content']));
    const created = await fw.w.api('POST', '/api/v3/checks/', { body: { name: 'a' } });
    const inserted = await fw.snapshot();
    expect(inserted.Check).not.toBe(empty.Check);
    await fw.w.api('POST', `/api/v3/checks/${created.json.uuid}`, { body: { desc: 'changed' } });
    const updated = await fw.snapshot();
    expect(updated.Check).not.toBe(inserted.Check);
    // The same row count, a different digest: an update in place is seen too.
    expect(updated.Check!.split(',')[0]).toBe(inserted.Check!.split(',')[0]);
    await fw.w.api('GET', '/api/v3/checks/');
    expect(await fw.snapshot()).toEqual(updated);
  });

  it('accepts a 2xx that writes and fails a 4xx whose snapshot changed', async () => {
    const ok = await checkRequest(fw, { method: 'POST', path: '/api/v3/checks/', headers: { 'X-Api-Key': fw.w.alice.api_key, 'Content-Type': 'application/json' }, body: Buffer.from('{"name":"b"}') });
    expect(ok.status).toBe(201);
    // A snapshot that differs on every call stands in for a 4xx with a side effect.
    let n = 0;
    const changing: FuzzWorld = { ...fw, snapshot: async () => ({ Check: String(n++) }) };
    await expect(checkRequest(changing, { method: 'GET', path: '/api/v3/checks/nope', headers: {} })).rejects.toThrow(/404 changed state/);
  });
});

describe('checkRequest against a stand-in server', () => {
  let server: http.Server;
  let url = '';
  /** Answers /healthz at once; /block holds this process's event loop for 1.2 s; /graphql answers `graphqlAnswer`. */
  let graphqlAnswer = '';
  /** A /healthz that waits without working, as a starved process or a slow network would. */
  let healthzWaits = false;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/healthz' && healthzWaits) return void setTimeout(() => res.end('ok'), 1100);
      if (req.url === '/block') {
        const until = Date.now() + 1200;
        while (Date.now() < until);
      }
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(req.url === '/graphql' ? graphqlAnswer : '{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** A world whose snapshot is `state` (changing it between calls stands in for a write). */
  const standIn = (state: () => Record<string, string>): FuzzWorld => ({ w: { get url() { return url; } } as World, snapshot: async () => state(), close: async () => {} });
  const unchanged = standIn(() => ({ Check: 'same' }));
  let n = 0;
  const changing = standIn(() => ({ Check: String(n++) }));
  const graphql = (query: string): Parameters<typeof checkRequest>[1] => ({
    method: 'POST',
    path: '/graphql',
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify({ query })),
  });

  it('passes a quick request and fails one that blocks the event loop while it runs', async () => {
    expect((await checkRequest(unchanged, { method: 'GET', path: '/quick', headers: {} })).status).toBe(200);
    await expect(checkRequest(unchanged, { method: 'GET', path: '/block', headers: {} })).rejects.toThrow(/\/healthz answered 200 after \d+ ms while the request ran/);
  });

  it('does not blame a slow /healthz answer while this process sat idle (a loaded machine)', async () => {
    healthzWaits = true;
    try {
      expect((await checkRequest(unchanged, { method: 'GET', path: '/quick', headers: {} })).status).toBe(200);
    } finally {
      healthzWaits = false;
    }
  });

  it('does not blame a slow /healthz answer while other threads of this process worked and the event loop was free', async () => {
    // As the collector's threads sweeping a large heap would (seen in CI after the long fuzz files).
    const spinner = new Worker('const until = Date.now() + 1300; while (Date.now() < until);', { eval: true });
    healthzWaits = true;
    try {
      expect((await checkRequest(unchanged, { method: 'GET', path: '/quick', headers: {} })).status).toBe(200);
    } finally {
      healthzWaits = false;
      await spinner.terminate();
    }
  });

  it('fails a GraphQL answer with errors and no data, or null data of one root field, that changed state', async () => {
    graphqlAnswer = '{"errors":[{"message":"Syntax Error"}]}';
    await expect(checkRequest(changing, graphql('{'))).rejects.toThrow(/200 with only errors changed state/);
    graphqlAnswer = '{"data":null,"errors":[{"message":"refused"}]}';
    await expect(checkRequest(changing, graphql('mutation { deleteCourse(id: 1) { id } }'))).rejects.toThrow(/200 with only errors changed state/);
    // Two root fields: the first may have committed before the second nulled the data.
    await checkRequest(changing, graphql('mutation { a: createCourse(input: {}) { id } b: deleteCourse(id: 1) { id } }'));
    // An error below the root field: the root field's write may have committed.
    graphqlAnswer = '{"data":null,"errors":[{"message":"unknown cursor","path":["setStatusPage","checks"]}]}';
    await checkRequest(changing, graphql('mutation { setStatusPage { checks(after: "x") { id } } }'));
    // Data beside the errors: partial success may write.
    graphqlAnswer = '{"data":{"createCourse":{"id":1}},"errors":[{"message":"x"}]}';
    await checkRequest(changing, graphql('mutation { createCourse(input: {}) { id } }'));
  });
});
