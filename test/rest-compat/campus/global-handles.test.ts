// The content kinds' global handle (the spec's "global handle" relationship): blog posts and pages
// share one handle space, as Slate's one `content` table does. A generated handle steps around a
// handle the other kind holds, a given one it holds is refused with Slate's message and nothing
// stored, and each kind's path finds only its own records by handle.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorld, type World } from '../../helpers/world.ts';

let w: World;
let token: string;
beforeAll(async () => {
  w = await createWorld();
  token = (await w.campusToken('Staff')).token;
});
afterAll(() => w?.stop());

const headers = () => ({ Authorization: `Token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' });
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${w.url}${path}`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
};
const get = async (path: string) => {
  const res = await fetch(`${w.url}${path}`, { headers: headers() });
  return { status: res.status, json: (await res.json()) as any };
};

it('keeps one handle space across blog posts and pages', async () => {
  const blog = await post('/blog/create', { Title: 'Open day' });
  expect(blog.json.data).toMatchObject({ Class: 'Emergence\\CMS\\BlogPost', Handle: 'open_day' });
  // The page's generated handle steps around the post's.
  const page = await post('/pages/create', { Title: 'Open day' });
  expect(page.json.data).toMatchObject({ Class: 'Emergence\\CMS\\Page', Handle: 'open_day-2' });

  // A handle the other kind holds is refused, and nothing is stored.
  const before = await w.app.db.content.count();
  const taken = await post('/pages/create', { Title: 'Another', Handle: 'open_day' });
  expect(taken.json).toMatchObject({ success: false, validationErrors: { Handle: 'Handle already registered' } });
  const renamed = await post(`/pages/${page.json.data.ID}/edit`, { Handle: 'open_day' });
  expect(renamed.json).toMatchObject({ success: false, validationErrors: { Handle: 'Handle already registered' } });
  expect(await w.app.db.content.count()).toBe(before);

  // Each path finds its own kind by handle, and only its own.
  expect((await get('/blog/open_day')).json.data.ID).toBe(blog.json.data.ID);
  expect((await get('/pages/open_day-2')).json.data.ID).toBe(page.json.data.ID);
  expect((await get('/pages/open_day')).status).toBe(404);
  expect((await get('/blog/open_day-2')).status).toBe(404);
});
