// A subscription's context serves every event of that subscription: the batching loaders it
// holds must not answer a later event with what an earlier one read.
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();
let c: Client;
beforeAll(async () => {
  c = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': w.alice.api_key }, retryAttempts: 0, lazy: true });
});
afterAll(async () => {
  await c.dispose();
});

function collect(query: string, variables: Record<string, unknown>) {
  const events: any[] = [];
  let ready = false;
  const stop = c.subscribe({ query, variables }, { next: (v) => events.push(v), error: (e) => events.push({ error: e }), complete: () => {} });
  return {
    events,
    stop,
    until: async (cond: () => boolean) => {
      for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(cond()).toBe(true);
      ready = true;
      return ready;
    },
  };
}

it("lists a check's pings as they are at each event, not as at the first", async () => {
  const uuid = (await w.api('POST', '/api/v3/checks/', { body: { name: 'fresh', timeout: 3600 } })).json.uuid as string;
  const sub = collect('subscription($id: ID) { checkChanged(checkId: $id) { check { name nPings pings(first: 5) { n } } } }', { id: uuid });
  // The subscription is live once a change reaches it: rename until one does.
  await sub.until(() => w.app.deps.events.listenerCount('checkChanged') > 0);
  await w.api('POST', `/api/v3/checks/${uuid}`, { body: { name: 'fresh 1' } });
  await sub.until(() => sub.events.length >= 1);
  await w.ping(`/ping/${uuid}`);
  await w.api('POST', `/api/v3/checks/${uuid}`, { body: { name: 'fresh 2' } });
  await sub.until(() => sub.events.some((e) => e.data?.checkChanged.check.name === 'fresh 2'));
  const last = sub.events.find((e) => e.data?.checkChanged.check.name === 'fresh 2');
  expect(last.data.checkChanged.check.nPings).toBe(1);
  expect(last.data.checkChanged.check.pings).toEqual([{ n: 1 }]);
  sub.stop();
});

it("reads a record's comments as they are at each event", async () => {
  const staff = (await w.campusToken('Staff')).token;
  const created = await w.campus('POST', '/blog/create', { token: staff, fields: { Title: 'Fresh post' } });
  expect(created.json.success).toBe(true);
  const handle = created.json.data.Handle as string;
  const sub = c.subscribe(
    { query: 'subscription { recordChanged(kind: BlogPost) { record { ... on BlogPost { title comments { message } } } } }' },
    { next: (v) => events.push(v), error: (e) => events.push({ error: e }), complete: () => {} },
  );
  const events: any[] = [];
  const wait = async (cond: () => boolean) => {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cond()).toBe(true);
  };
  const authed = { token: staff };
  await wait(() => w.app.deps.events.listenerCount('recordChanged') > 0);
  await w.campus('POST', `/blog/${handle}/edit`, { ...authed, fields: { Title: 'Fresh post 1' } });
  await wait(() => events.length >= 1);
  await w.campus('POST', `/blog/${handle}/comment`, { ...authed, fields: { Message: 'first!' } });
  await w.campus('POST', `/blog/${handle}/edit`, { ...authed, fields: { Title: 'Fresh post 2' } });
  await wait(() => events.some((e) => e.data?.recordChanged.record.title === 'Fresh post 2'));
  const last = events.find((e) => e.data?.recordChanged.record.title === 'Fresh post 2');
  expect(last.data.recordChanged.record.comments.map((x: { message: string }) => x.message)).toEqual(['first!']);
  sub();
});
