import { describe, expect, it } from 'vitest';
import { gql } from '../helpers/gql.ts';
import { T0, createWorld } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();

const create = async (input: Record<string, unknown>) =>
  (await gql(w, 'mutation($i: CheckInput!) { createCheck(input: $i) { check { uuid uniqueKey } } }', { i: input })).data!.createCheck.check;

describe('GraphQL', () => {
  it('pages through checks and filters them by tag and computed status', async () => {
    const world = await createWorld();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await gql(world, 'mutation($i: CheckInput!) { createCheck(input: $i) { check { uuid } } }', { i: { name: `c${i}`, tags: i % 2 ? 'odd' : 'even', timeout: 60, grace: 60 } });
        ids.push(r.data.createCheck.check.uuid);
      }
      world.clock.set(T0);
      await world.ping(`/ping/${ids[0]}`);
      await world.ping(`/ping/${ids[1]}`);
      world.clock.set(new Date(T0.getTime() + 90_000)); // both pinged checks are in grace now
      const page = `query($after: String, $tags: [String!], $status: [CheckStatus!]) {
        project { checks(first: 2, after: $after, filter: { tags: $tags, status: $status }) { totalCount hasNextPage endCursor nodes { name status } } } }`;
      const p1 = (await gql(world, page)).data.project.checks;
      expect(p1).toMatchObject({ totalCount: 5, hasNextPage: true, nodes: [{ name: 'c0', status: 'GRACE' }, { name: 'c1', status: 'GRACE' }] });
      const p3 = (await gql(world, page, { after: (await gql(world, page, { after: p1.endCursor })).data.project.checks.endCursor })).data.project.checks;
      expect(p3).toMatchObject({ hasNextPage: false, nodes: [{ name: 'c4' }] });
      expect((await gql(world, page, { tags: ['odd'] })).data.project.checks.nodes.map((n: any) => n.name)).toEqual(['c1', 'c3']);
      expect((await gql(world, page, { status: ['NEW'] })).data.project.checks.totalCount).toBe(3);
      const bad = await gql(world, page, { after: 'nope' });
      expect(bad.errors![0]).toMatchObject({ message: 'unknown cursor', extensions: { code: 'BAD_USER_INPUT' } });
    } finally {
      await world.stop();
    }
  });

  it('reads a check by unique key with a read-only key and hides its UUID, URLs, pings and channels', async () => {
    const check = await create({ name: 'secretive' });
    const ro = w.alice.api_key_readonly;
    const r = await gql(w, 'query($k: String) { check(uniqueKey: $k) { uuid name pingUrl } }', { k: check.uniqueKey }, ro);
    expect(r.data.check).toEqual({ uuid: null, name: 'secretive', pingUrl: null });
    const pings = await gql(w, 'query($k: String) { check(uniqueKey: $k) { pings { n } } }', { k: check.uniqueKey }, ro);
    expect(pings.errors![0]).toMatchObject({ message: 'wrong api key', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('returns pings newest first with their bodies, and flips filtered like the REST API', async () => {
    const check = await create({ name: 'pinged', timeout: 60, grace: 60 });
    w.clock.set(T0);
    await w.ping(`/ping/${check.uuid}/start`);
    await w.ping(`/ping/${check.uuid}`, { method: 'POST', body: 'done' });
    const r = await gql(w, 'query($id: ID) { check(id: $id) { nPings lastDuration pings(first: 5) { n type body method } flips { up reason } } }', { id: check.uuid });
    expect(r.data.check).toEqual({
      nPings: 2,
      lastDuration: null,
      pings: [{ n: 2, type: 'success', body: 'done', method: 'POST' }, { n: 1, type: 'start', body: null, method: 'GET' }],
      flips: [{ up: true, reason: '' }],
    });
    const bad = await gql(w, 'query($id: ID) { check(id: $id) { flips(seconds: -1) { up } } }', { id: check.uuid });
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });

  it('creates channels and lists them with the project, and lists badges', async () => {
    const r = await gql(w, 'mutation { createChannel(kind: WEBHOOK, value: "https://example.org/hook", name: "Hook") { uuid name kind } }');
    expect(r.data.createChannel).toMatchObject({ name: 'Hook', kind: 'WEBHOOK' });
    expect(await w.app.db.channel.count({ where: { code: r.data.createChannel.uuid, projectId: w.alice.id } })).toBe(1);
    const bad = await gql(w, 'mutation { createChannel(kind: EMAIL, value: "not-an-address") { uuid } }');
    expect(bad.errors![0]).toMatchObject({ message: 'value is not a valid email address', extensions: { code: 'BAD_USER_INPUT' } });
    const ro = await gql(w, 'mutation { createChannel(kind: EMAIL, value: "a@b.co") { uuid } }', {}, w.alice.api_key_readonly);
    expect(ro.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const project = await gql(w, '{ project { name channels { name } badges { tag svg } } }');
    expect(project.data.project.name).toBe('Alice');
    expect(project.data.project.channels.map((c: any) => c.name)).toContain('Hook');
    expect(project.data.project.badges[0].tag).toBe('*');
  });

  it('serves GraphiQL from installed packages, with no external URLs, cacheable', async () => {
    const res = await fetch(`${w.url}/graphql`, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('graphiql');
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/);
    // Protocol-relative URLs would reach a CDN just the same.
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=["']\/\//);
    expect(html).not.toMatch(/cdn\.jsdelivr|unpkg|esm\.sh/);
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = res.headers.get('etag')!;
    const again = await fetch(`${w.url}/graphql`, { headers: { Accept: 'text/html', 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });
});
