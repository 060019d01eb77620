// Sign-up in a real browser (Debian's Chromium via playwright-core) against real servers: with
// REGISTRATION_OPEN=True the sign-in page offers "Create an account"; the form shows the
// server's refusals, then asks the newcomer to check their mail; the mailed link's page confirms
// the address, and the new account signs in. With the default (closed) setting, the page shows
// nothing about sign-up. Set up as accounts.browser.test.ts: the page at http://localhost:<port>
// with SITE_ROOT pointing there, mail to a local SMTP sink.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createWorld, type World } from '../helpers/world.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/receivers.ts';
import { SIGN_UP_CLOSED } from '../../src/identity/email-links.ts';
import { chromiumFound, isLocal, launchBrowser, type Browser, reportFailedPages } from './browser.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

const PASSWORD = 'correct horse battery';
let sink: SmtpSink;
/** REGISTRATION_OPEN=True, mail to the sink. */
let open: World;
/** The defaults: sign-up closed. */
let closed: World;
let browser: Browser;

/** The world's address as the page opens it (localhost, see the header), and its links with it. */
function siteOf(w: World) {
  const site = w.url.replace('127.0.0.1', 'localhost');
  w.app.deps.settings.siteRoot = site;
  return site;
}

beforeAll(async () => {
  if (!chromiumFound) return;
  sink = await startSmtpSink();
  [open, closed, browser] = await Promise.all([
    createWorld({ REGISTRATION_OPEN: 'True', EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(sink.port), EMAIL_USE_TLS: 'False' }),
    createWorld(),
    launchBrowser(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([open?.stop(), closed?.stop()]);
  await sink?.close();
});
// Each test starts signed out: the profile's cookie jar outlives a test's pages.
beforeEach(async () => {
  await browser?.context.clearCookies();
});
// A failed test leaves its pages open: say what they showed.
afterEach((ctx) => reportFailedPages(browser, ctx));

/** The /verify/ link in the newest mail to `to`. */
async function verifyLink(site: string, to: string): Promise<string> {
  const pattern = new RegExp(`${site}/verify/[A-Za-z0-9_-]+`);
  for (let i = 0; i < 50; i++) {
    const mail = sink.messages.filter((m) => m.to.includes(to)).at(-1);
    const link = mail && pattern.exec(mail.parsed.text ?? '')?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no verify link mailed to ${to}`);
}

/** Fills the open sign-up form and presses "Create account". */
async function submitSignUp(page: Page, fields: { username: string; email: string; password: string }) {
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Username', { exact: true }).fill(fields.username);
  await form.getByLabel('Email', { exact: true }).fill(fields.email);
  await form.getByLabel('Password', { exact: true }).fill(fields.password);
  await form.getByRole('button', { name: 'Create account', exact: true }).click();
}
const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).waitFor();

/** Nothing went wrong in any page so far (the server's refusals answer 200), and nothing left this machine. */
function expectClean() {
  expect(browser.errors.splice(0)).toEqual([]);
  expect(browser.requests.splice(0).filter((u) => !isLocal(u))).toEqual([]);
}

suite('sign-up', () => {
  it('creates an account from the sign-in page, confirmed by the mailed link, that then signs in', async () => {
    const site = siteOf(open);
    const page = await browser.page();
    await page.goto(`${site}/`);
    await page.getByRole('button', { name: 'Create an account', exact: true }).click();

    // The server's refusals, as it words them: a short password, then a taken username.
    await submitSignUp(page, { username: 'newcomer', email: 'newcomer@example.org', password: 'short' });
    await alert(page, 'the password must be at least 8 characters');
    await submitSignUp(page, { username: 'newcomer', email: 'newcomer@example.org', password: PASSWORD });
    await page.getByRole('status').filter({ hasText: 'Check your mail: follow the link we sent to confirm your address, then sign in.' }).waitFor();
    // The form is gone, the password with it.
    expect(await page.getByRole('form', { name: 'Create an account' }).count()).toBe(0);
    await browser.screenshot(page, 'sign-up-sent');

    await page.getByRole('button', { name: 'Create an account', exact: true }).click();
    await submitSignUp(page, { username: 'newcomer', email: 'someone-else@example.org', password: PASSWORD });
    await alert(page, 'that username is taken');

    // Not yet confirmed: the account cannot sign in.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Username or email').fill('newcomer');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await alert(page, 'confirm your email address first');

    await page.goto(await verifyLink(site, 'newcomer@example.org'));
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.getByRole('status').filter({ hasText: 'Your address is confirmed' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username or email').fill('newcomer');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    // A new account has no project yet: the first screen creates one.
    await page.getByRole('heading', { name: 'Create your first project' }).waitFor();
    expect(await open.app.db.person.findFirst({ where: { Username: 'newcomer' }, select: { AccountLevel: true } })).toEqual({ AccountLevel: 'User' });
    expectClean();
    await page.close();
  }, 60_000);

  it('shows FORBIDDEN when sign-up closed after the page was loaded', async () => {
    const site = siteOf(open);
    const page = await browser.page();
    await page.goto(`${site}/`);
    await page.getByRole('button', { name: 'Create an account', exact: true }).click();
    const settings = open.app.services.identity.settings;
    settings.registrationOpen = false;
    try {
      await submitSignUp(page, { username: 'latecomer', email: 'latecomer@example.org', password: PASSWORD });
      await alert(page, SIGN_UP_CLOSED);
    } finally {
      settings.registrationOpen = true;
    }
    expect(await open.app.db.person.count({ where: { Username: 'latecomer' } })).toBe(0);
    expectClean();
    await page.close();
  }, 60_000);

  it('shows nothing about sign-up where it is closed (the default)', async () => {
    const site = siteOf(closed);
    const page = await browser.page();
    // Once the page has asked: the answer is in before the assertion.
    const asked = page.waitForResponse(async (res) => res.url().endsWith('/graphql') && (res.request().postData() ?? '').includes('signUpOpen'));
    await page.goto(`${site}/`);
    await page.getByLabel('Username or email').waitFor();
    expect(await (await asked).json()).toEqual({ data: { signUpOpen: false } });
    await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create an account' }).count()).toBe(0);
    expect(await page.getByText(/sign up|create an account/i).count()).toBe(0);
    expectClean();
    await page.close();
  }, 60_000);
});
