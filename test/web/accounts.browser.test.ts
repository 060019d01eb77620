// Accounts in a real browser (Debian's Chromium via playwright-core) against a real server: a
// person signs in at / with a username or email and a password (then a second factor when on),
// sees their projects and switches between them, live updates over the session cookie; the
// authenticator app and a security key (Chromium's virtual authenticator) set up in the settings
// and asked for at the next sign-in; a newcomer's project with its keys, a second person invited
// by mail who accepts by the link, a role change to read-only and the audit log of who did what;
// the password reset and sign-in links of the mail; signing out ends the cookie.
//
// The page is opened at http://localhost:<port>, and SITE_ROOT points there: WebAuthn's relying
// party id is SITE_ROOT's hostname, and Chromium refuses an IP address as one.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { createWorld, type World } from '../helpers/world.ts';
import { createAccount } from '../../src/identity/accounts.ts';
import { addMember } from '../../src/identity/memberships.ts';
import { sessionCookieName } from '../../src/http/session-cookie.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/receivers.ts';
import { chromiumFound, isLocal, launchBrowser, type Browser, reportFailedPages } from './browser.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

const PASSWORD = 'correct horse battery';
const LIVE = 1000;
let w: World;
let sink: SmtpSink;
let site: string;
let browser: Browser;
/** A second browser (its own cookie jar): another person at the same time. */
let other: Browser;

beforeAll(async () => {
  if (!chromiumFound) return;
  sink = await startSmtpSink();
  [w, browser, other] = await Promise.all([createWorld({ EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(sink.port), EMAIL_USE_TLS: 'False' }), launchBrowser(), launchBrowser()]);
  site = w.url.replace('127.0.0.1', 'localhost');
  w.app.deps.settings.siteRoot = site;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await other?.close();
  await w?.stop();
  await sink?.close();
});
// Each test starts signed out: the profile's cookie jar outlives a test's pages.
beforeEach(async () => {
  await browser?.context.clearCookies();
  await other?.context.clearCookies();
});
// A failed test leaves its pages open: say what they showed (CI keeps the screenshots too).
afterEach(async (ctx) => {
  for (const b of [browser, other]) await reportFailedPages(b, ctx);
});

let people = 0;
async function newPerson(prefix: string) {
  const n = ++people;
  return createAccount(w.app.db, { username: `${prefix}${n}`, email: `${prefix}${n}@example.org`, password: PASSWORD, firstName: prefix });
}
const membership = { get db() { return w.app.db; }, get events() { return w.app.deps.events; }, get clock() { return w.clock; } };

async function newCheck(key: string, name: string) {
  const created = await w.api('POST', '/api/v3/checks/', { key, body: { name, timeout: 3600 } });
  expect(created.status).toBe(201);
  return { uuid: created.json.uuid as string, ping: new URL(created.json.ping_url).pathname };
}

/** Fills the sign-in form at / and presses "Sign in". */
async function submitSignIn(page: Page, login: string, password = PASSWORD) {
  if (!page.url().startsWith(site)) await page.goto(`${site}/`);
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
const signedIn = (page: Page) => page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByLabel('Username or email').waitFor();
}

const live = (page: Page) => page.locator('[data-live="websocket"], [data-live="sse"]').first().waitFor();
const codeAt = (secret: string, at: Date) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() });
/** The form a PasswordAction or another labelled form opened. */
const form = (page: Page, name: string): Locator => page.getByRole('form', { name });

/** The person's session cookie as the browser holds it (HttpOnly: no script sees it). */
async function sessionCookie(b: Browser) {
  return (await b.context.cookies(site)).find((c) => c.name === sessionCookieName(false));
}
const viewerWith = async (cookie: string) =>
  (await (await fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: `${sessionCookieName(false)}=${cookie}` }, body: JSON.stringify({ query: '{ viewer { username } }' }) })).json()) as {
    data: { viewer: { username: string } | null };
  };

