// The project settings screen (#/project) and the API keys screen (#/keys) in Chromium, as the
// owner and as a read-only member: renaming the project (the switcher and the API show the new
// name), publishing the status page and opening it, repeat alerts and the ping log limit (the
// API's state after each change, the server's refusal shown), the badges with an SVG preview
// that loads, and an API key shown once, used, and revoked; then what a read-only and a regular
// member may change (the server's rules: the page shows only the controls it would accept).
//
// One server and one signed-in page for the whole file, the tests in order (each builds on the
// last: the renamed project is the one the status page and the read-only member see).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { revokeKey, rotateKey } from '../../src/monitoring/projects/service.ts';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { expectClean, joinProject, newPerson, ownedProject, screenshots, signInAt, startAppSite, type AppSite } from './app-site.ts';
import type { Account } from '../../src/identity/accounts.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

let site: AppSite;
let page: Page;
let owner: Account;
let reader: Account;
let regular: Account;
let project: { id: string; name: string };

beforeAll(async () => {
  if (!chromiumFound) return;
  site = await startAppSite();
  const { w } = site;
  owner = await newPerson(w, 'owner');
  reader = await newPerson(w, 'reader');
  regular = await newPerson(w, 'regular');
  project = await ownedProject(w, owner, 'Settings demo');
  await joinProject(w, project.id, reader, 'readonly');
  await joinProject(w, project.id, regular, 'regular');
  // Two checks, one tagged: the status page lists only it, and the tag has badges of its own.
  const key = await rotateKey(w.app.db, project.id, 'api_key');
  for (const body of [{ name: 'Nightly backup', tags: 'prod' }, { name: 'Scratch job', tags: '' }]) {
    expect((await w.api('POST', '/api/v3/checks/', { key, body: { ...body, timeout: 3600 } })).status).toBe(201);
  }
  await revokeKey(w.app.db, project.id, 'api_key');
  await site.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.site });
  page = await site.browser.page();
  await signInAt(site, page, owner, `/?project=${project.id}#/project`);
}, 60_000);
afterAll(async () => {
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  if (ctx.task.result?.state !== 'fail') expectClean(site);
});

/** The project as the signed-in person's GraphQL API answers it (the page's own cookie). */
async function apiProject(p: Page): Promise<{ name: string; nagPeriod: number | null; pingLogLimit: number; statusPage: { slug: string; tags: string[] } | null }> {
  const body = await p.evaluate(async (id) => {
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'query($id: ID!) { project(id: $id) { name nagPeriod pingLogLimit statusPage { slug tags } } }', variables: { id } }),
    });
    return res.json();
  }, project.id);
  expect(body.errors).toBeUndefined();
  return body.data.project;
}

const openSettings = async (p: Page) => {
  await p.goto(`${site.site}/?project=${project.id}#/project`);
  await p.getByRole('heading', { name: 'Project settings' }).waitFor();
  await p.getByRole('heading', { name: 'Badges' }).waitFor();
};

