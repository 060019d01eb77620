import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
let staff: string;
let user: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});

const create = (prefix: string, fields: Record<string, unknown>, token: string | null = staff) => w.campus('POST', `/${prefix}/create`, { token, fields });

describe('people contact points', () => {
  it('turns Email, Phone and Postal into primary contact points, shown to Staff only', async () => {
    const p = (await create('people', { FirstName: 'Cora', LastName: 'Contact', Email: 'cora@example.org', Phone: '+1 555 0100', Postal: '1 Main St' })).json.data;
    expect(p.PrimaryEmailID).toEqual(expect.any(Number));
    const full = await w.campus('GET', `/people/${p.ID}?include=PrimaryEmail,PrimaryPhone,PrimaryPostal`, { token: staff });
    expect(full.json.data.PrimaryEmail).toMatchObject({ Data: 'cora@example.org', Class: 'Emergence\\People\\ContactPoint\\Email' });
    // Stored as Slate's classes store them (Phone: the digits; Postal: its parts).
    expect(full.json.data.PrimaryPhone).toMatchObject({ Data: '15550100', Label: 'Phone' });
    expect(JSON.parse(full.json.data.PrimaryPostal.Data)).toMatchObject({ number: '1', street: 'Main St' });
    const anon = await w.campus('GET', `/people/${p.ID}?include=PrimaryEmail`);
    expect(anon.json.data).not.toHaveProperty('PrimaryEmail');
    expect(anon.json.data).not.toHaveProperty('PrimaryEmailID');
  });

  it('refuses a bad email and another person’s contact point', async () => {
    expect((await create('people', { FirstName: 'Bad', LastName: 'Mail', Email: 'nope' })).json.validationErrors).toEqual({ Email: 'Email is invalid.' });
    const owner = (await create('people', { FirstName: 'Own', LastName: 'Er', Email: 'own@example.org' })).json.data;
    const thief = await create('people', { FirstName: 'Thi', LastName: 'Ef', PrimaryEmailID: owner.PrimaryEmailID });
    expect(thief.json.validationErrors).toEqual({ PrimaryEmailID: 'PrimaryEmail already belongs to another person' });
    expect((await create('people', { FirstName: 'Gro', LastName: 'Up', groupIDs: 'no_such_group' })).json.validationErrors).toEqual({ groupIDs: 'Group no_such_group does not exist.' });
  });
});

describe('tags and comments', () => {
  it('tags blog posts and returns them with include=Tags', async () => {
    const post = (await create('blog', { Title: 'Tagged', tags: 'News, Sports' })).json.data;
    const got = await w.campus('GET', `/blog/${post.Handle}?include=Tags`);
    expect(got.json.data.Tags.map((t: any) => t.Title)).toEqual(['News', 'Sports']);
    await w.campus('POST', `/blog/${post.Handle}/edit`, { token: staff, fields: { tags: 'News' } });
    expect((await w.campus('GET', `/blog/${post.Handle}?include=Tags`)).json.data.Tags.map((t: any) => t.Title)).toEqual(['News']);
  });

  it('lets logged-in users comment, newest first; the comments go with the record', async () => {
    const post = (await create('blog', { Title: 'Discuss' })).json.data;
    expect((await w.campus('POST', `/blog/${post.Handle}/comment`, { fields: { Message: 'hi' } })).status).toBe(401);
    const empty = await w.campus('POST', `/blog/${post.Handle}/comment`, { token: user, fields: { Message: '  ' } });
    expect(empty.json).toMatchObject({ success: false, validationErrors: { Message: 'You must provide a message.' } });
    await w.campus('POST', `/blog/${post.Handle}/comment`, { token: user, fields: { Message: 'first' } });
    const second = await w.campus('POST', `/blog/${post.Handle}/comment`, { token: staff, fields: { Message: 'second' } });
    expect(second.json).toMatchObject({ success: true, data: { Message: 'second', ContextClass: 'Emergence\\CMS\\BlogPost', ContextID: post.ID } });
    const got = await w.campus('GET', `/blog/${post.Handle}?include=Comments`);
    expect(got.json.data.Comments.map((c: any) => c.Message)).toEqual(['second', 'first']);
    await w.campus('POST', `/blog/${post.Handle}/delete`, { token: staff });
    expect(await w.app.db.comment.count({ where: { ContextID: post.ID, ContextClass: 'Emergence\\CMS\\BlogPost' } })).toBe(0);
  });
});

describe('Slate details', () => {
  it('confirms before deleting on GET and deletes nothing', async () => {
    const loc = (await create('locations', { Title: 'Annex' })).json.data;
    const confirm = await w.campus('GET', `/locations/${loc.Handle}/delete`, { token: staff });
    expect(confirm.json).toEqual({ question: 'Are you sure you want to delete this location?', data: expect.objectContaining({ ID: loc.ID }) });
    expect((await w.campus('GET', `/locations/${loc.Handle}`)).status).toBe(200);
  });

  it("stores the seed's StarDate, accepting Slate's StartDate on input", async () => {
    const t = (await create('terms', { Title: 'Winter', StartDate: '2027-01-04', EndDate: '2027-03-31' })).json.data;
    expect(t).toMatchObject({ StarDate: '2027-01-04', EndDate: '2027-03-31' });
    expect(t).not.toHaveProperty('StartDate');
  });

  it('serves monitoring and campus to one request carrying both credentials', async () => {
    const res = await fetch(`${w.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key, Authorization: `Token ${staff}` },
      body: JSON.stringify({ query: '{ project { name } terms { totalCount } }' }),
    });
    expect(await res.json()).toEqual({ data: { project: { name: 'Alice' }, terms: { totalCount: expect.any(Number) } } });
  });
});
