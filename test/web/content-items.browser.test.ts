// A blog post's body in Chromium: the record page shows the items' HTML as the server rendered
// and sanitized it (an onerror attribute sent in a RichText item never runs), and the edit page's
// body editor adds, moves, removes and saves Markdown items; the API then says what was stored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { newPerson, ownedProject, signInAt, startAppSite, type AppSite } from './app-site.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

let site: AppSite;
let page: Page;
let project: { id: string };
let postId: number;

beforeAll(async () => {
  if (!chromiumFound) return;
  site = await startAppSite();
  const staff = await newPerson(site.w, 'writer', 'Staff');
  project = await ownedProject(site.w, staff, 'Newsroom');
  const { token } = await site.w.campusToken('Staff');
  const created = await site.w.campus('POST', '/blog/create', {
    token,
    json: true,
    fields: {
      Title: 'Field trip',
      items: [
        { Class: 'Markdown', Data: '# Welcome\n\nHello **world**' },
        { Class: 'RichText', Data: '<p>Rich <img src="x" onerror="window.pwned = 1"></p>' },
      ],
    },
  });
  expect(created.json.success, created.text).toBe(true);
  postId = created.json.data.ID;
  page = await site.browser.page();
  await signInAt(site, page, staff, `/?project=${project.id}#/campus`);
}, 60_000);
afterAll(async () => {
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
});

suite('a post body', () => {
  it('shows the rendered items, sanitized, and edits Markdown items on the edit page', async () => {
    await page.goto(`${site.site}/?project=${project.id}#/campus/blog/${postId}`);
    await page.getByRole('heading', { level: 1, name: 'Field trip' }).waitFor();
    const body = page.locator('.content-body');
    await body.getByRole('heading', { name: 'Welcome' }).waitFor();
    expect(await body.locator('strong').textContent()).toBe('world');
    expect(await body.locator('[onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    await page.goto(`${site.site}/?project=${project.id}#/campus/blog/${postId}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit Field trip' }).waitFor();
    const editor = page.getByRole('region', { name: 'Body' });
    await editor.getByLabel('Markdown item 1').waitFor();
    await editor.getByRole('button', { name: 'Add a Markdown item' }).click();
    await editor.getByLabel('Markdown item 3').fill('Second *part*');
    await editor.getByRole('button', { name: 'Move item 3 up' }).click();
    // The RichText item is now third: removed, it is marked Deleted on save.
    await editor.getByRole('button', { name: 'Remove item 3' }).click();
    await editor.getByLabel('Markdown item 1').fill('# Welcome back');
    await editor.getByRole('button', { name: 'Save body' }).click();
    await editor.getByRole('status').getByText('The body was saved.').waitFor();

    const stored = await site.w.app.db.contentItem.findMany({ where: { ContentID: postId }, orderBy: { ID: 'asc' } });
    expect(stored.map((i) => [i.Class.replace(/^.*\\/, ''), i.Status, i.Order, JSON.parse(i.Data)])).toEqual([
      ['Markdown', 'Published', 1, '# Welcome back'],
      ['RichText', 'Deleted', 2, '<p>Rich <img src="x" onerror="window.pwned = 1"></p>'],
      ['Markdown', 'Published', 2, 'Second *part*'],
    ]);
    await page.goto(`${site.site}/?project=${project.id}#/campus/blog/${postId}`);
    await body.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await body.locator('em').textContent()).toBe('part');
  });
});
