// The campus records screens (#/campus…) in Chromium, signed in with the browser's session
// cookie: a Staff person searches people and opens one, creates a course (Slate's validation
// message beside the field it names, then fixed), enrols a student in a section and drops them,
// adds and removes a group member, and watches a check linked to a section change status as it
// is pinged; a Student sees the same records without a single write control, and the server's
// refusal when they try anyway. After each change the API (the same cookie) says what was stored.
//
// One server and one page for the whole file; the tests run in order (the Student signs in last).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rotateKey } from '../../src/monitoring/projects/service.ts';
import { campusGql } from '../helpers/gql.ts';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { expectClean, liveUp, newPerson, ownedProject, screenshots, signInAt, startAppSite, type AppSite } from './app-site.ts';
import type { Account } from '../../src/identity/accounts.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

let site: AppSite;
let page: Page;
let staff: Account;
let student: Account;
let staffProject: { id: string };
let studentProject: { id: string };
let apiKey: string;
const ids: Record<string, number> = {};
const checks: Record<string, { uuid: string; ping: string }> = {};

/** Creates a record over GraphQL with a Staff campus token; its ID. */
async function seed(token: string, mutation: string, input: Record<string, unknown>): Promise<number> {
  const type = mutation.replace(/^create/, '');
  const res = await campusGql(site.w, `mutation($input: ${type}Input!) { ${mutation}(input: $input) { databaseId } }`, { input }, token);
  expect(res.errors).toBeUndefined();
  return res.data[mutation].databaseId;
}

async function newCheck(name: string, tags: string) {
  const created = await site.w.api('POST', '/api/v3/checks/', { key: apiKey, body: { name, tags, timeout: 3600 } });
  expect(created.status).toBe(201);
  checks[name] = { uuid: created.json.uuid, ping: new URL(created.json.ping_url).pathname };
}

beforeAll(async () => {
  if (!chromiumFound) return;
  site = await startAppSite();
  const { w } = site;
  staff = await newPerson(w, 'staff', 'Staff');
  student = await newPerson(w, 'pupil', 'Student');
  staffProject = await ownedProject(w, staff, 'Campus operations');
  studentProject = await ownedProject(w, student, 'Homework');
  apiKey = await rotateKey(w.app.db, staffProject.id, 'api_key');

  const { token } = await w.campusToken('Staff');
  ids.ada = await seed(token, 'createPerson', { firstName: 'Ada', lastName: 'Lovelace', username: 'ada', email: 'ada@example.org', accountLevel: 'Student' });
  ids.alan = await seed(token, 'createPerson', { firstName: 'Alan', lastName: 'Turing', username: 'alan', accountLevel: 'Student' });
  ids.term = await seed(token, 'createTerm', { title: 'Fall 2026', starDate: '2026-09-01', endDate: '2026-12-20' });
  ids.room = await seed(token, 'createLocation', { title: 'Room 101' });
  ids.biology = await seed(token, 'createCourse', { title: 'Biology', code: 'BIO-101' });
  ids.section = await seed(token, 'createSection', { courseId: ids.biology, code: 'BIO-101-A', title: 'Biology A', termId: ids.term, locationId: ids.room, studentsCapacity: 20 });
  ids.clubs = await seed(token, 'createGroup', { name: 'Clubs' });
  ids.chess = await seed(token, 'createGroup', { name: 'Chess', parentId: ids.clubs });
  // Alan is in Clubs already: removing him from Chess must leave that membership alone.
  expect((await campusGql(w, 'mutation { setGroupMember(group: "clubs", person: "alan") { role } }', {}, token)).errors).toBeUndefined();
  ids.post = await seed(token, 'createBlogPost', { title: 'Lab opening', tags: ['science'] });
  ids.page = await seed(token, 'createPage', { title: 'Handbook' });
  await newCheck('Lab sensor', `campus:section/${ids.section}`);
  await newCheck('Projector', '');

  page = await site.browser.page();
  await signInAt(site, page, staff, `/?project=${staffProject.id}#/campus`);
}, 60_000);
afterAll(async () => {
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  if (ctx.task.result?.state !== 'fail') expectClean(site);
  // reportFailedPages closes the page it reported on; the cookie stays in the context.
  if (site && page?.isClosed()) page = await site.browser.page();
});

