// A person's notes and a section's connector mappings in Chromium: an Administrator adds a note
// whose HTML carries a script and an image with an onerror handler (shown as text; neither
// runs), edits and deletes it, then adds and deletes a section's mapping; a Student sees
// neither panel. After each change the API (the page's cookie) says what was stored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { campusGql } from '../helpers/gql.ts';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { expectClean, newPerson, ownedProject, signInAt, startAppSite, type AppSite } from './app-site.ts';
import type { Account } from '../../src/identity/accounts.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

let site: AppSite;
let page: Page;
let admin: Account;
let student: Account;
let projectId: string;
let studentProjectId: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  if (!chromiumFound) return;
  site = await startAppSite();
  const { w } = site;
  admin = await newPerson(w, 'registrar', 'Administrator');
  student = await newPerson(w, 'learner', 'Student');
  projectId = (await ownedProject(w, admin, 'Registry')).id;
  studentProjectId = (await ownedProject(w, student, 'Homework')).id;
  const { token } = await w.campusToken('Staff');
  const made = await campusGql(w, 'mutation { p: createPerson(input: { firstName: "Grace", lastName: "Hopper", username: "grace" }) { databaseId } c: createCourse(input: { title: "Navy", code: "NAV" }) { databaseId } }', {}, token);
  expect(made.errors).toBeUndefined();
  ids.grace = made.data.p.databaseId;
  const section = await campusGql(w, `mutation { createSection(input: { courseId: ${made.data.c.databaseId}, code: "NAV-1", title: "Navy A" }) { databaseId } }`, {}, token);
  ids.section = section.data.createSection.databaseId;
  page = await site.browser.page();
  await signInAt(site, page, admin, `/?project=${projectId}#/campus/people/${ids.grace}`);
}, 60_000);
afterAll(async () => {
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  if (ctx.task.result?.state !== 'fail') expectClean(site);
  if (site && page?.isClosed()) page = await site.browser.page();
});

async function api<T = any>(p: Page, query: string): Promise<T> {
  const body = await p.evaluate(async (q) => (await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: q }) })).json(), query);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

suite('person notes and section mappings', () => {
  it('adds a note whose HTML is shown as text, edits it and deletes it', async () => {
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByText('No notes on this person yet.').waitFor();
    const add = notes.getByRole('group', { name: 'Add a note' });
    await add.getByRole('textbox', { name: 'Subject' }).fill('Attendance');
    await add.getByRole('textbox', { name: 'Message' }).fill('<p>Late <b>twice</b></p><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">');
    await add.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('status').getByText('The note “Attendance” was added.').waitFor();
    const item = notes.locator('.note-list li').first();
    await item.getByRole('heading', { name: 'Attendance' }).waitFor();
    expect(await item.locator('.note-message').textContent()).toBe('Late twice');
    expect(await item.locator('img, script, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await item.getByText('Private draft (only you)').waitFor();
    const stored = await api(page, `{ person(id: ${ids.grace}) { notes { subject message status author { username } } } }`);
    expect(stored.person.notes).toEqual([{ subject: 'Attendance', message: expect.stringContaining('<script>'), status: 'draft-private', author: { username: admin.username } }]);

    // A message missing: the server's own words, nothing stored.
    await add.getByRole('textbox', { name: 'Subject' }).fill('Empty');
    await add.getByRole('button', { name: 'Add note' }).click();
    await notes.getByRole('alert').getByText('A message is required').waitFor();

    await item.getByRole('button', { name: 'Edit the note “Attendance”' }).click();
    const edit = item.getByRole('group', { name: 'Edit “Attendance”' });
    await edit.getByRole('textbox', { name: 'Subject' }).fill('Attendance, term 1');
    await edit.getByRole('combobox', { name: 'Status' }).selectOption('sent');
    await edit.getByRole('button', { name: 'Save note' }).click();
    await item.getByRole('heading', { name: 'Attendance, term 1' }).waitFor();
    const edited = await api(page, `{ person(id: ${ids.grace}) { notes { subject status sent } } }`);
    expect(edited.person.notes).toEqual([{ subject: 'Attendance, term 1', status: 'sent', sent: expect.any(String) }]);

    await item.getByRole('button', { name: 'Delete the note “Attendance, term 1”' }).click();
    await item.getByRole('button', { name: 'Yes, delete' }).click();
    await notes.getByText('No notes on this person yet.').waitFor();
    expect((await api(page, `{ person(id: ${ids.grace}) { notes { subject } } }`)).person.notes).toEqual([]);
  });

  it("adds and deletes a section's connector mapping", async () => {
    await page.goto(`${site.site}/?project=${projectId}#/campus/sections/${ids.section}`);
    const panel = page.getByRole('region', { name: 'Connector mappings' });
    await panel.getByText('No connector knows this section yet.').waitFor();
    const form = panel.getByRole('group', { name: 'Add a connector mapping' });
    await form.getByRole('textbox', { name: 'Connector' }).fill('canvas');
    await form.getByRole('textbox', { name: 'Key' }).fill('section_id');
    await form.getByRole('textbox', { name: 'Identifier' }).fill('8812');
    await form.getByRole('button', { name: 'Add mapping' }).click();
    const row = panel.locator('tbody tr').first();
    await row.getByText('8812').waitFor();
    const { section } = await api(page, `{ section(id: ${ids.section}) { mappings { connector externalKey externalIdentifier source } } }`);
    expect(section.mappings).toEqual([{ connector: 'canvas', externalKey: 'section_id', externalIdentifier: '8812', source: 'manual' }]);
    await row.getByRole('button', { name: 'Delete the mapping canvas 8812' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await panel.getByText('No connector knows this section yet.').waitFor();
    expect((await api(page, `{ section(id: ${ids.section}) { mappings { databaseId } } }`)).section.mappings).toEqual([]);
  });

  it('shows a Student neither notes nor mappings', async () => {
    await site.browser.context.clearCookies();
    await signInAt(site, page, student, `/?project=${studentProjectId}#/campus/people/${ids.grace}`);
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    await page.getByRole('region', { name: 'Groups' }).waitFor();
    expect(await page.getByRole('region', { name: 'Notes' }).count()).toBe(0);
    await page.goto(`${site.site}/?project=${studentProjectId}#/campus/sections/${ids.section}`);
    await page.getByRole('region', { name: 'Roster' }).waitFor();
    expect(await page.getByRole('region', { name: 'Connector mappings' }).count()).toBe(0);
  });
});