/** The link of page `kind` (invite, reset, sign-in) in the newest mail to `to`. */
async function mailedLink(to: string, kind: string): Promise<string> {
  const pattern = new RegExp(`${site}/${kind}/[A-Za-z0-9_-]+`);
  for (let i = 0; i < 50; i++) {
    const mail = sink.messages.filter((m) => m.to.includes(to)).at(-1);
    const link = mail && pattern.exec(mail.parsed.text ?? '')?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${kind} link mailed to ${to}`);
}

/** Nothing went wrong in any page so far, and nothing left this machine. */
function expectClean(b = browser) {
  expect(b.errors.splice(0)).toEqual([]);
  expect(b.requests.splice(0).filter((u) => !isLocal(u))).toEqual([]);
}

suite('signing in with an account', () => {
  it('signs in with username and password, shows the projects, switches between them and stays live over the cookie', async () => {
    const ada = await newPerson('ada');
    await addMember(membership, w.alice.id, ada.id, 'manager');
    await addMember(membership, w.bob.id, ada.id, 'readonly');
    const backup = await newCheck(w.alice.api_key, 'backup');
    await newCheck(w.bob.api_key, 'payroll');

    const page = await browser.page();
    await page.goto(`${site}/`);
    // The account form first; the key form is the secondary way in.
    await page.getByRole('button', { name: 'Use an API key (read-only display)' }).waitFor();
    expect(await page.locator('#key').count()).toBe(0);
    await submitSignIn(page, ada.username);
    await signedIn(page);
    const switcher = page.getByLabel('Project', { exact: true });
    expect(await switcher.locator('option').allTextContents()).toEqual(['Alice', 'Bob']);
    await page.locator('tr[data-check="backup"]').waitFor();
    expect(new URL(page.url()).searchParams.get('project')).toBe(w.alice.id);
    expect(await page.locator('[data-role]').getAttribute('data-role')).toBe('MANAGER');

    // Live over the session cookie: a ping's new status arrives without reloading.
    await live(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    expect((await w.ping(`${backup.ping}/fail`)).status).toBe(200);
    await page.locator('tr[data-check="backup"] [data-status="DOWN"]').waitFor({ timeout: LIVE * 5 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // The session is an HttpOnly cookie: no key in storage, nothing for scripts to read.
    expect(await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie])).toEqual([0, 0, '']);
    expect((await sessionCookie(browser))?.httpOnly).toBe(true);
    await browser.screenshot(page, 'account-projects');

    await switcher.selectOption({ label: 'Bob' });
    await page.locator('tr[data-check="payroll"]').waitFor();
    expect(await page.locator('tr[data-check="backup"]').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('project')).toBe(w.bob.id);
    expect(await page.locator('[data-role]').getAttribute('data-role')).toBe('READONLY');
    // The chosen project is in the address: a reload opens it again; back returns to the first.
    await page.reload();
    await page.locator('tr[data-check="payroll"]').waitFor();
    await page.goBack();
    await page.locator('tr[data-check="backup"]').waitFor();
    expectClean();
    await page.close();
  }, 60_000);

  it('stays live over Server-Sent Events with the cookie when the WebSocket cannot open', async () => {
    const ivy = await newPerson('ivy');
    await addMember(membership, w.alice.id, ivy.id, 'regular');
    const sse = await newCheck(w.alice.api_key, 'sse job');
    expect((await w.ping(sse.ping)).status).toBe(200);
    const page = await browser.page();
    // As a proxy that refuses the upgrade would.
    await page.routeWebSocket(/\/graphql$/, (ws) => ws.close());
    await submitSignIn(page, ivy.username);
    await signedIn(page);
    const row = page.locator('tr[data-check="sse job"]');
    await row.locator('[data-status="UP"]').waitFor();
    await page.locator('[data-live="sse"]').waitFor();
    expect((await w.ping(`${sse.ping}/fail`)).status).toBe(200);
    await row.locator('[data-status="DOWN"]').waitFor({ timeout: LIVE * 5 });
    expectClean();
    await page.close();
  }, 60_000);

  it('says so for a wrong password, and signs in with the email address too', async () => {
    const bea = await newPerson('bea');
    const page = await browser.page();
    await submitSignIn(page, bea.username, 'not the password');
    await page.getByRole('alert').filter({ hasText: 'The username or password you entered was incorrect.' }).waitFor();
    await browser.screenshot(page, 'account-sign-in-refused');
    // The server's refusal is the one error Chromium reports here (none: GraphQL answers 200).
    await submitSignIn(page, bea.email!);
    await signedIn(page);
    // No project yet: the first screen creates one.
    await page.getByRole('heading', { name: 'Create your first project' }).waitFor();
    await signOut(page);
    expectClean();
    await page.close();
  }, 60_000);

  it('turns on the authenticator app in the settings, then asks for its code at the next sign-in', async () => {
    const cy = await newPerson('cy');
    await addMember(membership, w.alice.id, cy.id, 'regular');
    const page = await browser.page();
    await submitSignIn(page, cy.username);
    await signedIn(page);
    await page.getByRole('link', { name: cy.username }).click();
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const setupForm = form(page, 'Set up an authenticator app');
    await setupForm.getByLabel('Current password').fill(PASSWORD);
    await setupForm.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = await page.getByLabel('Secret key').inputValue();
    expect(await page.getByLabel('Setup link').inputValue()).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    await page.getByLabel('Code from the app').fill(codeAt(secret, w.clock.now()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('region', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.locator('li').count()).toBe(10);
    await page.locator('[data-totp="on"]').waitFor();
    await browser.screenshot(page, 'account-totp-on');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    expect(await codes.count()).toBe(0);

    await signOut(page);
    await submitSignIn(page, cy.username);
    const field = page.getByLabel('Authentication code');
    await field.waitFor();
    await browser.screenshot(page, 'account-second-factor');
    // A code is good once: the next one is that of the next 30 s step.
    w.clock.advance(30_000);
    await field.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'that second factor was not accepted' }).waitFor();
    await field.fill(codeAt(secret, w.clock.now()));
    await page.getByRole('button', { name: 'Verify' }).click();
    await signedIn(page);
    await page.locator('tr[data-check="backup"]').waitFor();
    expectClean();
    await page.close();
  }, 60_000);

  it('registers a security key (Chromium’s virtual authenticator) and signs in with it', async () => {
    const dee = await newPerson('dee');
    await addMember(membership, w.alice.id, dee.id, 'regular');
    const page = await browser.page();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await submitSignIn(page, dee.username);
    await signedIn(page);
    await page.goto(`${site}/?project=${w.alice.id}#/settings`);

    await page.getByRole('button', { name: 'Add a security key' }).click();
    const add = form(page, 'Add a security key');
    await add.getByLabel('Name of the key').fill('Test key');
    await add.getByLabel('Current password').fill(PASSWORD);
    await add.getByRole('button', { name: 'Add a security key' }).click();
    await page.locator('tr[data-security-key="Test key"]').waitFor();
    // The first factor comes with recovery codes, shown once.
    await page.getByRole('region', { name: 'Recovery codes' }).waitFor();
    await browser.screenshot(page, 'account-security-key');

    await signOut(page);
    await submitSignIn(page, dee.username);
    await page.getByRole('button', { name: 'Use your security key' }).click();
    await signedIn(page);
    await page.goto(`${site}/?project=${w.alice.id}#/settings`);
    const row = page.locator('tr[data-security-key="Test key"]');
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).not.toBe('never');
    await cdp.detach();
    expectClean();
    await page.close();
  }, 60_000);

  it('signs out everywhere else from the settings, then out here: back to the sign-in form, and the cookie no longer works', async () => {
    const eve = await newPerson('eve');
    await addMember(membership, w.alice.id, eve.id, 'regular');
    const elsewhere = await other.page();
    await submitSignIn(elsewhere, eve.username);
    await signedIn(elsewhere);
    const page = await browser.page();
    await submitSignIn(page, eve.username);
    await signedIn(page);
    await page.getByRole('link', { name: eve.username }).click();
    const sessions = page.locator('table.sessions tbody tr');
    await sessions.nth(1).waitFor();
    expect(await page.locator('tr[data-current]').count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Yes, sign out everywhere' }).click();
    await page.getByRole('status').filter({ hasText: 'Signed out of 1 other session.' }).waitFor();
    // The status may show before the table re-renders: wait for the other row to go.
    await sessions.nth(1).waitFor({ state: 'detached' });
    expect(await sessions.count()).toBe(1);
    await elsewhere.reload();
    await elsewhere.getByLabel('Username or email').waitFor();
    await elsewhere.close();
    expectClean(other);

    const cookie = (await sessionCookie(browser))!.value;
    expect((await viewerWith(cookie)).data.viewer).toEqual({ username: eve.username });
    await signOut(page);
    expect(await sessionCookie(browser)).toBeUndefined();
    expect((await viewerWith(cookie)).data.viewer).toBeNull();
    expect(new URL(page.url()).search).toBe('');
    // A reload stays signed out.
    await page.reload();
    await page.getByLabel('Username or email').waitFor();
    expectClean();
    await page.close();
  }, 60_000);
});

