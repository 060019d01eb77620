// Public status pages over GraphQL: publishing them (read-write keys), reading them without a
// key, what they show and hide, a clean NOT_FOUND for unknown and withdrawn slugs, and the
// live subscription over WebSocket and SSE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { useWorld } from '../helpers/fixtures.ts';
import { gql } from '../helpers/gql.ts';

const w = useWorld();
const clients: Client[] = [];
const checks: Record<string, { uuid: string; ping: string; uniqueKey: string; badge: string }> = {};

const SET = `mutation Set($slug: String, $tags: [String!]) { setStatusPage(slug: $slug, tags: $tags) { statusPage { slug tags url } } }`;
const PAGE = `query Page($slug: String!) { statusPage(slug: $slug) { slug title checks { name status lastPing } } }`;
const CHANGED = `subscription Changed($slug: String!) { statusPageChanged(slug: $slug) { title checks { name status lastPing } } }`;

async function newCheck(name: string, tags: string, key = w.alice.api_key) {
  const created = await w.api('POST', '/api/v3/checks/', { key, body: { name, tags, desc: `secret notes about ${name}`, timeout: 3600 } });
  expect(created.status).toBe(201);
  const ro = await w.api('GET', `/api/v3/checks/?slug=`, { key: w.alice.api_key_readonly });
  const uniqueKey = ro.json.checks.find((c: { name: string }) => c.name === name)?.unique_key;
  checks[name] = { uuid: created.json.uuid, ping: created.json.ping_url, uniqueKey, badge: created.json.badge_url };
}

beforeAll(async () => {
  await newCheck('web', 'prod web');
  await newCheck('backup', 'prod');
  await newCheck('internal', 'staff');
  await w.ping(new URL(checks.web!.ping).pathname);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
});

describe('setStatusPage', () => {
  it('publishes the page for a read-write key and shows it on Project.statusPage', async () => {
    const r = await gql(w, SET, { slug: 'alice-status', tags: ['prod'] });
    expect(r.errors).toBeUndefined();
    expect(r.data.setStatusPage.statusPage).toEqual({ slug: 'alice-status', tags: ['prod'], url: `${w.url}/status/alice-status` });
    const read = await gql(w, '{ project { statusPage { slug tags } } }', {}, w.alice.api_key_readonly);
    expect(read.data.project.statusPage).toEqual({ slug: 'alice-status', tags: ['prod'] });
  });

  it('refuses read-only keys, bad slugs and tags, and a slug another project has', async () => {
    const ro = await gql(w, SET, { slug: 'mine' }, w.alice.api_key_readonly);
    expect(ro.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    for (const slug of ['Upper', 'with space', '-dash', 'a'.repeat(65), '']) {
      const bad = await gql(w, SET, { slug });
      expect(bad.errors?.[0]?.extensions.code, slug).toBe('BAD_USER_INPUT');
    }
    const badTag = await gql(w, SET, { slug: 'ok', tags: ['two words'] });
    expect(badTag.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    const taken = await gql(w, SET, { slug: 'alice-status' }, w.bob.api_key);
    expect(taken.errors?.[0]).toMatchObject({ message: 'status page slug already taken: alice-status', extensions: { code: 'CONFLICT' } });
    const still = await gql(w, '{ project { statusPage { slug tags } } }');
    expect(still.data.project.statusPage).toEqual({ slug: 'alice-status', tags: ['prod'] });
  });
});

describe('statusPage (no key)', () => {
  it('lists the tagged checks by name with status and last ping, and leaks nothing private', async () => {
    const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: PAGE, variables: { slug: 'alice-status' } }) });
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      data: {
        statusPage: {
          slug: 'alice-status',
          title: 'Alice',
          checks: [
            { name: 'backup', status: 'NEW', lastPing: null },
            { name: 'web', status: 'UP', lastPing: w.clock.now().toISOString() },
          ],
        },
      },
    });
    const secrets = [w.alice.id, w.alice.api_key, w.alice.api_key_readonly, w.alice.ping_key, w.alice.badge_key, ...Object.values(checks).flatMap((c) => [c.uuid, c.ping, c.uniqueKey, c.badge]), 'secret notes', 'staff', 'internal'];
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('has no field that could carry an id, key, URL or tag', async () => {
    const r = await gql(w, '{ page: __type(name: "StatusPage") { fields { name } } check: __type(name: "StatusPageCheck") { fields { name } } }', {}, null);
    expect(r.data.page.fields.map((f: { name: string }) => f.name).sort()).toEqual(['checks', 'slug', 'title']);
    expect(r.data.check.fields.map((f: { name: string }) => f.name).sort()).toEqual(['lastPing', 'name', 'status']);
  });

  it('answers unknown and withdrawn slugs with the same clean NOT_FOUND', async () => {
    await gql(w, SET, { slug: 'bob-status' }, w.bob.api_key);
    expect((await gql(w, PAGE, { slug: 'bob-status' }, null)).data.statusPage.title).toBe('Bob');
    const off = await gql(w, SET, { slug: null }, w.bob.api_key);
    expect(off.data.setStatusPage.statusPage).toBeNull();
    const withdrawn = await gql(w, PAGE, { slug: 'bob-status' }, null);
    const unknown = await gql(w, PAGE, { slug: 'nobody' }, null);
    expect(unknown).toMatchObject({ data: null, errors: [{ message: 'status page not found', path: ['statusPage'], extensions: { code: 'NOT_FOUND' } }] });
    expect(unknown.errors).toHaveLength(1);
    // Nothing tells a withdrawn page from one that never was.
    expect(withdrawn).toEqual(unknown);
    // The HTML page answers 404 for both too.
    for (const slug of ['bob-status', 'nobody']) expect((await fetch(`${w.url}/status/${slug}`)).status).toBe(404);
    expect((await fetch(`${w.url}/status/alice-status`)).status).toBe(200);
  });
});