suite('project settings', () => {
  it('renames the project: the server refuses an empty name, then the switcher and the API show the new one', async () => {
    await openSettings(page);
    const name = page.getByRole('textbox', { name: 'Project name' });
    await name.fill('   ');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('name must not be empty');

    await name.fill('Renamed demo');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('status').filter({ hasText: 'The project was renamed.' }).waitFor();
    await expect.poll(() => page.locator('#project-switcher option:checked').innerText()).toBe('Renamed demo');
    expect((await apiProject(page)).name).toBe('Renamed demo');
    await screenshots(site, page, 'project-settings');
  }, 30_000);

  it('publishes the status page (a bad slug refused), limited to a tag, and opens it', async () => {
    const form = page.getByRole('form', { name: 'Status page' });
    await form.getByText('Not published.').waitFor();
    await page.getByLabel('Address: /status/…').fill('Not A Slug');
    await page.getByRole('button', { name: 'Publish status page' }).click();
    await form.getByRole('alert').filter({ hasText: 'slug must be 1 to 64 lower-case letters' }).waitFor();

    await page.getByLabel('Address: /status/…').fill('demo-status');
    await page.getByLabel('Only checks tagged').fill('prod');
    await page.getByRole('button', { name: 'Publish status page' }).click();
    await form.getByRole('status').filter({ hasText: 'The status page is published.' }).waitFor();
    expect((await apiProject(page)).statusPage).toEqual({ slug: 'demo-status', tags: ['prod'] });
    await expect.poll(() => page.getByLabel('Status page address', { exact: true }).inputValue()).toBe(`${site.site}/status/demo-status`);

    await page.getByRole('link', { name: `${site.site}/status/demo-status` }).click();
    await page.waitForURL(`${site.site}/status/demo-status`);
    await page.getByRole('heading', { name: 'Renamed demo' }).waitFor();
    await page.getByText('Nightly backup').waitFor();
    expect(await page.getByText('Scratch job').count()).toBe(0);
  }, 30_000);

  it('sets repeat alerts (an out-of-range period refused) and the API answers them', async () => {
    await openSettings(page);
    const form = page.getByRole('form', { name: 'Repeat alerts' });
    await page.getByRole('checkbox', { name: 'Repeat alerts while a check is down' }).check();
    await page.getByRole('spinbutton', { name: 'Every' }).fill('10');
    await page.getByRole('combobox', { name: 'Unit' }).selectOption('seconds');
    await page.getByRole('button', { name: 'Save repeat alerts' }).click();
    await form.getByRole('alert').filter({ hasText: 'nag period must be between 60 and 2592000 seconds' }).waitFor();
    expect((await apiProject(page)).nagPeriod).toBeNull();

    await page.getByRole('spinbutton', { name: 'Every' }).fill('2');
    await page.getByRole('combobox', { name: 'Unit' }).selectOption('hours');
    await page.getByRole('button', { name: 'Save repeat alerts' }).click();
    await form.getByRole('status').filter({ hasText: 'Repeat alerts every 2 h.' }).waitFor();
    expect((await apiProject(page)).nagPeriod).toBe(7200);
  }, 30_000);

  it('sets the ping log limit (an out-of-range one refused) and the API answers it', async () => {
    const form = page.getByRole('form', { name: 'Ping log' });
    const limit = page.getByRole('spinbutton', { name: 'Pings listed per check' });
    expect(await limit.inputValue()).toBe('100');
    await limit.fill('5000');
    await page.getByRole('button', { name: 'Save ping log limit' }).click();
    await form.getByRole('alert').filter({ hasText: 'ping log limit must be an integer from 1 to 1000' }).waitFor();
    expect((await apiProject(page)).pingLogLimit).toBe(100);

    await limit.fill('250');
    await page.getByRole('button', { name: 'Save ping log limit' }).click();
    await form.getByRole('status').filter({ hasText: 'The ping log limit was saved.' }).waitFor();
    expect((await apiProject(page)).pingLogLimit).toBe(250);
    await form.locator('[data-setting="ping-log-limit"]').filter({ hasText: '250' }).waitFor();
  }, 30_000);

  it('shows every badge form for every check and per tag, with a copy button and an SVG preview that loads', async () => {
    await openSettings(page);
    // Healthchecks' form: the project's badge key (public, stored in clear), then the signature.
    const { badgeKey } = await site.w.app.db.project.findUniqueOrThrow({ where: { id: project.id }, select: { badgeKey: true } });
    for (const tag of ['every check', 'tag prod']) {
      // The preview drew (an image that failed has no size), and its address answers an SVG.
      const badge = page.getByRole('img', { name: `Badge for ${tag}` });
      await expect.poll(() => badge.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const answer = await fetch(await badge.evaluate((img: HTMLImageElement) => img.currentSrc));
      expect([answer.status, answer.headers.get('content-type')]).toEqual([200, expect.stringContaining('image/svg+xml')]);
      for (const [format, ending] of [['SVG', '.svg'], ['JSON', '.json'], ['Shields.io', '.shields']] as const) {
        const url = await page.getByRole('textbox', { name: `${format} badge URL for ${tag}` }).inputValue();
        expect(url.startsWith(`${site.site}/badge/${badgeKey}/`) && url.endsWith(ending)).toBe(true);
      }
    }
    const json = await page.getByRole('textbox', { name: 'JSON badge URL for tag prod' }).inputValue();
    expect(await (await fetch(json)).json()).toMatchObject({ status: expect.any(String) });

    // Three states: other addresses, and the preview (a request the page makes now) follows.
    const three = page.waitForResponse((r) => /\/badge\/[^/]+\/[^/]{8}\/prod\.svg$/.test(new URL(r.url()).pathname));
    await page.getByRole('radio', { name: 'Three: up, late, down' }).check();
    expect((await three).status()).toBe(200);

    await page.getByRole('button', { name: 'Copy SVG badge URL for every check' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.getByRole('textbox', { name: 'SVG badge URL for every check' }).inputValue());

    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(site, page, 'project-settings-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  }, 30_000);

  it('creates an API key shown once, which the API takes until it is revoked', async () => {
    await page.goto(`${site.site}/?project=${project.id}#/keys`);
    await page.getByRole('button', { name: 'Create the API key (read-write)' }).click();
    const shown = page.getByRole('textbox', { name: 'New API key (read-write)' });
    const key = await shown.inputValue();
    expect(key.length).toBeGreaterThan(20);
    expect((await site.w.api('GET', '/api/v3/checks/', { key })).status).toBe(200);
    await screenshots(site, page, 'project-keys-created');

    // Shown once: read again, the screen knows only that it exists.
    await page.reload();
    await page.locator('tr[data-key="READ_WRITE"]').getByText('exists').waitFor();
    expect(await shown.count()).toBe(0);

    await page.getByRole('button', { name: 'Revoke the API key (read-write)' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'was revoked' }).waitFor();
    expect((await site.w.api('GET', '/api/v3/checks/', { key })).status).toBe(401);
  }, 30_000);

  it('shows a read-only member the values and no control that changes them', async () => {
    await page.close();
    await site.browser.context.clearCookies();
    const p = await site.browser.page();
    await signInAt(site, p, reader, `/?project=${project.id}#/project`);
    await p.getByRole('heading', { name: 'Badges' }).waitFor();
    await expect.poll(() => p.locator('[data-setting="name"]').innerText()).toBe('Renamed demo');
    expect(await p.locator('[data-setting="status-page"]').innerText()).toBe(`${site.site}/status/demo-status`);
    expect(await p.locator('[data-setting="nag-period"]').innerText()).toBe('Every 2 h');
    expect(await p.locator('[data-setting="ping-log-limit"]').innerText()).toBe('250');
    // Nothing to type into or submit but the badge addresses (read-only fields) and their copy buttons.
    expect(await p.locator('main form').count()).toBe(0);
    const buttons = await p.locator('main button').allInnerTexts();
    expect(new Set(buttons)).toEqual(new Set(['Copy']));
    expect(await p.locator('main input:not([readonly]):not([type="radio"])').count()).toBe(0);
    expect(await p.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await screenshots(site, p, 'project-settings-read-only');
    await p.close();
  }, 30_000);

  it('shows a regular member the status page and repeat alerts to change, the name and ping log limit to read', async () => {
    await site.browser.context.clearCookies();
    const p = await site.browser.page();
    await signInAt(site, p, regular, `/?project=${project.id}#/project`);
    await p.getByRole('heading', { name: 'Badges' }).waitFor();
    expect(await p.locator('[data-setting="name"]').innerText()).toBe('Renamed demo');
    expect(await p.getByRole('textbox', { name: 'Project name' }).count()).toBe(0);
    expect(await p.getByRole('spinbutton', { name: 'Pings listed per check' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Save status page' }).waitFor();
    await p.getByRole('button', { name: 'Save repeat alerts' }).waitFor();
    await p.close();
  }, 30_000);
});