suite('mailed links', () => {
  it('resets a forgotten password by the mailed link, and signs in by a mailed sign-in link', async () => {
    const gus = await newPerson('gus');
    const page = await browser.page();
    await page.goto(`${site}/`);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Your username or email').fill(gus.username);
    await page.getByRole('button', { name: 'Send a reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'If that account exists' }).waitFor();
    await page.goto(await mailedLink(gus.email!, 'reset'));
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('New password again').fill('a brand new secret');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password was changed' }).waitFor();
    await page.getByRole('link', { name: 'Sign in with the new password' }).click();
    await submitSignIn(page, gus.username, 'a brand new secret');
    await signedIn(page);
    await signOut(page);

    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByLabel('Your email address').fill(gus.email!);
    await page.getByRole('button', { name: 'Send a sign-in link' }).click();
    await page.getByRole('status').filter({ hasText: 'a sign-in link is on its way' }).waitFor();
    const link = await mailedLink(gus.email!, 'sign-in');
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);
    expect(page.url()).toBe(`${site}/`);
    expect(await sessionCookie(browser)).toBeDefined();
    expectClean();
    await page.close();
  }, 60_000);
});

suite('a project with two people', () => {
  it('an invited person with an account signs in on the invitation page and joins as themselves', async () => {
    const manager = await newPerson('hal');
    await addMember(membership, w.alice.id, manager.id, 'manager');
    const fay = await newPerson('fay');
    const page = await browser.page();
    await submitSignIn(page, manager.username);
    await signedIn(page);
    await page.getByRole('link', { name: 'Members' }).click();
    const invite = form(page, 'Invite someone');
    await invite.getByLabel('Email address').fill(fay.email!);
    await invite.getByLabel('Role').selectOption('READONLY');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.locator(`tr[data-invitation="${fay.email}"]`).waitFor();

    const theirs = await other.page();
    await theirs.goto(await mailedLink(fay.email!, 'invite'));
    await theirs.getByRole('heading', { name: 'Join Alice' }).waitFor();
    await theirs.getByRole('button', { name: 'Sign in to accept' }).click();
    await theirs.getByRole('heading', { name: 'Sign in to join Alice' }).waitFor();
    await submitSignIn(theirs, fay.username);
    await theirs.getByRole('button', { name: `Join as ${fay.username}` }).click();
    await signedIn(theirs);
    expect(new URL(theirs.url()).searchParams.get('project')).toBe(w.alice.id);
    await theirs.locator('[data-role="READONLY"]').waitFor();
    await theirs.locator('tr[data-check="backup"]').waitFor();
    expectClean();
    expectClean(other);
    await theirs.close();
    await page.close();
  }, 60_000);

  it('a newcomer creates a project and a key, a second person joins, is made read-only, and the audit log says who did what', async () => {
    const owner = await newPerson('olga');
    const page = await browser.page();
    await submitSignIn(page, owner.username);
    await signedIn(page);
    await page.getByLabel('Project name').fill('Night jobs');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByText('No checks yet.').waitFor();
    const project = new URL(page.url()).searchParams.get('project')!;
    expect(project).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.getByLabel('Project', { exact: true }).locator('option:checked').textContent()).toBe('Night jobs');

    // A key, shown once; a script uses it.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create the API key (read-write)' }).click();
    const key = await page.getByLabel('New API key (read-write)', { exact: true }).inputValue();
    expect(key).toMatch(/^hcw_/);
    await page.locator('tr[data-key="READ_WRITE"]', { hasText: 'exists' }).waitFor();
    await page.reload();
    await page.locator('tr[data-key="READ_WRITE"]', { hasText: 'exists' }).waitFor();
    expect(await page.content()).not.toContain(key);
    const check = await newCheck(key, 'nightly export');
    expect((await w.ping(check.ping)).status).toBe(200);

    // The owner invites a second person by email; they accept by the mailed link with a new account.
    await page.getByRole('link', { name: 'Members' }).click();
    const invite = form(page, 'Invite someone');
    await invite.getByLabel('Email address').fill('max@example.org');
    await invite.getByLabel('Role').selectOption('REGULAR');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to max@example.org.' }).waitFor();
    await page.locator('tr[data-invitation="max@example.org"]').waitFor();
    const link = await mailedLink('max@example.org', 'invite');
    const theirs = await other.page();
    await theirs.goto(link);
    await theirs.getByRole('heading', { name: 'Join Night jobs' }).waitFor();
    expect(await theirs.locator('[data-invitation]').textContent()).toContain(`${owner.username} invited max@example.org to the project Night jobs as regular.`);
    await other.screenshot(theirs, 'invitation-accept');
    const account = form(theirs, 'Create an account');
    await account.getByLabel('Username').fill('max');
    await account.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await account.getByLabel('Password again').fill(PASSWORD);
    await account.getByRole('button', { name: 'Create account and join' }).click();
    await signedIn(theirs);
    expect(new URL(theirs.url()).pathname).toBe('/');
    expect(new URL(theirs.url()).searchParams.get('project')).toBe(project);
    const member = { username: 'max' };
    // The link is used up.
    const again = await other.page();
    await again.goto(link);
    await again.getByRole('alert').filter({ hasText: 'This invitation has expired, was withdrawn or was already accepted.' }).waitFor();
    await again.close();
    await page.reload();
    await page.locator('tr[data-member="max"]').waitFor();
    expect(await page.locator('tr[data-invitation]').count()).toBe(0);

    await theirs.locator('tr[data-check="nightly export"] a').click();
    // They may write: they pause the check (and see it paused, pushed live).
    await theirs.getByRole('button', { name: 'Pause' }).click();
    await theirs.locator('article h1 [data-status="PAUSED"]').waitFor({ timeout: LIVE * 5 });
    expect(await theirs.getByRole('link', { name: 'API keys' }).count()).toBe(0);

    // The owner makes them read-only.
    const role = page.getByLabel(`Role of ${member.username}`);
    await role.selectOption('READONLY');
    await page.getByRole('status').filter({ hasText: `${member.username} is now read-only.` }).waitFor();
    expect(await page.locator(`tr[data-member="${owner.username}"]`).textContent()).toContain('Owner');
    await browser.screenshot(page, 'project-members');

    // The member, read-only now: no write buttons, and the server refuses a write all the same.
    await theirs.reload();
    await theirs.locator('[data-role="READONLY"]').waitFor();
    await theirs.locator('article[data-check="nightly export"]').waitFor();
    expect(await theirs.getByRole('button', { name: /Pause|Resume/ }).count()).toBe(0);
    await theirs.getByRole('link', { name: 'Members' }).click();
    await theirs.locator(`tr[data-member="${owner.username}"]`).waitFor();
    expect(await theirs.getByRole('combobox', { name: /Role of/ }).count()).toBe(0);
    expect(await theirs.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    const refused = await theirs.evaluate(async (id) => {
      const res = await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'mutation($id: ID!) { resumeCheck(id: $id) { status } }', variables: { id } }) });
      return ((await res.json()) as { errors?: Array<{ extensions?: { code?: string } }> }).errors?.[0]?.extensions?.code;
    }, check.uuid);
    // As a read-only key is (Healthchecks' "wrong api key" for writes), or FORBIDDEN.
    expect(refused).toMatch(/^(UNAUTHENTICATED|FORBIDDEN)$/);
    expect((await w.app.db.check.findFirstOrThrow({ where: { projectId: project } })).status).toBe('paused');
    await other.screenshot(theirs, 'project-read-only-member');

    // The audit log: who did what, newest first.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const rows = page.locator('table.audit tbody tr');
    await rows.first().waitFor();
    const log = await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-action'), tr.querySelector('.actor')?.textContent]));
    expect(log).toEqual([
      ['member.role_changed', owner.username],
      ['check.paused', member.username],
      ['invitation.accepted', member.username],
      ['member.added', member.username],
      ['invitation.sent', owner.username],
      ['check.created', 'API key (read-write)'],
      ['key.created', owner.username],
      ['project.created', owner.username],
    ]);
    expect(await rows.first().textContent()).toContain('regular → readonly');
    await browser.screenshot(page, 'project-audit-log');
    expectClean();
    expectClean(other);
    await theirs.close();
    await page.close();
  }, 90_000);
});

