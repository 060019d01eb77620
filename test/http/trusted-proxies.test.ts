// TRUSTED_PROXIES over real HTTP: the ping log's remote_addr and scheme, and the rate limits'
// client, come from X-Forwarded-For / X-Forwarded-Proto only when the peer (here loopback) is
// a trusted proxy; GraphQL over SSE and WebSocket count against the same budget as HTTP.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import type { World } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';

const FORWARDED = { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9', 'X-Forwarded-Proto': 'https' };

async function loggedPing(w: World) {
  const code = (await w.api('POST', '/api/v3/checks/', { key: w.alice.api_key, body: { name: 'proxied' } })).json.uuid as string;
  expect((await w.ping(`/ping/${code}`, { headers: FORWARDED })).status).toBe(200);
  const pings = (await w.api('GET', `/api/v3/checks/${code}/pings/`, { key: w.alice.api_key })).json.pings as Array<Record<string, unknown>>;
  return { remote_addr: pings[0]!.remote_addr, scheme: pings[0]!.scheme };
}

describe('without TRUSTED_PROXIES', () => {
  const w = useWorld();
  it('stores the peer as the ping log remote_addr, whatever X-Forwarded-For says', async () => {
    expect(await loggedPing(w)).toEqual({ remote_addr: '127.0.0.1', scheme: 'http' });
  });
});

describe('behind a trusted proxy', () => {
  const w = useWorld({ TRUSTED_PROXIES: '127.0.0.1,::1', RATE_LIMIT_GRAPHQL: '3/1m' });

  it('stores the forwarded client (the rightmost untrusted hop) and scheme in the ping log', async () => {
    expect(await loggedPing(w)).toEqual({ remote_addr: '203.0.113.9', scheme: 'https' });
  });

  const graphql = (client: string, accept = 'application/graphql-response+json') =>
    fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: accept, 'X-Forwarded-For': client }, body: JSON.stringify({ query: '{ __typename }' }) });

  it('gives two clients behind one proxy a budget each', async () => {
    const statuses = async (client: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await graphql(client)).status);
      return out;
    };
    expect(await statuses('192.0.2.1', 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses('192.0.2.2', 3)).toEqual([200, 200, 200]);
    w.clock.advance(60_000);
  });

  it('counts GraphQL over SSE and over WebSocket against the same budget as HTTP', async () => {
    const client = '192.0.2.3';
    const sse = await graphql(client, 'text/event-stream');
    expect(sse.status).toBe(200);
    expect(await sse.text()).toContain('__typename');
    expect((await graphql(client)).status).toBe(200);
    // The socket's upgrade request comes through the proxy with the same X-Forwarded-For.
    class Proxied extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { 'X-Forwarded-For': client } });
      }
    }
    const socket = createClient({ url: `${w.url.replace('http', 'ws')}/graphql`, webSocketImpl: Proxied, retryAttempts: 0 });
    const run = () =>
      new Promise<unknown>((resolve) => {
        const results: unknown[] = [];
        socket.subscribe({ query: '{ __typename }' }, { next: (v) => results.push(v), error: (e) => resolve(e), complete: () => resolve(results) });
      });
    try {
      expect(await run()).toEqual([{ data: { __typename: 'Query' } }]);
      expect(await run()).toMatchObject([{ extensions: { code: 'RATE_LIMITED' } }]);
      expect((await graphql(client)).status).toBe(429);
      // Another client behind the same proxy is untouched.
      expect((await graphql('192.0.2.4')).status).toBe(200);
    } finally {
      await socket.dispose();
    }
  });
});
