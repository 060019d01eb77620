// The dashboard, a public status page and GraphiQL in a real browser (Debian's Chromium via
// playwright-core) against a real server: live updates without reloading, the key kept out
// of URLs, the SSE fallback, no console error and no request leaving this machine.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createWorld, type World } from '../helpers/world.ts';
import { gql } from '../helpers/gql.ts';
import { chromiumFound, isLocal, launchBrowser, type Browser, reportFailedPages } from './browser.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

const LIVE = 1000;
let w: World;
let browser: Browser;
const checks: Record<string, { uuid: string; ping: string }> = {};

beforeAll(async () => {
  if (!chromiumFound) return;
  [w, browser] = await Promise.all([createWorld(), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await w?.stop();
});
// A failed test leaves its page open: say what it showed (CI keeps the screenshot too).
afterEach((ctx) => reportFailedPages(browser, ctx));

async function newCheck(name: string, tags = '') {
  const created = await w.api('POST', '/api/v3/checks/', { body: { name, tags, timeout: 3600 } });
  expect(created.status).toBe(201);
  checks[name] = { uuid: created.json.uuid, ping: new URL(created.json.ping_url).pathname };
}
/**
 * Waits until the page is live. WebSocket is the first choice, but on a loaded machine its
 * connect may outlast the page's 4 s wait and the page rightly falls back to Server-Sent Events
 * (tested on its own below): these tests are about what arrives, not which transport carries it.
 */
const live = (page: Page) => page.locator('[data-live="websocket"], [data-live="sse"]').first().waitFor();
const ping = async (name: string, kind = '') => expect((await w.ping(`${checks[name]!.ping}${kind}`)).status).toBe(200);

/** Pings `name` with `kind` and waits for `target` to show `status`; resolves with the milliseconds it took. */
async function timeToStatus(target: Locator, name: string, kind: string, status: string) {
  const started = performance.now();
  await ping(name, kind);
  await target.locator(`[data-status="${status}"]`).first().waitFor({ timeout: LIVE * 5 });
  return performance.now() - started;
}

/** Opens / and its secondary way in: the API key form of a wall display. */
async function openKeyForm(page: Page) {
  await page.goto(`${w.url}/`);
  await page.getByRole('button', { name: 'Use an API key (read-only display)' }).click();
}

async function signIn(page: Page, key: string) {
  await openKeyForm(page);
  await page.fill('#key', key);
  await page.click('button[type=submit]');
  // Signed in: the key is stored once the session opened, and only the signed-in view has this
  // button (the sign-in form is a `.card` too, so waiting for one raced the sign-in itself).
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Nothing went wrong in any page so far, and nothing left this machine. */
function expectClean() {
  expect(browser.errors.splice(0)).toEqual([]);
  expect(browser.requests.splice(0).filter((u) => !isLocal(u))).toEqual([]);
}

suite('dashboard', () => {
  it('signs in with a key kept in sessionStorage and shows a check down within 1 s of /fail, without reloading', async () => {
    await newCheck('backup', 'prod db');
    await ping('backup');
    const page = await browser.page();
    await signIn(page, w.alice.api_key);
    const row = page.locator('tr[data-check="backup"]');
    await row.locator('[data-status="UP"]').waitFor();
    expect(await row.textContent()).toContain('proddb');
    await live(page);
    // A reload would lose this mark: the change must arrive in the same document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    expect(await timeToStatus(row, 'backup', '/fail', 'DOWN')).toBeLessThan(LIVE);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.evaluate(() => [sessionStorage.getItem('gateway.apiKey'), localStorage.length, document.cookie])).toEqual([w.alice.api_key, 0, '']);
    expect(browser.requests.filter((u) => u.includes(w.alice.api_key))).toEqual([]);
    await browser.screenshot(page, 'dashboard-down');
    expectClean();
    await page.close();
  }, 60_000);

  it("opens a check's page with its flips and pings, pushed live", async () => {
    const page = await browser.page();
    // A new tab has a sessionStorage of its own: it signs in again.
    await openKeyForm(page);
    await page.fill('#key', w.alice.api_key);
    await page.click('button[type=submit]');
    await page.click('tr[data-check="backup"] a');
    const article = page.locator('article[data-check="backup"]');
    await article.locator('tr[data-ping]').nth(1).waitFor();
    expect(page.url()).toMatch(/#\/checks\/[0-9a-f]{40}$/);
    expect(await article.locator('tr[data-flip]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-flip')))).toEqual(['down', 'up']);

    expect(await timeToStatus(article.locator('h1'), 'backup', '', 'UP')).toBeLessThan(LIVE);
    await article.locator('tr[data-flip]').nth(2).waitFor({ timeout: LIVE });
    await article.locator('tr[data-ping]').nth(2).waitFor({ timeout: LIVE });
    expect(await article.locator('tr[data-flip]').first().getAttribute('data-flip')).toBe('up');
    expect(await article.locator('tr[data-ping]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-ping')))).toEqual(['success', 'fail', 'success']);
    await browser.screenshot(page, 'check-page');
    expectClean();
    await page.close();
  }, 60_000);

  it('works with a read-only key: no UUIDs, no ping log', async () => {
    const page = await browser.page();
    await signIn(page, w.alice.api_key_readonly);
    await page.click('tr[data-check="backup"] a');
    await page.getByText('The ping log is shown to read-write keys only.').waitFor();
    expect(await page.content()).not.toContain(checks.backup!.uuid);
    await browser.screenshot(page, 'check-page-read-only');
    expectClean();
    await page.close();
  }, 60_000);

  it('stays signed in across a reload (even when the server fails to answer at first), signs out, and refuses a wrong key', async () => {
    const page = await browser.page();
    await signIn(page, w.alice.api_key);
    // As a proxy would answer while the server restarts: the key is kept and tried again.
    let failed = 0;
    await page.route(`${w.url}/graphql`, (route) => (failed++ < 2 ? route.fulfill({ status: 502, body: 'Bad Gateway' }) : route.continue()));
    await page.reload();
    await page.locator('tr[data-check="backup"]').waitFor();
    expect(failed).toBeGreaterThan(2);
    await page.unroute(`${w.url}/graphql`);
    browser.errors.splice(0, browser.errors.length, ...browser.errors.filter((e) => !/status of 502/.test(e)));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('#key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.fill('#key', 'hcw_not_a_key_at_all_00000000000');
    await page.click('button[type=submit]');
    await page.getByText('That key was not accepted.').waitFor();
    expectClean();
    await page.close();
  }, 60_000);

  it('falls back to Server-Sent Events when the WebSocket cannot open, and stays live', async () => {
    await newCheck('nightly');
    await ping('nightly');
    const page = await browser.page();
    // As a proxy that refuses the upgrade would.
    await page.routeWebSocket(/\/graphql$/, (ws) => ws.close());
    await signIn(page, w.alice.api_key);
    await page.locator('[data-live="sse"]').waitFor();
    expect(await timeToStatus(page.locator('tr[data-check="nightly"]'), 'nightly', '/fail', 'DOWN')).toBeLessThan(LIVE);
    await browser.screenshot(page, 'dashboard-sse');
    expectClean();
    await page.close();
  }, 60_000);

  it('shows the campus records linked to a check, and a link made meanwhile without reloading', async () => {
    const staff = (await w.campusToken('Staff')).token;
    const course = (await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Mathematics', Code: 'MATH' } })).json.data;
    await w.campus('POST', '/sections/create', { token: staff, fields: { CourseID: course.ID, Title: 'Algebra I' } });
    // A Healthchecks script links its check by tag; the section's code is MATH-001.
    await newCheck('roster sync', 'nightly campus:section/MATH-001');
    const page = await browser.page();
    await signIn(page, w.alice.api_key);
    const row = page.locator('tr[data-check="roster sync"]');
    await row.locator('.record', { hasText: 'Section: Algebra I' }).waitFor();
    await live(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    const linked = await gql(w, 'mutation($c: ID!) { linkCheckRecord(check: $c, kind: Course, handle: "MATH") { tagsString } }', { c: checks['roster sync']!.uuid });
    expect(linked.data.linkCheckRecord.tagsString).toBe('nightly campus:section/MATH-001 campus:course/MATH');
    await row.locator('.record', { hasText: 'Course: Mathematics' }).waitFor({ timeout: LIVE * 5 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await row.locator('.record').allTextContents()).toEqual(['Section: Algebra I', 'Course: Mathematics']);
    await browser.screenshot(page, 'dashboard-records');

    await page.click('tr[data-check="roster sync"] a');
    const facts = page.locator('article[data-check="roster sync"] dd.records');
    await facts.locator('.record').nth(1).waitFor();
    expect(await facts.locator('.record').allTextContents()).toEqual(['Section: Algebra I', 'Course: Mathematics']);
    expectClean();
    await page.close();
  }, 60_000);
});

suite('status page', () => {
  it('shows the published checks without a key, and a flip arrives live', async () => {
    const set = await gql(w, 'mutation { setStatusPage(slug: "alice", tags: ["public"]) { statusPage { url } } }');
    expect(set.data.setStatusPage.statusPage.url).toBe(`${w.url}/status/alice`);
    await newCheck('website', 'public');
    await newCheck('payroll', 'internal');
    await ping('website');
    const page = await browser.page();
    const response = await page.goto(`${w.url}/status/alice`);
    expect(response?.status()).toBe(200);
    const row = page.locator('tr[data-check="website"]');
    await row.locator('[data-status="UP"]').waitFor();
    await live(page);
    expect(await page.locator('tr[data-check]').count()).toBe(1);
    expect(await page.title()).toBe('Alice status');

    expect(await timeToStatus(row, 'website', '/fail', 'DOWN')).toBeLessThan(LIVE);
    expect(await page.locator('[data-summary]').getAttribute('data-summary')).toBe('down');
    const html = await page.content();
    for (const secret of [w.alice.id, w.alice.api_key, w.alice.api_key_readonly, checks.website!.uuid, 'payroll', '/ping/']) expect(html).not.toContain(secret);
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0);
    await browser.screenshot(page, 'status-page');
    expectClean();
    await page.close();
  }, 60_000);

  it('says so for a slug that is not published', async () => {
    const page = await browser.page();
    const response = await page.goto(`${w.url}/status/nobody`);
    expect(response?.status()).toBe(404);
    await page.getByText('Status page not found').waitFor();
    await browser.screenshot(page, 'status-page-not-found');
    // The 404 of the document itself is the one error Chromium reports here.
    browser.errors.splice(0, browser.errors.length, ...browser.errors.filter((e) => !/status of 404/.test(e)));
    expectClean();
    await page.close();
  }, 60_000);
});

suite('GraphiQL', () => {
  /** Replaces an editor's text as a user would (Monaco closes brackets as they are typed). */
  async function typeInto(page: Page, editor: Locator, text: string) {
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
    await page.keyboard.press('Shift+Control+End');
    await page.keyboard.press('Delete');
  }
  /** The result pane's text, its editor's non-breaking spaces as plain ones. */
  const responseText = async (page: Page) => ((await page.locator('.graphiql-response').textContent()) ?? '').replace(/\s+/g, ' ');

  it('runs a query and a subscription with the key in its Headers tab', async () => {
    await newCheck('graphiql-job');
    await ping('graphiql-job');
    const page = await browser.page();
    const response = await page.goto(`${w.url}/graphql`);
    expect(response?.headers()['content-encoding']).toMatch(/^(br|gzip)$/);
    const query = page.locator('.graphiql-query-editor .monaco-editor');
    await query.waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Headers' }).click();
    await typeInto(page, page.locator('.graphiql-editor-tool .monaco-editor').last(), JSON.stringify({ 'X-Api-Key': w.alice.api_key }));

    await typeInto(page, query, '{ project { name checks(filter: { slug: "" }) { nodes { name status } } } }');
    await page.getByRole('button', { name: /^Execute/ }).click();
    await page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('"graphiql-job"'));
    expect(await responseText(page)).toContain('"name": "Alice"');
    await browser.screenshot(page, 'graphiql-query');

    const subscribed = new Promise<void>((resolve) =>
      page.on('websocket', (ws) => ws.on('framesent', (f) => String(f.payload).includes('"subscribe"') && resolve())),
    );
    await typeInto(page, query, 'subscription { flips { newStatus check { name } } }');
    await page.getByRole('button', { name: /^Execute/ }).click();
    await subscribed;
    // The subscribe frame is sent, but the server may not have started the subscription yet (it
    // checks the key first): a flip before that is rightly not sent. So flip until one arrives.
    const downShown = () => page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('"down"'), undefined, { timeout: LIVE });
    let shown = false;
    for (let attempt = 0; attempt < 5 && !shown; attempt++) {
      if (attempt > 0) await ping('graphiql-job');
      await ping('graphiql-job', '/fail');
      shown = await downShown().then(() => true, () => false);
    }
    expect(shown).toBe(true);
    expect(await responseText(page)).toContain('"graphiql-job"');
    await browser.screenshot(page, 'graphiql-subscription');
    expectClean();
    await page.close();
  }, 90_000);
});