suite('email reports', () => {
  it('chooses weekly reports, daily reminders and a time zone in the settings, kept by the server', async () => {
    const fay = await newPerson('fay');
    await addMember(membership, w.alice.id, fay.id, 'regular');
    const page = await browser.page();
    await submitSignIn(page, fay.username);
    await signedIn(page);
    await page.goto(`${site}/?project=${w.alice.id}#/settings`);
    const reports = form(page, 'Email reports');
    await reports.getByLabel('Summary of my checks').selectOption('WEEKLY');
    await reports.getByLabel('While a check is down, remind me').selectOption('DAILY');
    await reports.getByLabel('Time zone').selectOption('Europe/Riga');
    await reports.getByRole('button', { name: 'Save report settings' }).click();
    await reports.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const cookie = (await sessionCookie(browser))!.value;
    const answer = (await (
      await fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: `${sessionCookieName(false)}=${cookie}` }, body: JSON.stringify({ query: '{ viewer { reportSettings { reports nagPeriod timeZone } } }' }) })
    ).json()) as { data: { viewer: { reportSettings: unknown } } };
    expect(answer.data.viewer.reportSettings).toEqual({ reports: 'WEEKLY', nagPeriod: 'DAILY', timeZone: 'Europe/Riga' });
    // A reload shows what was saved.
    await page.reload();
    expect(await form(page, 'Email reports').getByLabel('Summary of my checks').inputValue()).toBe('WEEKLY');
    expectClean();
    await page.close();
  }, 60_000);
});