/** A GraphQL answer for the page's own cookie (what the signed-in person's API says). */
async function api<T = any>(p: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await p.evaluate(async ([q, v]) => {
    const res = await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: q, variables: v }) });
    return res.json();
  }, [query, variables] as const);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

/**
 * Screenshots at 1280 and 375 px (light, and dark when asked, with axe-core's audit in both
 * themes); at 375 px nothing of the campus screen may stick out past the viewport's right edge
 * (a phone would scroll sideways).
 */
async function shoot(p: Page, name: string, { dark = false } = {}) {
  await screenshots(site, p, name);
  if (dark) {
    await p.emulateMedia({ colorScheme: 'dark' });
    await screenshots(site, p, `${name}-dark`);
    // axe-core's serious and critical findings (contrast, names, roles), in both themes.
    expect(describeViolations(await axeViolations(p))).toBe('');
    await p.emulateMedia({ colorScheme: 'light' });
    expect(describeViolations(await axeViolations(p))).toBe('');
  }
  await p.setViewportSize({ width: 375, height: 800 });
  const over = await p.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    return [...document.querySelectorAll('.campus *')].filter((el) => el.getBoundingClientRect().right > limit + 0.5).map((el) => el.outerHTML.slice(0, 120));
  });
  await p.setViewportSize({ width: 1280, height: 800 });
  expect(over).toEqual([]);
}

const open = async (p: Page, hash: string, heading: string) => {
  await p.goto(`${site.site}/?project=${staffProject.id}${hash}`);
  await p.getByRole('heading', { level: 1, name: heading }).waitFor();
};

