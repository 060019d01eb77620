// A person's contact points and relationships in Chromium: an Administrator adds an email
// address (Slate's message for a bad one first), sees it marked primary, edits and deletes a
// phone number, sets "mother" (the server adds the inverse "son") and deletes it; a Student
// who is neither the person nor their ward sees the hint instead. The API says what was stored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { campusGql } from '../helpers/gql.ts';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { axeViolations, describeViolations } from './axe.ts';
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
  const made = await campusGql(
    w,
    'mutation { k: createPerson(input: { firstName: "Kim", lastName: "Park", username: "kim", gender: "Male" }) { databaseId } m: createPerson(input: { firstName: "Mina", lastName: "Park", username: "mina", gender: "Female" }) { databaseId } }',
    {},
    token,
  );
  expect(made.errors).toBeUndefined();
  [ids.kim, ids.mina] = [made.data.k.databaseId, made.data.m.databaseId];
  page = await site.browser.page();
  await signInAt(site, page, admin, `/?project=${projectId}#/campus/people/${ids.kim}`);
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

suite('person contact points and relationships', () => {
  it('adds, edits and deletes contact points as Staff', async () => {
    await page.getByRole('heading', { level: 1, name: 'Kim Park' }).waitFor();
    const panel = page.getByRole('region', { name: 'Contact details' });
    await panel.getByText('No contact points yet.').waitFor();
    const add = panel.getByRole('group', { name: 'Add a contact point' });
    await add.getByRole('textbox', { name: 'Value' }).fill('kim-at-example');
    await add.getByRole('button', { name: 'Add contact point' }).click();
    await page.getByRole('alert').getByText('Email address invalid:Email address must be in format username@domain').waitFor();
    await add.getByRole('textbox', { name: 'Value' }).fill('kim@example.org');
    await add.getByRole('button', { name: 'Add contact point' }).click();
    const email = panel.locator('tbody tr').filter({ hasText: 'kim@example.org' });
    await email.getByText('Primary').waitFor();
    await add.getByRole('combobox', { name: 'Kind' }).selectOption('Phone');
    await add.getByRole('textbox', { name: 'Label' }).fill('Mobile Phone');
    await add.getByRole('textbox', { name: 'Value' }).fill('215 867 5309');
    await add.getByRole('button', { name: 'Add contact point' }).click();
    const phone = panel.locator('tbody tr').filter({ hasText: '(215) 867-5309' });
    await phone.waitFor();
    await phone.getByRole('button', { name: 'Edit Mobile Phone (215) 867-5309' }).click();
    await phone.getByRole('textbox', { name: 'Label' }).fill('Home Phone');
    await phone.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('cell', { name: 'Home Phone', exact: true }).waitFor();
    // The panels as Staff see them (rows, controls, both forms): no accessibility violation.
    expect(describeViolations(await axeViolations(page))).toBe('');
    const stored = await api(page, `{ person(id: ${ids.kim}) { primaryEmail contactPoints { kind label string primary } } }`);
    expect(stored.person).toEqual({
      primaryEmail: 'kim@example.org',
      contactPoints: [
        { kind: 'Email', label: 'Email', string: 'kim@example.org', primary: true },
        { kind: 'Phone', label: 'Home Phone', string: '(215) 867-5309', primary: true },
      ],
    });
    await phone.getByRole('button', { name: 'Delete Home Phone (215) 867-5309' }).click();
    await phone.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('status').getByText('Home Phone was deleted.').waitFor();
    expect((await api(page, `{ person(id: ${ids.kim}) { contactPoints { kind } } }`)).person.contactPoints).toEqual([{ kind: 'Email' }]);
  });

  it('sets a relationship, whose inverse the server adds, and deletes both', async () => {
    const panel = page.getByRole('region', { name: 'Relationships' });
    await panel.getByText('No relationships yet.').waitFor();
    await panel.getByRole('textbox', { name: 'Related person (ID or username)' }).fill('mina');
    await panel.getByRole('textbox', { name: "Is this person's" }).fill('mother');
    await panel.getByRole('button', { name: 'Save relationship' }).click();
    const item = panel.locator('li').filter({ hasText: 'mother' });
    await item.getByRole('link', { name: 'Mina Park' }).waitFor();
    await item.getByText('(guardian)').waitFor();
    const stored = await api(page, `{ person(id: ${ids.mina}) { relationships { label relatedPersonId } wards { databaseId } } }`);
    expect(stored.person).toEqual({ relationships: [{ label: 'son', relatedPersonId: ids.kim }], wards: [{ databaseId: ids.kim }] });
    await item.getByRole('button', { name: 'Delete the relationship mother' }).click();
    await item.getByRole('button', { name: 'Yes, delete' }).click();
    await panel.getByText('No relationships yet.').waitFor();
    expect((await api(page, `{ person(id: ${ids.mina}) { relationships { label } } }`)).person.relationships).toEqual([]);
  });

  it('shows a contact point added and deleted elsewhere without reloading (the person changes live)', async () => {
    const panel = page.getByRole('region', { name: 'Contact details' });
    await panel.locator('tbody tr').filter({ hasText: 'kim@example.org' }).waitFor();
    const { token } = await site.w.campusToken('Staff');
    const made = await campusGql(site.w, `mutation { createContactPoint(person: "${ids.kim}", kind: Link, label: "Blog", value: "https://kim.example.org") { databaseId } }`, {}, token);
    expect(made.errors).toBeUndefined();
    const link = panel.locator('tbody tr').filter({ hasText: 'https://kim.example.org' });
    await link.waitFor();
    const gone = await campusGql(site.w, `mutation { deleteContactPoint(id: "${made.data.createContactPoint.databaseId}") }`, {}, token);
    expect(gone.errors).toBeUndefined();
    await link.waitFor({ state: 'detached' });
  });

  it('shows another Student the hint and no controls', async () => {
    await site.browser.context.clearCookies();
    await signInAt(site, page, student, `/?project=${studentProjectId}#/campus/people/${ids.kim}`);
    await page.getByRole('heading', { level: 1, name: 'Kim Park' }).waitFor();
    const panel = page.getByRole('region', { name: 'Contact details' });
    await panel.getByText(/None you may see/).waitFor();
    expect(await panel.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Relationships' }).getByRole('button').count()).toBe(0);
  });
});
