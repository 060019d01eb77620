// What the management app's Chromium tests share: a server (a test world, opened at
// http://localhost:<port> with SITE_ROOT there), Chromium, people with accounts and projects,
// signing in as a person does, screenshots at 1280 and 375 px, and "nothing went wrong".
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { createWorld, type World } from '../helpers/world.ts';
import { createAccount, type Account } from '../../src/identity/accounts.ts';
import { addMember, createOwnedProject } from '../../src/identity/memberships.ts';
import type { Role } from '../../src/identity/roles.ts';
import { isLocal, launchBrowser, type Browser } from './browser.ts';

export const PASSWORD = 'correct horse battery';

export interface AppSite {
  w: World;
  browser: Browser;
  /** http://localhost:<port>: the address the page is opened at (and SITE_ROOT). */
  site: string;
  stop(): Promise<void>;
}

export async function startAppSite(env: Record<string, string> = {}): Promise<AppSite> {
  const [w, browser] = await Promise.all([createWorld(env), launchBrowser()]);
  const site = w.url.replace('127.0.0.1', 'localhost');
  w.app.deps.settings.siteRoot = site;
  return {
    w,
    browser,
    site,
    async stop() {
      await browser.close();
      await w.stop();
    },
  };
}

let people = 0;
/** A new account (Slate's AccountLevel `level`, User by default) with PASSWORD. */
export async function newPerson(w: World, prefix: string, level?: string): Promise<Account> {
  const n = ++people;
  return createAccount(w.app.db, { username: `${prefix}${n}`, email: `${prefix}${n}@example.org`, password: PASSWORD, firstName: prefix, level });
}

const membershipDeps = (w: World) => ({ db: w.app.db, events: w.app.deps.events, clock: w.clock });

/** A project `person` owns (no keys yet); its id is the UUID ?project= takes. */
export async function ownedProject(w: World, person: Account, name: string): Promise<{ id: string; name: string }> {
  return createOwnedProject(membershipDeps(w), { personId: person.id, label: person.username }, name);
}

/** Makes `person` a member of the project (its UUID) with `role`. */
export async function joinProject(w: World, projectId: string, person: Account, role: Role) {
  await addMember(membershipDeps(w), projectId, person.id, role);
}

/** Opens `path` (e.g. `/?project=<uuid>#/integrations`), signs in there and waits for the signed-in view. */
export async function signInAt(site: AppSite, page: Page, person: Account, path = '/') {
  await page.goto(`${site.site}${path}`);
  await page.getByLabel('Username or email').fill(person.username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
}

/** Waits until the page's live connection is up (changes are pushed from then on). */
export const liveUp = (page: Page) => page.locator('[data-live="websocket"], [data-live="sse"]').first().waitFor();

/** A full-page screenshot at 1280 px and at 375 px wide (test-output/screenshots/<name>-<width>.png). */
export async function screenshots(site: AppSite, page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await site.browser.screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize(size);
}

/** Nothing went wrong in any page so far, and nothing left this machine. */
export function expectClean(site: AppSite) {
  expect(site.browser.errors.splice(0)).toEqual([]);
  expect(site.browser.requests.splice(0).filter((u) => !isLocal(u))).toEqual([]);
}
