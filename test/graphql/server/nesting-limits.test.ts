// GraphQL requests nested past MAX_JSON_DEPTH are refused before anything walks them, over HTTP
// (JSON, GET, SSE) and WebSocket (4400 with a reason); a socket's headers look-up no longer
// recurses; an Accept header no result type satisfies gets a 406 that says why.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_JSON_DEPTH } from '../../../src/graphql/server/limits.ts';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();

/** `{"a":{"a":...1}}` with `depth` objects. */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** `{"headers":{"headers":...{}}}` with `depth` objects. */
const nestedHeaders = (depth: number) => '{"headers":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key, ...headers }, body });

describe('over HTTP', () => {
  it(`answers a request of ${MAX_JSON_DEPTH} levels and refuses one level more with 400 BAD_REQUEST`, async () => {
    // The body is one level, `extensions` one more: depth - 2 levels inside it fit exactly.
    const ok = await post(`{"query":"{ __typename }","extensions":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect([ok.status, await ok.json()]).toEqual([200, { data: { __typename: 'Query' } }]);
    const refused = await post(`{"query":"{ __typename }","extensions":${nested(MAX_JSON_DEPTH)}}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ errors: [{ message: `request too deeply nested: at most ${MAX_JSON_DEPTH} levels`, extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('refuses deep variables 100,000 levels down, in a POST, a GET and an SSE subscription', async () => {
    const deep = `{"query":"query($v: String) { __typename }","variables":{"v":${nested(100_000)}}}`;
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await post(deep, { Accept: accept });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].extensions.code).toBe('BAD_REQUEST');
    }
    const get = await fetch(`${w.url}/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent(nested(40))}`, { headers: { 'X-Api-Key': w.alice.api_key } });
    expect([get.status, (await get.json()).errors[0].message]).toEqual([400, `request too deeply nested: at most ${MAX_JSON_DEPTH} levels`]);
    const sse = await post(`{"query":"subscription { flips { newStatus } }","variables":${nested(1000)}}`, { Accept: 'text/event-stream' });
    expect(sse.status).toBe(400);
    expect(await sse.text()).toContain('too deeply nested');
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
  });
});

describe('over WebSocket', () => {
  /** Opens a graphql-transport-ws socket, sends `messages` in order, resolves with the close code and reason (or 'open'). */
  async function run(messages: string[], waitMs = 2_000): Promise<{ close: [number, string] | 'open'; received: string[] }> {
    const ws = new WebSocket(w.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    const received: string[] = [];
    ws.on('message', (m) => received.push(String(m)));
    const closed = new Promise<[number, string]>((resolve) => ws.on('close', (code, reason) => resolve([code, String(reason)])));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    // The first message alone; the rest once it is answered (a subscribe before the ack is 4401).
    const [first, ...rest] = messages;
    ws.send(first!);
    if (rest.length) {
      await Promise.race([new Promise((r) => ws.once('message', r)), closed]);
      for (const m of rest) ws.send(m);
    }
    const close = await Promise.race([closed, new Promise<'open'>((r) => setTimeout(() => r('open'), waitMs))]);
    ws.terminate();
    return { close, received };
  }
  const init = JSON.stringify({ type: 'connection_init', payload: {} });
  const tooDeep: [number, string] = [4400, `message too deeply nested: at most ${MAX_JSON_DEPTH} levels`];

  it('closes with 4400 on a connection_init payload nested 20,000 deep (was 4500, stack overflow)', async () => {
    const { close, received } = await run([`{"type":"connection_init","payload":${nestedHeaders(20_000)}}`]);
    expect(close).toEqual(tooDeep);
    expect(received).toEqual([]);
  });

  it('closes with 4400 on deep variables or extensions.headers, after an acknowledged init', async () => {
    for (const payload of [`{"query":"{ __typename }","variables":{"a":${nested(20_000)}}}`, `{"query":"{ __typename }","extensions":{"headers":${nestedHeaders(20_000)}}}`]) {
      const { close, received } = await run([init, `{"id":"1","type":"subscribe","payload":${payload}}`]);
      expect(close).toEqual(tooDeep);
      expect(received).toEqual(['{"type":"connection_ack"}']);
    }
  });

  it('closes with 4400, not 4500, on a message of a type only a server sends', async () => {
    for (const type of ['next', 'error', 'connection_ack']) {
      const { close } = await run([init, JSON.stringify({ id: '1', type, payload: type === 'error' ? [{ message: 'x' }] : {} })]);
      expect(close).toEqual([4400, `unexpected message type from a client: ${type}`]);
    }
  });

  it('still serves a message at the limit, and headers one level inside `headers`', async () => {
    const connect = JSON.stringify({ type: 'connection_init', payload: { headers: { 'X-Api-Key': w.alice.api_key } } });
    const subscribe = `{"id":"1","type":"subscribe","payload":{"query":"{ project { name } }","extensions":{"x":${nested(MAX_JSON_DEPTH - 3)}}}}`;
    const { close, received } = await run([connect, subscribe], 500);
    expect(close).toBe('open');
    expect(received.map((m) => JSON.parse(m))).toEqual([
      { type: 'connection_ack' },
      { id: '1', type: 'next', payload: { data: { project: { name: 'Alice' } } } },
      { id: '1', type: 'complete' },
    ]);
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
  });
});

describe('Accept headers no result type satisfies', () => {
  it('answers 406 with a JSON body and NOT_ACCEPTABLE, for a query and for a subscription', async () => {
    const query = await post('{"query":"{ __typename }"}', { Accept: 'text/html' });
    expect(query.status).toBe(406);
    expect(query.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(query.headers.get('accept')).toContain('application/graphql-response+json');
    const body = await query.json();
    expect(body.errors[0].extensions).toEqual({ code: 'NOT_ACCEPTABLE' });
    expect(body.errors[0].message).toMatch(/^cannot answer in any type the Accept header allows; send Accept: .*application\/json/);
    // A subscription is served as SSE only: asking for plain JSON is refused the same way.
    const sub = await post('{"query":"subscription { flips { newStatus } }"}', { Accept: 'application/json' });
    expect(sub.status).toBe(406);
    expect((await sub.json()).errors[0].extensions.code).toBe('NOT_ACCEPTABLE');
  });
});
