// GraphiQL over WebSocket: it opens the socket with empty connection params and sends its
// Headers tab with each operation, in the subscribe message's `extensions.headers`.
import { afterAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { MAX_REQUEST_BYTES } from '../../../src/graphql/server/limits.ts';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
});

/** A client as GraphiQL makes one: no connection params unless given. */
function client(connectionParams: Record<string, string> = {}) {
  const c = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
  clients.push(c);
  return c;
}

/** Subscribes with `headers` in the payload's extensions, as GraphiQL does; `next(n)` waits for n events. */
function subscribe(c: Client, query: string, headers: Record<string, string>, variables: Record<string, unknown> = {}) {
  const events: any[] = [];
  const waiters: Array<() => void> = [];
  let failure: unknown;
  let done = false;
  const wake = () => waiters.splice(0).forEach((f) => f());
  const stop = c.subscribe({ query, variables, extensions: { headers } }, {
    next: (value) => (events.push(value), wake()),
    error: (err) => ((failure = err), wake()),
    complete: () => ((done = true), wake()),
  });
  return {
    events,
    stop,
    failure: () => failure,
    until: (cond: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (cond() || failure || done ? resolve() : waiters.push(check));
        check();
      }),
  };
}

const once = async (c: Client, query: string, headers: Record<string, string>, variables: Record<string, unknown> = {}) => {
  const s = subscribe(c, query, headers, variables);
  await s.until(() => s.events.length > 0);
  return s.events[0] ?? { failure: s.failure() };
};

const newCheck = async (key: string, name: string) => (await w.api('POST', '/api/v3/checks/', { key, body: { name, timeout: 60, grace: 60 } })).json.uuid as string;
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('headers in the subscribe message (GraphiQL)', () => {
  it('authenticates a subscription whose X-Api-Key is only in payload.extensions.headers', async () => {
    const code = await newCheck(w.alice.api_key, 'graphiql');
    const idle = w.app.deps.events.listenerCount('flip');
    const sub = subscribe(client(), 'subscription($id: ID) { flips(checkId: $id) { newStatus check { name } } }', { 'X-Api-Key': w.alice.api_key }, { id: code });
    await until(() => w.app.deps.events.listenerCount('flip') > idle);
    await w.ping(`/ping/${code}`);
    await w.ping(`/ping/${code}/fail`);
    await sub.until(() => sub.events.length >= 2);
    expect(sub.failure()).toBeUndefined();
    expect(sub.events.map((e) => e.data.flips)).toEqual([
      { newStatus: 'up', check: { name: 'graphiql' } },
      { newStatus: 'down', check: { name: 'graphiql' } },
    ]);
    sub.stop();
  });

  it('authenticates queries and campus tokens the same way, headers in any case', async () => {
    const c = client();
    expect(await once(c, '{ project { name } }', { 'x-api-key': w.alice.api_key })).toEqual({ data: { project: { name: 'Alice' } } });
    const staff = (await w.campusToken('Staff')).token;
    expect(await once(c, '{ terms { totalCount } }', { Authorization: `Token ${staff}` })).toEqual({ data: { terms: { totalCount: 0 } } });
    const anonymous = await once(c, '{ terms { totalCount } }', {});
    expect(anonymous.errors).toEqual([expect.objectContaining({ message: 'Login required', extensions: { code: 'UNAUTHENTICATED' } })]);
  });

  it('answers a wrong or missing key with an UNAUTHENTICATED error and keeps the socket open', async () => {
    const c = client();
    const wrong = await once(c, '{ project { name } }', { 'X-Api-Key': 'x'.repeat(32) });
    expect(wrong.errors).toEqual([expect.objectContaining({ message: 'wrong api key', extensions: { code: 'UNAUTHENTICATED' } })]);
    const missing = await once(c, 'subscription { flips { up } }', {});
    expect(JSON.stringify(missing)).toContain('missing api key');
    expect(await once(c, '{ project { name } }', { 'X-Api-Key': w.alice.api_key })).toEqual({ data: { project: { name: 'Alice' } } });
  });

  it("prefers the operation's headers to the connection's", async () => {
    const c = client({ 'X-Api-Key': w.bob.api_key });
    expect(await once(c, '{ project { name } }', { 'X-Api-Key': w.alice.api_key })).toEqual({ data: { project: { name: 'Alice' } } });
    // Without headers of its own, an operation uses the connection's; an empty one is no header.
    expect(await once(c, '{ project { name } }', {})).toEqual({ data: { project: { name: 'Bob' } } });
    expect(await once(c, '{ project { name } }', { 'X-Api-Key': '' })).toEqual({ data: { project: { name: 'Bob' } } });
  });

  it('never shares one subscription between two keys given in extensions', async () => {
    const query = 'subscription { checkChanged { change check { name } } }';
    const idle = w.app.deps.events.listenerCount('checkChanged');
    const alice = subscribe(client(), query, { 'X-Api-Key': w.alice.api_key });
    const bob = subscribe(client(), query, { 'X-Api-Key': w.bob.api_key });
    await until(() => w.app.deps.events.listenerCount('checkChanged') >= idle + 2);
    expect(w.app.deps.events.listenerCount('checkChanged')).toBe(idle + 2);
    await newCheck(w.alice.api_key, 'alice-only');
    await newCheck(w.bob.api_key, 'bob-only');
    await Promise.all([alice.until(() => alice.events.length >= 1), bob.until(() => bob.events.length >= 1)]);
    expect(alice.events.map((e) => e.data.checkChanged)).toEqual([{ change: 'CREATED', check: { name: 'alice-only' } }]);
    expect(bob.events.map((e) => e.data.checkChanged)).toEqual([{ change: 'CREATED', check: { name: 'bob-only' } }]);
    alice.stop();
    bob.stop();
  });
});