describe('statusPageChanged (no key)', () => {
  function subscribe(slug: string) {
    const c = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    clients.push(c);
    const events: any[] = [];
    const waiters: Array<() => void> = [];
    const wake = () => waiters.splice(0).forEach((f) => f());
    const stop = c.subscribe({ query: CHANGED, variables: { slug } }, { next: (v) => (events.push(v), wake()), error: (e) => (events.push({ error: e }), wake()), complete: wake });
    const until = (n: number) => new Promise<void>((resolve) => {
      const check = () => (events.length >= n ? resolve() : waiters.push(check));
      check();
    });
    return { events, stop, until };
  }

  it('sends the page at once, then again when a listed check flips', async () => {
    const s = subscribe('alice-status');
    await s.until(1);
    expect(s.events[0].data.statusPageChanged.checks.map((c: { status: string }) => c.status)).toEqual(['NEW', 'UP']);
    await w.ping(`${new URL(checks.web!.ping).pathname}/fail`);
    await s.until(2);
    const last = s.events.at(-1).data.statusPageChanged;
    expect(last.checks).toContainEqual({ name: 'web', status: 'DOWN', lastPing: w.clock.now().toISOString() });
    s.stop();
  });

  it('sends the page at once to a second viewer too (viewers of one page share one subscription)', async () => {
    const first = subscribe('alice-status');
    await first.until(1);
    const second = subscribe('alice-status');
    await second.until(1);
    expect(second.events[0].data.statusPageChanged).toEqual(first.events.at(-1).data.statusPageChanged);
    // Then both get the next change, once.
    await w.ping(new URL(checks.web!.ping).pathname);
    await first.until(first.events.length + 1);
    await second.until(2);
    expect(second.events.at(-1)).toEqual(first.events.at(-1));
    expect(second.events).toHaveLength(2);
    first.stop();
    second.stop();
  });

  it('ends with NOT_FOUND for an unknown slug', async () => {
    const s = subscribe('nobody');
    await s.until(1);
    expect(s.events[0].errors?.[0]?.extensions?.code ?? s.events[0].error?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('works over SSE without a key', async () => {
    const abort = new AbortController();
    const res = await fetch(`${w.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ query: CHANGED, variables: { slug: 'alice-status' } }),
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: next')) text += (await reader.read()).value ?? '';
    while (!text.slice(text.indexOf('event: next')).includes('\n\n')) text += (await reader.read()).value ?? '';
    const data = /data: (.*)\n/.exec(text.slice(text.indexOf('event: next')))![1]!;
    expect(JSON.parse(data).data.statusPageChanged.title).toBe('Alice');
    abort.abort();
  });
});
