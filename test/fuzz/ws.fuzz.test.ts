// Fuzzing GraphQL over WebSocket (graphql-transport-ws) and over SSE: malformed, deeply nested,
// oversized and out-of-order messages, and every subscription field with odd arguments. A
// socket may be closed for the client's mistake (44xx, 1009 too big) but never for the
// server's (4500, 1011); no error carries INTERNAL_SERVER_ERROR; an SSE request is never a
// 5xx; /healthz answers within 1 s after each case.
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema/schema.ts';
import { MAX_REQUEST_BYTES } from '../../src/graphql/server/limits.ts';
import { garbageToken, nastyString } from './arbitraries.ts';
import { fuzzWorld, RUNS, send, type FuzzWorld } from './harness.ts';
import { argTargets, internalErrors, variablesFor } from './schema-targets.ts';

let fw: FuzzWorld;
const known: string[] = [];

beforeAll(async () => {
  fw = await fuzzWorld(async (w) => {
    const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', slug: 'backup', tags: 'prod' } })).json;
    known.push(check.uuid, 'backup', 'prod');
    await w.api('POST', '/api/v3/checks/', { body: { name: 'web' } });
  });
});
afterAll(() => fw?.close());

const subscriptions = argTargets(schema).filter((t) => t.operation === 'subscription');
const queries = argTargets(schema).filter((t) => t.operation === 'query');

/** Close codes that are the client's doing (graphql-ws's 44xx, ws's 1009) or a normal end. */
const CLIENT_CLOSES = new Set([1000, 1005, 1009, 4400, 4401, 4403, 4406, 4408, 4409, 4429]);

const nested = (depth: number, arrays: boolean) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** A subscribe (or a query run as one) for a schema field, its variables from the schema's types. */
const operation = fc.constantFrom(...subscriptions, ...queries).chain((t) => variablesFor(t, fc.constantFrom(...known)).map((variables) => ({ query: t.text, variables })));

const message = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.nat({ max: 5 }), operation, fc.option(fc.record({ headers: fc.record({ 'X-Api-Key': fc.oneof(fc.constant('$KEY'), garbageToken) }) }), { nil: undefined })).map(([id, payload, extensions]) => JSON.stringify({ id: String(id), type: 'subscribe', payload: { ...payload, extensions } })) },
  { weight: 1, arbitrary: fc.nat({ max: 5 }).map((id) => JSON.stringify({ id: String(id), type: 'complete' })) },
  { weight: 1, arbitrary: fc.constantFrom('{"type":"connection_init"}', '{"type":"ping"}', '{"type":"pong"}', '{"type":"connection_init","payload":{"X-Api-Key":"$KEY"}}') },
  { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '[]', '1', '"x"', '{"type":1}', '{"type":"subscribe"}', '{"id":1,"type":"subscribe","payload":{"query":1}}', '{"id":"1","type":"subscribe","payload":null}', '{"type":"next","id":"1","payload":{}}', '{"type":"unknown"}', '{"__proto__":{"type":"ping"}}') },
  { weight: 1, arbitrary: nastyString },
  // Deep messages: in the payload, the variables, the headers, or the whole message.
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean(), fc.constantFrom('payload', 'variables', 'headers', 'init')).map(([d, arrays, where]) => {
    const deep = nested(d, arrays);
    if (where === 'init') return `{"type":"connection_init","payload":{"headers":${deep}}}`;
    if (where === 'payload') return `{"id":"9","type":"subscribe","payload":${deep}}`;
    if (where === 'variables') return `{"id":"9","type":"subscribe","payload":{"query":"{ __typename }","variables":{"v":${deep}}}}`;
    return `{"id":"9","type":"subscribe","payload":{"query":"{ __typename }","extensions":{"headers":${deep}}}}`;
  }) },
  // Past the message size limit (closed with 1009), and just under it.
  { weight: 1, arbitrary: fc.constantFrom(MAX_REQUEST_BYTES + 1, MAX_REQUEST_BYTES - 200).map((n) => JSON.stringify({ id: '8', type: 'subscribe', payload: { query: '{ __typename }', extensions: { pad: 'x'.repeat(n - 80) } } })) },
);

interface SocketRun {
  close: { code: number; reason: string } | null;
  received: string[];
}