describe('errors over WebSocket', () => {
  it('carry an extensions.code and no HTTP internals', async () => {
    const c = client({ 'X-Api-Key': w.alice.api_key });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['{ project {', {}, 'GRAPHQL_PARSE_FAILED'],
      ['{ project { nope } }', {}, 'GRAPHQL_VALIDATION_FAILED'],
      ['{ sections { nodes { course { sections { term { parent { parent { parent { parent { parent { parent { databaseId } } } } } } } } } } } }', {}, 'QUERY_LIMIT_EXCEEDED'],
      [`{ project { ${'name '.repeat(5000)}} }`, {}, 'QUERY_LIMIT_EXCEEDED'],
      ['query($n: Int!) { project { checks(first: $n) { totalCount } } }', {}, 'BAD_USER_INPUT'],
      ['{ project { checks(first: -1) { totalCount } } }', {}, 'BAD_USER_INPUT'],
    ];
    for (const [query, variables, code] of cases) {
      const s = subscribe(c, query, {}, variables);
      await s.until(() => s.events.length > 0);
      const errors = (s.events[0]?.errors ?? s.failure()) as Array<{ message: string; extensions?: Record<string, unknown> }>;
      expect(errors.length, query).toBeGreaterThan(0);
      expect(errors[0]!.extensions, query).toMatchObject({ code });
      for (const e of errors) {
        expect(e.extensions?.code, e.message).toEqual(expect.any(String));
        expect(e.extensions, e.message).not.toHaveProperty('http');
        expect(e.message).not.toMatch(/^Syntax Error: .*limit/);
      }
    }
  });
});

describe('message size over WebSocket', () => {
  it('closes the socket with 1009 on a message larger than an HTTP body may be', async () => {
    const printed = vi.spyOn(console, 'error');
    const closed = new Promise<number>((resolve) => {
      const c = createClient({
        url: w.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      clients.push(c);
      const query = `query($pad: String) { project { checks(filter: { slug: $pad }) { totalCount } } }`;
      c.subscribe({ query, variables: { pad: 'x'.repeat(MAX_REQUEST_BYTES) } }, { next: () => {}, error: () => {}, complete: () => {} });
    });
    expect(await closed).toBe(1009);
    // The client's mistake is not reported as a server fault.
    expect(printed).not.toHaveBeenCalled();
    printed.mockRestore();
    // A message under the limit is served.
    const ok = await once(client(), 'query($pad: String) { project { checks(filter: { slug: $pad }) { totalCount } } }', { 'X-Api-Key': w.alice.api_key }, { pad: 'x'.repeat(100) });
    expect(ok).toEqual({ data: { project: { checks: { totalCount: 0 } } } });
  });
});