suite('campus records', () => {
  it('shows the overview with the account level, and every kind in the navigation', async () => {
    await page.getByRole('heading', { level: 1, name: 'Campus records' }).waitFor();
    await page.locator('[data-level="Staff"]').waitFor();
    const nav = page.getByRole('navigation', { name: 'Campus record kinds' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Overview', 'People', 'Sections', 'Courses', 'Departments', 'Schedules', 'Terms', 'Locations', 'Groups', 'Blog posts', 'Pages']);
  });

  it('searches people and opens a person with their contact points, groups and sections', async () => {
    await page.getByRole('navigation', { name: 'Campus record kinds' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search people' }).fill('Lovelace');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('[data-total="1"]').waitFor();
    expect(page.url()).toContain('#/campus/people?q=Lovelace');
    await shoot(page, 'campus-people-search');
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/campus/people/${ids.ada}$`));
    const contact = page.getByRole('region', { name: 'Contact points' });
    await contact.getByRole('link', { name: 'ada@example.org' }).waitFor();
    await page.getByRole('region', { name: 'Groups' }).getByText('Not a member of any group').waitFor();
    await page.getByRole('region', { name: 'Linked checks' }).getByText('No check of this project is linked').waitFor();
    await shoot(page, 'campus-person');
  });

  it('pages through a long list, the page kept in the address', async () => {
    const { token } = await site.w.campusToken('Staff');
    const many = Array.from({ length: 30 }, (_, i) => `p${i}: createPerson(input: { firstName: "Pat${String(i).padStart(2, '0')}", lastName: "Pager" }) { databaseId }`);
    expect((await campusGql(site.w, `mutation { ${many.join(' ')} }`, {}, token)).errors).toBeUndefined();
    await open(page, '#/campus/people?q=Pager', 'People');
    await page.getByText('30 people matching “Pager”; showing 1–25.').waitFor();
    await page.getByRole('navigation', { name: 'Pages of people' }).getByRole('button', { name: 'Next page' }).click();
    await page.getByText('30 people matching “Pager”; showing 26–30.').waitFor();
    expect(page.url()).toContain('#/campus/people?q=Pager&page=2');
    expect(await page.locator('.campus-list tbody tr').count()).toBe(5);
    await page.goBack();
    await page.getByText('30 people matching “Pager”; showing 1–25.').waitFor();
  });

  it('creates a course: the missing code is named beside its field, then fixed', async () => {
    await open(page, '#/campus/courses', 'Courses');
    await page.getByRole('link', { name: 'New course' }).click();
    await page.getByRole('heading', { level: 1, name: 'New course' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Chemistry');
    await page.getByRole('button', { name: 'Create course' }).click();
    const code = page.getByRole('textbox', { name: 'Code' });
    await page.locator('[data-field="code"] .field-error').getByText('Code is missing.').waitFor();
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    // The message is the field's description, and the field has the focus.
    expect(await code.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent)).toBe('Code is missing.');
    expect(await code.evaluate((el) => el === document.activeElement)).toBe(true);
    await shoot(page, 'campus-course-validation', { dark: true });
    await code.fill('CHEM-101');
    await page.getByRole('button', { name: 'Create course' }).click();
    await page.getByRole('heading', { level: 1, name: 'Chemistry' }).waitFor();
    await page.getByRole('status').getByText('The course was saved.').waitFor();
    const { courses } = await api(page, '{ courses(q: "Chemistry") { nodes { code title status } } }');
    expect(courses.nodes).toEqual([{ code: 'CHEM-101', title: 'Chemistry', status: 'Live' }]);
  });

  it('edits a course, follows a change made elsewhere without reloading, and deletes it', async () => {
    const { courses } = await api(page, '{ courses(q: "Chemistry") { nodes { databaseId } } }');
    const id = courses.nodes[0].databaseId as number;
    await open(page, `#/campus/courses/${id}`, 'Chemistry');
    await liveUp(page);
    await page.getByRole('link', { name: 'Edit Chemistry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Chemistry' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Chemistry I');
    await page.getByRole('textbox', { name: 'Description' }).fill('Atoms and molecules.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Chemistry I' }).waitFor();
    await page.getByText('Atoms and molecules.').waitFor();

    const { token } = await site.w.campusToken('Staff');
    expect((await campusGql(site.w, `mutation { updateCourse(id: ${id}, input: { title: "Chemistry 1" }) { title } }`, {}, token)).errors).toBeUndefined();
    await page.getByRole('heading', { level: 1, name: 'Chemistry 1' }).waitFor();

    await page.getByRole('button', { name: 'Delete Chemistry 1' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('heading', { level: 1, name: 'Courses' }).waitFor();
    await page.getByRole('status').getByText('“Chemistry 1” was deleted.').waitFor();
    expect((await api(page, '{ courses(q: "Chemistry") { totalCount } }')).courses.totalCount).toBe(0);
  });

  it('opens every kind: its list, a record with its relationships, and its edit form', async () => {
    const records: Array<[string, number, string, string]> = [
      ['people', ids.alan!, 'Alan Turing', 'Turing'],
      ['sections', ids.section!, 'BIO-101-A · Biology A', 'Biology'],
      ['courses', ids.biology!, 'Biology', 'Biology'],
      ['terms', ids.term!, 'Fall 2026', 'Fall'],
      ['locations', ids.room!, 'Room 101', 'Room'],
      ['groups', ids.clubs!, 'Clubs', 'Clubs'],
      ['blog', ids.post!, 'Lab opening', 'Lab'],
      ['pages', ids.page!, 'Handbook', 'Handbook'],
    ];
    for (const [route, id, title, q] of records) {
      await page.goto(`${site.site}/?project=${staffProject.id}#/campus/${route}?q=${q}`);
      await page.locator(`.campus-list tr[data-record="${id}"]`).waitFor();
      await page.getByRole('link', { name: title, exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByRole('region', { name: 'Linked checks' }).locator('h2').waitFor();
      await page.getByRole('link', { name: `Edit ${title}` }).click();
      await page.getByRole('heading', { level: 1, name: `Edit ${title}` }).waitFor();
      // Reference fields list their choices once loaded.
      await page.locator('select[aria-busy="true"]').first().waitFor({ state: 'detached' });
    }
    // The relationships: the term's and the location's sections, a group's subgroups, the course's sections.
    await open(page, `#/campus/terms/${ids.term}`, 'Fall 2026');
    await page.getByRole('region', { name: 'Sections' }).getByRole('link', { name: 'BIO-101-A · Biology A' }).waitFor();
    await open(page, `#/campus/groups/${ids.clubs}`, 'Clubs');
    await page.getByRole('region', { name: 'Subgroups' }).getByRole('link', { name: 'Chess' }).waitFor();
    await open(page, `#/campus/sections/new`, 'New course section');
    await page.getByRole('combobox', { name: 'Course' }).selectOption({ label: 'BIO-101 · Biology' });
  });

  it("enrols a student in a section, shows the roster change, and drops them", async () => {
    await open(page, `#/campus/sections/${ids.section}`, 'BIO-101-A · Biology A');
    await page.getByRole('link', { name: 'BIO-101 · Biology' }).waitFor();
    await page.getByRole('link', { name: 'Fall 2026' }).waitFor();
    const roster = page.getByRole('region', { name: 'Roster' });
    await roster.getByRole('combobox', { name: 'Person' }).fill('ada');
    await roster.getByRole('combobox', { name: 'Role' }).selectOption('Student');
    await roster.getByRole('button', { name: 'Enrol' }).click();
    await roster.locator('tr[data-participant="ada"][data-role="Student"]').waitFor();
    await roster.getByRole('status').getByText('ada was enrolled in BIO-101-A as Student.').waitFor();
    const participants = async () => (await api(page, `{ section(id: ${ids.section}) { studentsCount participants { role person { username } } } }`)).section;
    expect(await participants()).toEqual({ studentsCount: 1, participants: [{ role: 'Student', person: { username: 'ada' } }] });
    await shoot(page, 'campus-section-roster', { dark: true });

    // The person's page lists the section too.
    await roster.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await page.getByRole('region', { name: 'Sections' }).locator(`tr[data-section="${ids.section}"]`).getByText('Student').waitFor();
    await page.goBack();
    await roster.locator('tr[data-participant="ada"]').waitFor();

    // A person who does not exist: the server's message, and the roster as it was.
    await roster.getByRole('combobox', { name: 'Person' }).fill('nobody-here');
    await roster.getByRole('button', { name: 'Enrol' }).click();
    await roster.getByRole('alert').getByText('person not found: nobody-here').waitFor();

    await roster.getByRole('button', { name: 'Drop Ada Lovelace' }).click();
    await roster.getByRole('button', { name: 'Yes, drop' }).click();
    await roster.getByText('Nobody takes part in this section yet.').waitFor();
    expect(await participants()).toEqual({ studentsCount: 0, participants: [] });
  });

  it('adds a member to a group and removes them, keeping their other groups', async () => {
    await open(page, `#/campus/groups/${ids.chess}`, 'Chess');
    await page.getByRole('link', { name: 'Clubs' }).waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('combobox', { name: 'Person' }).fill('alan');
    await members.getByRole('combobox', { name: 'Role' }).selectOption('Administrator');
    await members.getByRole('button', { name: 'Add member' }).click();
    await members.locator('tr[data-member="alan"][data-role="Administrator"]').waitFor();
    const groupsOfAlan = async () => (await api(page, `{ person(id: ${ids.alan}) { groupMemberships { role group { name } } } }`)).person.groupMemberships;
    expect(await groupsOfAlan()).toEqual([{ role: 'Member', group: { name: 'Clubs' } }, { role: 'Administrator', group: { name: 'Chess' } }]);
    await shoot(page, 'campus-group-members', { dark: true });

    await members.getByRole('button', { name: 'Remove Alan Turing' }).click();
    await members.getByRole('button', { name: 'Yes, remove' }).click();
    await members.getByText('This group has no members of its own.').waitFor();
    expect(await groupsOfAlan()).toEqual([{ role: 'Member', group: { name: 'Clubs' } }]);
  });

  it("shows a section's linked checks with their status pushed live, and links another", async () => {
    await open(page, `#/campus/sections/${ids.section}`, 'BIO-101-A · Biology A');
    await liveUp(page);
    const linked = page.getByRole('region', { name: 'Linked checks' });
    const sensor = linked.locator('tr[data-check="Lab sensor"]');
    await sensor.locator('[data-status="NEW"]').waitFor();
    // Nothing polls: a reload would lose this mark.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    expect((await site.w.ping(checks['Lab sensor']!.ping)).status).toBe(200);
    await sensor.locator('[data-status="UP"]').waitFor({ timeout: 5000 });
    expect((await site.w.ping(`${checks['Lab sensor']!.ping}/fail`)).status).toBe(200);
    await sensor.locator('[data-status="DOWN"]').waitFor({ timeout: 5000 });

    await linked.getByRole('combobox', { name: 'Link a check' }).selectOption({ label: 'Projector' });
    await linked.getByRole('button', { name: 'Link check' }).click();
    await linked.locator('tr[data-check="Projector"] [data-status="NEW"]').waitFor();
    expect((await site.w.ping(checks.Projector!.ping)).status).toBe(200);
    await linked.locator('tr[data-check="Projector"] [data-status="UP"]').waitFor({ timeout: 5000 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    const { section } = await api(page, `query($p: ID) { section(id: ${ids.section}) { checks(project: $p) { name status } } }`, { p: staffProject.id });
    expect(section.checks).toEqual([{ name: 'Lab sensor', status: 'DOWN' }, { name: 'Projector', status: 'UP' }]);
    await shoot(page, 'campus-section-checks', { dark: true });
  });

  it('shows a Student the records without write controls, and the server refusing them anyway', async () => {
    await site.browser.context.clearCookies();
    await signInAt(site, page, student, `/?project=${studentProject.id}#/campus/courses`);
    await page.getByRole('heading', { level: 1, name: 'Courses' }).waitFor();
    await page.getByRole('link', { name: 'Biology' }).waitFor();
    expect(await page.getByRole('link', { name: 'New course' }).count()).toBe(0);

    await page.goto(`${site.site}/?project=${studentProject.id}#/campus/sections/${ids.section}`);
    await page.getByRole('heading', { level: 1, name: 'BIO-101-A · Biology A' }).waitFor();
    await page.getByRole('region', { name: 'Roster' }).waitFor();
    for (const name of ['Edit', 'Delete', 'Enrol', 'Link check']) expect(await page.getByRole('button', { name }).or(page.getByRole('link', { name })).count()).toBe(0);
    expect(await page.locator('.campus select, .campus input, .campus textarea').count()).toBe(0);
    await shoot(page, 'campus-section-student', { dark: true });

    // Groups are listed for Staff only: the server's refusal is shown as it says it.
    await page.getByRole('navigation', { name: 'Campus record kinds' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('alert').getByText('You do not have authorization to access this resource').waitFor();

    // The create form is reachable by address; the server refuses the write and says so.
    await page.goto(`${site.site}/?project=${studentProject.id}#/campus/courses/new`);
    await page.getByRole('textbox', { name: 'Title' }).fill('Sneaky');
    await page.getByRole('textbox', { name: 'Code' }).fill('SNK-1');
    await page.getByRole('button', { name: 'Create course' }).click();
    await page.getByRole('alert').getByText('You do not have authorization to access this resource').waitFor();
    expect((await api(page, '{ courses(q: "Sneaky") { totalCount } }')).courses.totalCount).toBe(0);
  });
});