/** Opens a socket, sends the messages (each after the previous had a moment), collects what comes back. */
async function runSocket(messages: string[], connectionParams: Record<string, unknown> | null): Promise<SocketRun> {
  const ws = new WebSocket(fw.w.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
  const received: string[] = [];
  let close: SocketRun['close'] = null;
  const closed = new Promise<void>((resolve) => ws.on('close', (code, reason) => ((close = { code, reason: String(reason) }), resolve())));
  ws.on('message', (m) => received.push(String(m)));
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  const tick = () => new Promise<void>((r) => setTimeout(r, 5));
  if (connectionParams) {
    ws.send(JSON.stringify({ type: 'connection_init', payload: connectionParams }));
    for (let i = 0; i < 200 && !received.length && !close; i++) await tick();
  }
  for (const m of messages) {
    if (close) break;
    ws.send(m.replaceAll('$KEY', fw.w.alice.api_key));
    await tick();
  }
  // A moment for the answers; then the client leaves.
  for (let i = 0; i < 20 && !close; i++) await tick();
  ws.close();
  await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
  return { close, received };
}

async function healthzWithinOneSecond() {
  const started = Date.now();
  const health = await send(fw.w.url, { method: 'GET', path: '/healthz', headers: {} }, 1000);
  expect(health.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(1000);
}

describe('fuzzing GraphQL over WebSocket', () => {
  it('malformed, deep, oversized and out-of-order messages: closed only for the client\'s mistakes, no internal errors', async () => {
    const params = fc.oneof(fc.constant(null), fc.constant({}), fc.constant({ 'X-Api-Key': '$KEY' }), fc.record({ headers: fc.record({ Authorization: garbageToken }) }));
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 6 }), params, async (messages, p) => {
        const connect = p && JSON.parse(JSON.stringify(p).replaceAll('$KEY', fw.w.alice.api_key));
        const { close, received } = await runSocket(messages, connect);
        const shown = `messages: ${JSON.stringify(messages.map((m) => m.slice(0, 200)))}\n  close: ${JSON.stringify(close)}\n  received: ${JSON.stringify(received.map((m) => m.slice(0, 300)))}`;
        if (close && close.code !== 1006) expect(CLIENT_CLOSES.has(close.code), `server-side close\n  ${shown}`).toBe(true);
        for (const m of received) {
          const payload = (JSON.parse(m) as { payload?: unknown }).payload;
          const errors = Array.isArray(payload) ? payload : ((payload as { errors?: unknown[] } | undefined)?.errors ?? []);
          expect(errors.filter((e) => (e as { extensions?: { code?: string } })?.extensions?.code === 'INTERNAL_SERVER_ERROR'), `internal error\n  ${shown}`).toEqual([]);
        }
        await healthzWithinOneSecond();
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  }, 300_000);
});

describe('fuzzing GraphQL over SSE', () => {
  /** POSTs with Accept: text/event-stream; reads what arrives in a moment, then hangs up. */
  async function sse(body: string, headers: Record<string, string>) {
    const abort = new AbortController();
    const res = await fetch(`${fw.w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...headers }, body, signal: abort.signal });
    let text = '';
    const reader = res.body?.getReader();
    const timer = setTimeout(() => abort.abort(), 150);
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        text += Buffer.from(chunk.value).toString('utf8');
      }
    } catch {
      // Hung up on a live subscription: what arrived so far is the answer.
    } finally {
      clearTimeout(timer);
    }
    return { status: res.status, text };
  }

  it('every subscription and query field with odd arguments, deep and broken bodies: no 5xx, no internal errors', async () => {
    const body = fc.oneof(
      { weight: 5, arbitrary: operation.map((op) => JSON.stringify(op)) },
      { weight: 1, arbitrary: fc.integer({ min: 30, max: 50_000 }).map((d) => `{"query":"subscription { flips { up } }","variables":{"v":${nested(d, d % 2 === 0)}}}`) },
      { weight: 1, arbitrary: fc.constantFrom('{', 'null', '[]', '{"query":1}', '{"query":"subscription { nope }"}', '{"query":"subscription { flips { up } } subscription b { flips { up } }"}') },
    );
    const headers = fc.oneof(fc.constant({}), fc.constant({ 'X-Api-Key': '$KEY' }), garbageToken.map((t) => ({ 'X-Api-Key': t })));
    await fc.assert(
      fc.asyncProperty(body, headers, async (b, h) => {
        const real = Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v === '$KEY' ? fw.w.alice.api_key : v]));
        const { status, text } = await sse(b, real);
        const shown = `body: ${b.slice(0, 300)}\n  answer: ${status} ${text.slice(0, 300)}`;
        expect(status, shown).toBeLessThan(500);
        const events = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim());
        for (const data of [text, ...events]) expect(internalErrors(data), `internal error\n  ${shown}`).toEqual([]);
        expect(text).not.toContain('INTERNAL_SERVER_ERROR');
        await healthzWithinOneSecond();
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  }, 300_000);
});
