// The checks screens in Chromium, as a project's owner uses them: adding a check with the form
// (the server's refusal shown), copying its ping URL and pinging it from outside (the ping and
// the new status arrive live), a ping's body, a cron schedule with the server's reading of it
// (and its error for a bad one), pause and resume, a channel toggled for one check in the list,
// the list's filters kept in the address across a reload and back, a campus record linked and
// unlinked, the check deleted once confirmed; then a read-only member, who sees no control that
// changes anything. Each change is checked against the API's answer, not only the page.
//
// One server and one signed-in page for the file; the tests run in order and build on each other.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { expectClean, joinProject, liveUp, newPerson, ownedProject, screenshots, signInAt, startAppSite, type AppSite } from './app-site.ts';
import { axeViolations } from './axe.ts';
import type { Account } from '../../src/identity/accounts.ts';
import type { CreatedProject } from '../../src/monitoring/projects/service.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

const LIVE = 5000;
let site: AppSite;
let page: Page;
let owner: Account;
let reader: Account;
let project: { id: string; name: string };
let channel: string;
/** The added check's page address and ping URL. */
let checkPage: string;
let pingUrl: string;

beforeAll(async () => {
  if (!chromiumFound) return;
  // The SMTP listener on: the check's page shows its ping email address too.
  site = await startAppSite({ SMTPD_PORT: '0', PING_EMAIL_DOMAIN: 'hc.example.org' });
  const { w } = site;
  owner = await newPerson(w, 'owner');
  reader = await newPerson(w, 'reader');
  project = await ownedProject(w, owner, 'Checks demo');
  await joinProject(w, project.id, reader, 'readonly');
  channel = (await w.channel({ id: project.id } as CreatedProject, { kind: 'email', value: 'ops@example.org', name: 'Ops mail' })).code;
  await site.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.site });
  page = await site.browser.page();
  await signInAt(site, page, owner, `/?project=${project.id}#/checks`);
}, 60_000);
afterAll(async () => {
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  if (ctx.task.result?.state !== 'fail') expectClean(site);
});

/** GraphQL as the page's signed-in person (its cookie). */
async function api<T = any>(p: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await p.evaluate(
    async ([q, v]) => (await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: q, variables: v }) })).json(),
    [query, variables] as const,
  );
  expect(body.errors).toBeUndefined();
  return body.data;
}
const apiChecks = async (p: Page) =>
  (await api<{ project: { checks: { nodes: Array<{ name: string; status: string; kind: string; schedule: string | null; tags: string[]; channels: Array<{ uuid: string }> }> } } }>(
    p,
    'query($p: ID) { project(id: $p) { checks { nodes { name status kind schedule tz tags methods manualResume filterHttpBody failureKw channels { uuid } } } } }',
    { p: project.id },
  )).project.checks.nodes;
const apiCheck = async (p: Page, name: string) => (await apiChecks(p)).find((c) => c.name === name);

/**
 * A refusal the test provokes is answered 400 (GraphQL over HTTP: no data), which Chromium
 * reports as a console error: drop those, and only those.
 */
const forgetRefusals = () => site.browser.errors.splice(0, site.browser.errors.length, ...site.browser.errors.filter((e) => !/status of 400/.test(e)));

const article = () => page.locator('article[data-check="Nightly backup"]');

