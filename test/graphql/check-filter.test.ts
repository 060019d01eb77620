// CheckFilter.slug: the checks REST's `GET /api/v3/checks/?slug=` lists, over GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../helpers/gql.ts';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();
beforeAll(async () => {
  const create = async (body: Record<string, unknown>, key = w.alice.api_key) => {
    const r = await w.api('POST', '/api/v3/checks/', { key, body });
    expect(r.status).toBe(201);
  };
  await create({ name: 'Backups', slug: 'backups', tags: 'prod' });
  await create({ name: 'Backups (staging)', slug: 'backups', tags: 'staging' });
  await create({ name: 'Backups old', slug: 'backups-old', tags: 'prod' });
  await create({ name: 'No slug' });
  await create({ name: 'Bob backups', slug: 'backups' }, w.bob.api_key);
});

const LIST = `query($filter: CheckFilter, $first: Int, $after: String) {
  project { checks(filter: $filter, first: $first, after: $after) { totalCount hasNextPage endCursor nodes { name slug } } } }`;
const names = async (filter: Record<string, unknown>, key = w.alice.api_key) => {
  const r = await gql(w, LIST, { filter }, key);
  expect(r.errors).toBeUndefined();
  return r.data.project.checks.nodes.map((n: { name: string }) => n.name);
};
const restNames = async (query: string, key = w.alice.api_key) => {
  const r = await w.api('GET', `/api/v3/checks/${query}`, { key });
  expect(r.status).toBe(200);
  return r.json.checks.map((c: { name: string }) => c.name);
};

describe('CheckFilter.slug', () => {
  it('lists the checks whose slug is exactly the one given, as REST ?slug= does', async () => {
    expect(await names({ slug: 'backups' })).toEqual(['Backups', 'Backups (staging)']);
    expect(await names({ slug: 'backups' })).toEqual(await restNames('?slug=backups'));
    // Exact, not a prefix; another project's check of that slug is not listed.
    expect(await names({ slug: 'backups-old' })).toEqual(['Backups old']);
    expect(await names({ slug: 'backup' })).toEqual([]);
    expect(await restNames('?slug=backup')).toEqual([]);
  });

  it('treats an empty slug as no filter, as REST does with ?slug=', async () => {
    const all = ['Backups', 'Backups (staging)', 'Backups old', 'No slug'];
    expect(await names({ slug: '' })).toEqual(all);
    expect(await restNames('?slug=')).toEqual(all);
    expect(await names({ slug: null })).toEqual(all);
  });

  it('combines with tags and status, counts and pages within the filter', async () => {
    expect(await names({ slug: 'backups', tags: ['prod'] })).toEqual(['Backups']);
    expect(await names({ slug: 'backups', tags: ['prod'] })).toEqual(await restNames('?slug=backups&tag=prod'));
    expect(await names({ slug: 'backups', status: ['NEW'] })).toEqual(['Backups', 'Backups (staging)']);
    const first = await gql(w, LIST, { filter: { slug: 'backups' }, first: 1 });
    expect(first.data.project.checks).toMatchObject({ totalCount: 2, hasNextPage: true, nodes: [{ name: 'Backups', slug: 'backups' }] });
    const next = await gql(w, LIST, { filter: { slug: 'backups' }, first: 1, after: first.data.project.checks.endCursor });
    expect(next.data.project.checks).toMatchObject({ totalCount: 2, hasNextPage: false, nodes: [{ name: 'Backups (staging)' }] });
  });

  it('works for read-only keys, as REST lists checks for them', async () => {
    expect(await names({ slug: 'backups' }, w.alice.api_key_readonly)).toEqual(['Backups', 'Backups (staging)']);
    expect(await restNames('?slug=backups', w.alice.api_key_readonly)).toEqual(['Backups', 'Backups (staging)']);
  });
});
