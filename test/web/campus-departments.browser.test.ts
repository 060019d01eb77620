// Departments and schedules in the campus screens (Chromium, the browser's session cookie): a
// Staff person creates a department in its form, puts a course in it from the course's form (a
// choice of departments), follows the course page's department link to the department page
// that lists the course, and sees a section's schedule on the section page. After each change
// the API (the same cookie) says what was stored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { campusGql } from '../helpers/gql.ts';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { expectClean, newPerson, ownedProject, signInAt, startAppSite, type AppSite } from './app-site.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

let site: AppSite;
let page: Page;
let projectId: string;
const ids: Record<string, number> = {};

async function seed(token: string, mutation: string, input: Record<string, unknown>): Promise<number> {
  const type = mutation.replace(/^create/, '');
  const res = await campusGql(site.w, `mutation($input: ${type}Input!) { ${mutation}(input: $input) { databaseId } }`, { input }, token);
  expect(res.errors).toBeUndefined();
  return res.data[mutation].databaseId;
}

beforeAll(async () => {
  if (!chromiumFound) return;
  site = await startAppSite();
  const { w } = site;
  const staff = await newPerson(w, 'staff', 'Staff');
  projectId = (await ownedProject(w, staff, 'Campus')).id;
  const { token } = await w.campusToken('Staff');
  ids.biology = await seed(token, 'createCourse', { title: 'Biology', code: 'BIO-101' });
  ids.block = await seed(token, 'createSchedule', { title: 'Block A' });
  ids.section = await seed(token, 'createSection', { courseId: ids.biology, code: 'BIO-101-A', title: 'Biology A', scheduleId: ids.block });
  page = await site.browser.page();
  await signInAt(site, page, staff, `/?project=${projectId}#/campus`);
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
  const body = await p.evaluate(async (q) => {
    const res = await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: q }) });
    return res.json();
  }, query);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

const open = async (p: Page, hash: string, heading: string) => {
  await p.goto(`${site.site}/?project=${projectId}${hash}`);
  await p.getByRole('heading', { level: 1, name: heading }).waitFor();
};

suite('departments and schedules', () => {
  it('creates a department, puts a course in it, and links the two pages both ways', async () => {
    await open(page, '#/campus/departments', 'Departments');
    await page.getByRole('link', { name: 'New course department' }).click();
    await page.getByRole('heading', { level: 1, name: 'New course department' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Sciences');
    await page.getByRole('textbox', { name: 'Code' }).fill('SCI');
    await page.getByRole('button', { name: 'Create course department' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sciences' }).waitFor();
    await page.getByRole('region', { name: 'Courses' }).getByText('No courses in this department.').waitFor();
    // No check can be linked to a department: its page offers none.
    expect(await page.getByRole('region', { name: 'Linked checks' }).count()).toBe(0);
    const { department } = await api(page, '{ department(handle: "sciences") { databaseId code status } }');
    expect(department).toMatchObject({ code: 'SCI', status: 'Live' });

    await open(page, `#/campus/courses/${ids.biology}/edit`, 'Edit Biology');
    const select = page.getByRole('combobox', { name: 'Department' });
    await page.locator('[data-field="departmentId"] select:not([aria-busy])').waitFor();
    await select.selectOption({ label: 'SCI · Sciences' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Biology' }).waitFor();
    expect((await api(page, `{ course(id: ${ids.biology}) { department { code } } }`)).course.department).toEqual({ code: 'SCI' });

    await page.getByRole('link', { name: 'Sciences' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sciences' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/campus/departments/${department.databaseId}$`));
    await page.getByRole('region', { name: 'Courses' }).getByRole('link', { name: 'Biology' }).waitFor();
  });

  it("shows a section's schedule, and the schedule's sections", async () => {
    await open(page, `#/campus/sections/${ids.section}`, 'BIO-101-A · Biology A');
    await page.getByRole('link', { name: 'Block A' }).click();
    await page.getByRole('heading', { level: 1, name: 'Block A' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/campus/schedules/${ids.block}$`));
    await page.getByRole('region', { name: 'Sections' }).getByRole('link', { name: 'BIO-101-A · Biology A' }).waitFor();
    await page.getByText('BlockA', { exact: true }).waitFor();
  });
});