suite('checks', () => {
  it('adds a check with the form: the server refuses a bad slug, then the new check opens', async () => {
    await page.getByRole('link', { name: 'Add check' }).click();
    await page.getByRole('heading', { name: 'Add check' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Nightly backup');
    // The slug follows the name until typed in.
    expect(await page.getByLabel('Slug').inputValue()).toBe('nightly-backup');
    await page.getByLabel('Tags').fill('prod db');
    await page.getByLabel('Description').fill('Copies the database to the NAS');
    await page.getByLabel('Slug').fill('Not a slug!');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'slug does not match pattern' }).waitFor();
    forgetRefusals();
    await screenshots(site, page, 'checks-add');

    await page.getByLabel('Slug').fill('nightly-backup');
    await page.getByRole('button', { name: 'Save' }).click();
    await article().waitFor();
    checkPage = page.url();
    expect(checkPage).toMatch(/#\/checks\/[0-9a-f]+$/);
    expect(await apiCheck(page, 'Nightly backup')).toMatchObject({ status: 'NEW', kind: 'SIMPLE', tags: ['prod', 'db'] });
  }, 30_000);

  it('copies the ping URL; a ping sent to it arrives live, and the examples use it', async () => {
    await liveUp(page);
    await page.getByRole('button', { name: 'Copy ping URL' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).first().waitFor();
    pingUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(pingUrl).toMatch(new RegExp(`^${site.site}/ping/[0-9a-f-]{36}$`));
    expect(await page.locator('[data-ping-url]').innerText()).toBe(pingUrl);
    await page.getByRole('button', { name: 'Copy ping email address' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${pingUrl.split('/').at(-1)}@hc.example.org`);

    expect((await fetch(pingUrl)).status).toBe(200);
    await article().locator('h1 [data-status="UP"]').waitFor({ timeout: LIVE });
    await article().locator('tr[data-ping="success"]').waitFor({ timeout: LIVE });

    await page.getByRole('tab', { name: 'Shell' }).click();
    const shell = await page.getByRole('tabpanel').innerText();
    expect(shell).toContain(`URL=${pingUrl}`);
    expect(shell).toContain('"$URL/start"');
    expect(shell).toContain('"$URL/$?"');
    await page.getByRole('tab', { name: 'Python' }).click();
    expect(await page.getByRole('tabpanel').innerText()).toContain(`urlopen("${pingUrl}"`);
    await screenshots(site, page, 'checks-page');
  }, 30_000);

  it('shows a ping’s body, and filters the ping log by kind', async () => {
    expect((await fetch(`${pingUrl}/fail`, { method: 'POST', body: 'disk full: 3 files not copied' })).status).toBe(200);
    const failure = article().locator('tr[data-ping="fail"]');
    await failure.waitFor({ timeout: LIVE });
    await article().locator('h1 [data-status="DOWN"]').waitFor({ timeout: LIVE });
    await failure.locator('summary').click();
    expect(await failure.locator('.ping-body pre').innerText()).toBe('disk full: 3 files not copied');

    await page.getByRole('combobox', { name: 'Show pings of kind' }).selectOption('success');
    await expect.poll(() => article().locator('tr[data-ping]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-ping')))).toEqual(['success']);
    await page.getByRole('combobox', { name: 'Show pings of kind' }).selectOption('');
    // The flip to down is listed with the status changes.
    await article().locator('table.flips tr[data-flip="down"]').waitFor({ timeout: LIVE });
  }, 30_000);

  it('edits the schedule to cron: the server’s reading as it is typed, its error for a bad one, then saved', async () => {
    await page.getByRole('radio', { name: /^Cron/ }).check();
    const cron = page.getByRole('textbox', { name: 'Cron expression' });
    await cron.fill('0 3 * * 1-5');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    const preview = page.locator('[data-preview="ok"]');
    await preview.waitFor();
    expect((await preview.locator('.description').innerText()).length).toBeGreaterThan(5);
    expect(await preview.locator('.next-times li time').count()).toBe(5);
    await screenshots(site, page, 'checks-page-cron');

    await cron.fill('0 3 * * 9');
    await page.locator('[data-preview="error"] [data-preview-error]').waitFor();
    const refusal = await page.locator('[data-preview-error]').innerText();
    expect(refusal).toMatch(/schedule/i);
    // Saved anyway, the server gives the same refusal.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: refusal }).waitFor();
    forgetRefusals();

    await cron.fill('30 2 * * *');
    await page.locator('[data-preview="ok"]').waitFor();
    // The other settings go with the same save.
    await page.getByText('More settings').click();
    await page.getByLabel('Pings accepted').selectOption('POST');
    await page.getByRole('checkbox', { name: /^Resume by hand only/ }).check();
    await page.getByRole('checkbox', { name: 'Look in the body of HTTP pings' }).check();
    await page.getByLabel('Failure keywords').fill('ERROR, FATAL');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await apiCheck(page, 'Nightly backup')).toMatchObject({
      kind: 'CRON', schedule: '30 2 * * *', tz: 'Europe/Berlin', methods: 'POST', manualResume: true, filterHttpBody: true, failureKw: 'ERROR, FATAL',
    });
    await article().locator('.facts').getByText('30 2 * * * (Europe/Berlin)').waitFor();
  }, 30_000);

  it('edits the schedule to OnCalendar: next times from the server, then saved', async () => {
    await page.getByRole('radio', { name: /^OnCalendar/ }).check();
    const expression = page.getByRole('textbox', { name: 'OnCalendar expressions' });
    await expression.fill('Mon..Fri 09:00\nSat 12:00');
    const preview = page.locator('[data-preview="ok"]');
    await preview.waitFor();
    expect(await preview.locator('.next-times li time').count()).toBe(5);
    await page.getByRole('button', { name: 'Save' }).click();
    // "Saved." may still show from the save before: the API says when this one landed.
    await expect.poll(async () => (await apiCheck(page, 'Nightly backup'))?.kind).toBe('ONCALENDAR');
    expect(await apiCheck(page, 'Nightly backup')).toMatchObject({ schedule: 'Mon..Fri 09:00\nSat 12:00', tz: 'Europe/Berlin' });
    await article().locator('.facts').getByText('Mon..Fri 09:00 · Sat 12:00 (Europe/Berlin)').waitFor();
    // Back to the cron schedule the other tests expect.
    await page.getByRole('radio', { name: /^Cron/ }).check();
    await page.getByRole('textbox', { name: 'Cron expression' }).fill('30 2 * * *');
    await page.locator('[data-preview="ok"]').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await apiCheck(page, 'Nightly backup'))?.kind).toBe('CRON');
  }, 30_000);

  it('pauses and resumes', async () => {
    await page.getByRole('button', { name: 'Pause' }).click();
    await article().locator('h1 [data-status="PAUSED"]').waitFor();
    expect((await apiCheck(page, 'Nightly backup'))?.status).toBe('PAUSED');
    await page.getByRole('button', { name: 'Resume' }).click();
    await article().locator('h1 [data-status="NEW"]').waitFor();
    expect((await apiCheck(page, 'Nightly backup'))?.status).toBe('NEW');
  }, 30_000);

  it('links a campus record and unlinks it', async () => {
    const { w } = site;
    const staff = (await w.campusToken('Staff')).token;
    expect((await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Chemistry', Code: 'CHEM' } })).status).toBe(200);
    await page.getByLabel('Record kind').selectOption('Course');
    await page.getByLabel('Record', { exact: true }).fill('CHEM');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await article().locator('dd.records .record', { hasText: 'Course: Chemistry' }).waitFor();
    expect((await apiCheck(page, 'Nightly backup'))?.tags).toContain('campus:course/CHEM');

    await page.getByRole('button', { name: 'Unlink Course: Chemistry' }).click();
    await article().locator('dd.records').getByText('—').waitFor();
    expect((await apiCheck(page, 'Nightly backup'))?.tags).toEqual(['prod', 'db']);
  }, 30_000);

  it('toggles which channels alert for one check in the list', async () => {
    await api(page, 'mutation($p: ID) { createCheck(project: $p, input: { name: "Hourly sync", tags: "sync", timeout: 3600 }) { created } }', { p: project.id });
    await page.getByRole('link', { name: '← All checks' }).click();
    const row = page.locator('tr[data-check="Nightly backup"]');
    await page.locator('tr[data-check="Hourly sync"]').waitFor();
    await row.locator('summary').click();
    const box = row.getByRole('checkbox', { name: 'Ops mail' });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await expect.poll(async () => (await apiCheck(page, 'Nightly backup'))?.channels).toEqual([{ uuid: channel }]);
    expect((await apiCheck(page, 'Hourly sync'))?.channels).toEqual([]);
    await expect.poll(() => box.isEnabled()).toBe(true);
    await row.locator('summary', { hasText: '1 of 1' }).waitFor();
    await screenshots(site, page, 'checks-list');

    await row.getByRole('checkbox', { name: 'Ops mail' }).uncheck();
    await expect.poll(async () => (await apiCheck(page, 'Nightly backup'))?.channels).toEqual([]);
  }, 30_000);

  it('keeps the filters in the address across a reload and back from a check', async () => {
    await page.getByRole('searchbox', { name: 'Search' }).fill('back');
    await page.getByRole('combobox', { name: 'Tag' }).selectOption('prod');
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('name');
    await expect.poll(() => new URL(page.url()).hash).toBe('#/checks?tag=prod&q=back&sort=name');
    await expect.poll(() => page.locator('tr[data-check]').count()).toBe(1);

    await page.reload();
    await page.locator('tr[data-check="Nightly backup"]').waitFor();
    expect(await page.locator('tr[data-check]').count()).toBe(1);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('back');
    expect(await page.getByRole('combobox', { name: 'Tag' }).inputValue()).toBe('prod');

    await page.getByRole('link', { name: 'Nightly backup' }).click();
    await article().waitFor();
    await page.goBack();
    await page.locator('tr[data-check="Nightly backup"]').waitFor();
    expect(await page.locator('tr[data-check]').count()).toBe(1);
    expect(new URL(page.url()).hash).toBe('#/checks?tag=prod&q=back&sort=name');

    // A status nothing has: no row, and the count says so.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('DOWN');
    await page.getByText('0 of 2 checks match.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('tr[data-check]').count()).toBe(2);
  }, 30_000);

  it('has no serious accessibility violation on the list and the check page', async () => {
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(checkPage);
    await article().locator('tr[data-ping]').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);

  it('deletes the check once confirmed', async () => {
    await page.getByRole('button', { name: 'Delete Nightly backup' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.locator('tr[data-check="Hourly sync"]').waitFor();
    expect(await page.locator('tr[data-check="Nightly backup"]').count()).toBe(0);
    expect(await apiCheck(page, 'Nightly backup')).toBeUndefined();
    expect((await fetch(pingUrl)).status).toBe(404);
  }, 30_000);

  it('shows a read-only member the checks and no control that changes them', async () => {
    await page.close();
    await site.browser.context.clearCookies();
    page = await site.browser.page();
    await signInAt(site, page, reader, `/?project=${project.id}#/checks`);
    const row = page.locator('tr[data-check="Hourly sync"]');
    await row.waitFor();
    expect(await page.getByRole('link', { name: 'Add check' }).count()).toBe(0);
    expect(await row.locator('summary').count()).toBe(0);
    await row.getByRole('link', { name: 'Hourly sync' }).click();
    await page.getByText('The ping log is shown to members who may make changes.').waitFor();
    for (const name of ['Pause', 'Resume', 'Save', 'Delete Hourly sync', 'Link']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Copy ping URL' }).count()).toBe(0);
    await screenshots(site, page, 'checks-page-read-only');
  }, 30_000);
});
