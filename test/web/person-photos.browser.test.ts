// A person's photos in Chromium: an Administrator uploads two photos through the file input
// (the page's session cookie, multipart), sees the first become primary and load as a
// thumbnail, makes the second primary, deletes one; a file that is not an image is refused
// with the server's message and stores nothing; a Student sees the photos without the controls.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
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
let grace: number;
let studentProjectId: string;

beforeAll(async () => {
  if (!chromiumFound) return;
  site = await startAppSite();
  const { w } = site;
  admin = await newPerson(w, 'photographer', 'Administrator');
  student = await newPerson(w, 'viewer', 'Student');
  const projectId = (await ownedProject(w, admin, 'Photos')).id;
  studentProjectId = (await ownedProject(w, student, 'Mine')).id;
  const { token } = await w.campusToken('Staff');
  const made = await campusGql(w, 'mutation { p: createPerson(input: { firstName: "Grace", lastName: "Hopper", username: "grace" }) { databaseId } }', {}, token);
  grace = made.data.p.databaseId;
  page = await site.browser.page();
  await signInAt(site, page, admin, `/?project=${projectId}#/campus/people/${grace}`);
}, 60_000);
afterAll(async () => {
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  if (ctx.task.result?.state !== 'fail') expectClean(site);
});

const image = (color: string) => sharp({ create: { width: 320, height: 240, channels: 3, background: color } }).png().toBuffer();

suite('person photos', () => {
  it('uploads, shows, re-points and deletes photos; refuses a file that is not an image', async () => {
    const { w } = site;
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    const photos = page.getByRole('region', { name: 'Photos' });
    await photos.getByText('No photo yet.').waitFor();
    const form = photos.getByRole('group', { name: 'Upload a photo' });
    await form.getByLabel(/^Photo/).setInputFiles({ name: 'grace.png', mimeType: 'image/png', buffer: await image('#2a6') });
    await form.getByRole('textbox', { name: 'Caption' }).fill('At the console');
    await form.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText('The photo was uploaded.').waitFor();
    const primary = photos.getByRole('img', { name: 'Primary photo: At the console' });
    await primary.waitFor();
    // The thumbnail really loaded (the cookie reached /thumbnail).
    await expect.poll(() => primary.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
    const first = (await w.app.db.media.findFirstOrThrow({ where: { ContextID: grace } })).ID;
    expect((await w.app.db.person.findUniqueOrThrow({ where: { ID: grace } })).PrimaryPhotoID).toBe(first);

    // Not an image: the server's message, nothing stored.
    await form.getByLabel(/^Photo/).setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a png at all') });
    await form.getByRole('button', { name: 'Upload' }).click();
    await photos.getByText('The uploaded file is not a valid image').waitFor();
    // The browser logs the refused request; that one line is expected.
    expect(site.browser.errors.splice(0)).toEqual([expect.stringContaining('status of 400 (Bad Request)')]);
    expect(await w.app.db.media.count({ where: { ContextID: grace } })).toBe(1);

    await form.getByLabel(/^Photo/).setInputFiles({ name: 'second.png', mimeType: 'image/png', buffer: await image('#a26') });
    await form.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText('The photo was uploaded.').waitFor();
    const second = (await w.app.db.media.findFirstOrThrow({ where: { ContextID: grace, NOT: { ID: first } } })).ID;
    await photos.getByRole('button', { name: `Make primary: Photo ${second}` }).click();
    await page.getByRole('status').getByText('The primary photo was changed.').waitFor();
    await photos.getByRole('img', { name: `Primary photo: Photo ${second}` }).waitFor();
    expect((await w.app.db.person.findUniqueOrThrow({ where: { ID: grace } })).PrimaryPhotoID).toBe(second);
    expect(describeViolations(await axeViolations(page))).toBe('');

    await photos.getByRole('button', { name: `Delete Photo ${second}` }).click();
    await photos.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('status').getByText('The photo was deleted.').waitFor();
    await photos.getByRole('img', { name: 'Primary photo: At the console' }).waitFor();
    expect(await w.app.db.media.count({ where: { ContextID: grace } })).toBe(1);
  });

  it('shows a Student the photos without the upload form or the buttons', async () => {
    await site.browser.context.clearCookies();
    await signInAt(site, page, student, `/?project=${studentProjectId}#/campus/people/${grace}`);
    const photos = page.getByRole('region', { name: 'Photos' });
    await photos.getByRole('img', { name: 'Primary photo: At the console' }).waitFor();
    expect(await photos.getByRole('group', { name: 'Upload a photo' }).count()).toBe(0);
    expect(await photos.getByRole('button').count()).toBe(0);
  });
});
