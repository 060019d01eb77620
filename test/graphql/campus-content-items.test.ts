// A post's body over GraphQL: BlogPost.items / Page.items / body (the same items and HTML as
// REST's include=items), setContentItems (update by databaseId, create, mark left-out ones
// Deleted; refusals change nothing), the post's read rule over its items, and batching.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { campusGql } from '../helpers/gql.ts';

let w: World;
let staff: string;
let user: string;
beforeAll(async () => {
  // Statement counts cover the query's plan only (no rate limiter's credential check).
  w = await createWorld({ RATE_LIMITS: 'off' });
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});
afterAll(() => w.stop());

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff) =>
  campusGql(w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;
const create = async (prefix: string, fields: Record<string, unknown>) => {
  const res = await w.campus('POST', `/${prefix}/create`, { token: staff, fields, json: true });
  expect(res.json.success, res.text).toBe(true);
  return res.json.data as { ID: number; Handle: string };
};
const MD = 'Emergence\\CMS\\Item\\Markdown';
const rows = (ContentID: number) => w.app.db.contentItem.findMany({ where: { ContentID }, orderBy: { ID: 'asc' } });

const ITEMS = 'items { databaseId class title status order data html }';
const SET = `mutation($c: ID!, $items: [ContentItemInput!]!) { setContentItems(content: $c, items: $items) { databaseId class status order data html } }`;

describe('BlogPost.items, Page.items and body', () => {
  it('list the items with their rendered HTML, as REST include=items does', async () => {
    const p = await create('blog', { Title: 'GQL body', items: [{ Class: MD, Data: '## Two', Title: 'Head' }, { Data: 'a & b' }] });
    const r = await q(`query($id: ID) { blogPost(id: $id) { ${ITEMS} body } }`, { id: String(p.ID) });
    expect(r.errors).toBeUndefined();
    const rest = (await w.campus('GET', `/blog/${p.ID}?include=items`, { token: staff })).json.data.items;
    expect(r.data.blogPost.items).toEqual(
      rest.map((i: any) => ({ databaseId: i.ID, class: i.Class, title: i.Title, status: i.Status, order: i.Order, data: JSON.stringify(i.Data), html: i.RenderedBody })),
    );
    expect(r.data.blogPost.items.map((i: any) => [i.class, i.title, i.data])).toEqual([
      [MD, 'Head', '"## Two"'],
      ['Emergence\\CMS\\Item\\Text', null, '"a & b"'],
    ]);
    expect(r.data.blogPost.body).toBe(rest.map((i: any) => i.RenderedBody).join(''));
    expect(r.data.blogPost.body).toContain('<h2>Two</h2>');
    const page = await create('pages', { Title: 'GQL page', items: [{ Class: 'Markdown', Data: 'page *body*' }] });
    const pr = await q(`query($id: ID) { page(id: $id) { items { html } body } }`, { id: String(page.ID) });
    expect(pr.data.page.body).toContain('<em>body</em>');
  });

  it("are shown only on a post the caller may read (a hidden post's are not)", async () => {
    const hidden = await create('blog', { Title: 'GQL hidden', Status: 'Hidden', items: [{ Class: MD, Data: 'secret' }] });
    const query = `query($id: ID) { blogPost(id: $id) { items { data } body } }`;
    const anonymous = await q(query, { id: String(hidden.ID) }, null);
    expect(anonymous.data?.blogPost ?? null).toBeNull();
    expect(anonymous.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect((await q(query, { id: String(hidden.ID) }, user)).errors![0]!.extensions.code).toBe('FORBIDDEN');
    expect((await q(query, { id: String(hidden.ID) })).data.blogPost.items).toEqual([{ data: '"secret"' }]);
    const list = await q('{ blogPosts { nodes { title body } } }', {}, user);
    expect(JSON.stringify(list.data)).not.toContain('secret');
  });
});

describe('setContentItems', () => {
  it('updates by databaseId, creates without, marks left-out items Deleted; takes a global id or a databaseId', async () => {
    const p = await create('blog', { Title: 'GQL edit', items: [{ Class: MD, Data: 'one' }, { Class: MD, Data: 'two' }] });
    const [one, two] = await rows(p.ID);
    const globalId = (await q('query($id: ID) { blogPost(id: $id) { id } }', { id: String(p.ID) })).data.blogPost.id;
    const media = await w.app.db.media.create({ data: { MIMEType: 'image/jpeg', StorageKey: `gql-items-${Date.now()}`, Size: 1 } });
    const r = await q(SET, {
      c: globalId,
      items: [
        { databaseId: two!.ID, text: 'two, first', status: 'Hidden' },
        { class: 'Media', data: JSON.stringify({ MediaID: media.ID, Caption: 'Photo' }) },
      ],
    });
    expect(r.errors).toBeUndefined();
    expect(r.data.setContentItems.map((i: any) => [i.class, i.status, i.order, i.data])).toEqual([
      [MD, 'Hidden', 1, '"two, first"'],
      ['Emergence\\CMS\\Item\\Media', 'Published', 2, JSON.stringify({ MediaID: media.ID })],
    ]);
    expect(r.data.setContentItems[1].html).toContain(`/thumbnail/${media.ID}/400x400`);
    expect((await rows(p.ID)).find((i) => i.ID === one!.ID)!.Status).toBe('Deleted');
    // By databaseId, on a page too.
    const page = await create('pages', { Title: 'GQL page edit' });
    const pr = await q(SET, { c: String(page.ID), items: [{ class: 'Markdown', text: '*hi*' }] });
    expect(pr.data.setContentItems.map((i: any) => i.html)).toEqual([expect.stringContaining('<em>hi</em>')]);
  });

  it("refuses another post's item, bad data, a missing post and a caller who may not write, changing nothing", async () => {
    const a = await create('blog', { Title: 'GQL A', items: [{ Class: MD, Data: 'A' }] });
    const b = await create('blog', { Title: 'GQL B', items: [{ Class: MD, Data: 'B' }] });
    const [itemA] = await rows(a.ID);
    const [itemB] = await rows(b.ID);
    const refusals: Array<[Record<string, unknown>, string | null, string, string]> = [
      [{ c: String(b.ID), items: [{ databaseId: itemB!.ID, text: 'x' }, { databaseId: itemA!.ID, text: 'stolen' }] }, staff, 'BAD_USER_INPUT', `Content item ${itemA!.ID} is not an item of this blog post`],
      [{ c: String(b.ID), items: [{ class: 'Markdown', data: '{"no":' }] }, staff, 'BAD_USER_INPUT', 'items[0] data is not valid JSON'],
      [{ c: String(b.ID), items: [{ class: 'Markdown', data: '{"a":1}' }] }, staff, 'BAD_USER_INPUT', 'items[0] Data must be text'],
      [{ c: String(b.ID), items: [{ class: 'Nope', text: 'x' }] }, staff, 'BAD_USER_INPUT', 'items[0] Class must be one of Text, Markdown, RichText, Embed, Media'],
      [{ c: String(b.ID), items: [] }, user, 'FORBIDDEN', 'You do not have authorization to access this resource'],
      [{ c: String(b.ID), items: [] }, null, 'UNAUTHENTICATED', 'Login required'],
      [{ c: '999999', items: [] }, staff, 'NOT_FOUND', 'Record not found'],
    ];
    for (const [variables, token, code, message] of refusals) {
      const r = await q(SET, variables, token);
      expect([r.errors?.[0]?.extensions?.code, r.errors?.[0]?.message]).toEqual([code, message]);
    }
    expect(await rows(a.ID)).toEqual([itemA]);
    expect(await rows(b.ID)).toEqual([itemB]);
  });
});

describe('batching', () => {
  it('loads a page of 30 posts with their items and bodies in as many statements as a page of 3', async () => {
    const tag = `batch${Date.now()}`;
    for (let i = 0; i < 30; i++) await create('blog', { Title: `${tag} ${i}`, items: [{ Class: MD, Data: `post ${i}` }, { Data: 'text' }] });
    const query = `query($n: Int!, $q: String) { blogPosts(first: $n, q: $q) { nodes { title items { html } body } } }`;
    const counted = async (n: number) => {
      const sent: string[] = [];
      const stop = w.app.onStatement((sql) => sent.push(sql));
      try {
        const r = await q(query, { n, q: tag });
        expect(r.errors).toBeUndefined();
        return { nodes: r.data.blogPosts.nodes, sent };
      } finally {
        stop();
      }
    };
    const small = await counted(3);
    const large = await counted(30);
    expect(large.nodes).toHaveLength(30);
    expect(large.nodes.every((n: any) => n.items.length === 2 && n.body === n.items.map((i: any) => i.html).join(''))).toBe(true);
    expect(large.sent.length, large.sent.join('\n')).toBe(small.sent.length);
    expect(large.sent.filter((sql) => /ContentItem/.test(sql))).toHaveLength(1);
  });
});
