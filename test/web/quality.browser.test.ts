// "Made for people" (issue #25): every page of the management app, in a real browser (Debian's
// Chromium via playwright-core) against a real server, in light and in dark mode, at 1280 and at
// 375 px wide: axe-core finds no serious or critical violation, nothing overflows the phone's
// width, and the keyboard alone reaches the main controls (with a visible focus ring).
//
// Each page is a test of its own, so a failure names the screen; each test checks every mode
// and width before failing, and the end of the file prints every finding by screen (the lead
// routes them to the screen's owner). Screenshots go to test-output/screenshots/quality-*.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Account } from '../../src/identity/accounts.ts';
import { hashSecret, newSecret } from '../../src/identity/tokens.ts';
import { rotateKey } from '../../src/monitoring/projects/service.ts';
import type { CreatedProject } from '../../src/monitoring/projects/service.ts';
import { gql } from '../helpers/gql.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { chromiumFound, isLocal, reportFailedPages } from './browser.ts';
import { joinProject, newPerson, ownedProject, signInAt, startAppSite, type AppSite } from './app-site.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

const PHONE = 375;
const DESKTOP = 1280;
/** How long a screen may take to show its heading (a lazily loaded chunk, then its data). */
const READY = 10_000;
const COURSE = 'Quantum Basics';

let site: AppSite;
let person: Account;
let project: { id: string; name: string };
let key: string;
let invitationToken: string;
let page: Page;

/** Every finding of the run by screen, printed at the end. */
const findings = new Map<string, string[]>();

beforeAll(async () => {
  if (!chromiumFound) return;
  // Sign-up on: the sign-in page then offers the sign-up form, a page of its own to check.
  site = await startAppSite({ REGISTRATION_OPEN: 'True' });
  const { w } = site;
  // An administrator: the campus screens show them everything there is to check.
  person = await newPerson(w, 'quality', 'Administrator');
  project = await ownedProject(w, person, 'Quality');
  key = await rotateKey(w.app.db, project.id, 'api_key');
  await rotateKey(w.app.db, project.id, 'api_key_readonly');
  await joinProject(w, project.id, await newPerson(w, 'member'), 'regular');

  // A check of every status, so every status colour is on the page axe reads.
  const newCheck = async (name: string, body: Record<string, unknown> = {}) => {
    const created = await w.api('POST', '/api/v3/checks/', { key, body: { name, timeout: 86400, grace: 3600, ...body } });
    expect(created.status).toBe(201);
    return { uuid: created.json.uuid as string, ping: new URL(created.json.ping_url).pathname };
  };
  const backup = await newCheck('backup', { tags: 'nightly public' });
  const payroll = await newCheck('payroll', { tags: 'public' });
  const reports = await newCheck('reports', { timeout: 3600 });
  const archive = await newCheck('archive');
  await newCheck('a-check-with-a-long-name-that-a-phone-must-wrap-nightly-campus-database-backup');
  await newCheck('fresh');
  for (const c of [backup, reports]) expect((await w.ping(c.ping)).status).toBe(200);
  expect((await w.ping(`${payroll.ping}/fail`)).status).toBe(200);
  expect((await w.api('POST', `/api/v3/checks/${archive.uuid}/pause`, { key })).status).toBe(200);
  // reports (timeout 1 h) is late, backup (1 day) still up.
  w.clock.advance(3660_000);

  await w.channel({ id: project.id } as CreatedProject, { kind: 'email', value: 'ops@example.org', name: 'Ops mail' });
  const published = await gql(w, 'mutation { setStatusPage(slug: "quality", tags: ["public"]) { statusPage { url } } }', {}, key);
  expect(published.errors).toBeUndefined();

  const staff = (await w.campusToken('Staff')).token;
  expect((await w.campus('POST', '/courses/create', { token: staff, fields: { Title: COURSE, Code: 'PHYS9' } })).status).toBeLessThan(300);

  // An invitation as the mail would carry it (sending one needs a mail server; the page does not).
  invitationToken = newSecret();
  const now = w.clock.now();
  await w.app.db.projectInvitation.create({
    data: { projectId: project.id, email: 'newcomer@example.org', role: 'regular', tokenHash: hashSecret(invitationToken), invitedById: person.id, createdAt: now, expiresAt: new Date(now.getTime() + 86_400_000) },
  });
  page = await site.browser.page();
}, 90_000);

afterAll(async () => {
  const lines = [...findings].filter(([, list]) => list.length).map(([screen, list]) => `\n## ${screen}\n${list.join('\n')}`);
  console.log(lines.length ? `quality findings by screen:${lines.join('\n')}` : 'quality: no findings on any screen');
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  // reportFailedPages closes the pages it reported on: the next test needs one.
  if (site && page.isClosed()) page = await site.browser.page();
});

const frames = (p: Page) => p.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

/** The main heading of the screen, once no "Loading…" is left in it. */
async function heading(p: Page, name?: string | RegExp): Promise<void> {
  await p.locator('main h1').filter(name ? { hasText: name } : {}).first().waitFor({ timeout: READY });
  await p.locator('main').getByText('Loading…', { exact: true }).first().waitFor({ state: 'detached', timeout: READY });
}

/** The elements sticking out past the viewport's right edge (the outermost of each): what makes a phone scroll sideways. */
function overflowing(p: Page): Promise<{ scrollWidth: number; culprits: string[] }> {
  return p.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    const describe = (el: Element) => {
      const cls = el.getAttribute('class') ? `.${el.getAttribute('class')!.trim().split(/\s+/).join('.')}` : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50);
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls} (right edge ${Math.round(el.getBoundingClientRect().right)} px)${text ? ` "${text}"` : ''}`;
    };
    const over = (el: Element) => el.getBoundingClientRect().right > limit + 0.5 && el.getBoundingClientRect().width > 0;
    // Inside a box that clips or scrolls sideways, an element widens that box, not the page
    // (unless positioned: it may escape the box, as a visually hidden label in a table did).
    const clipped = (el: Element) => {
      if (['absolute', 'fixed'].includes(getComputedStyle(el).position)) return false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    const culprits = [...document.body.querySelectorAll('*')].filter((el) => over(el) && !clipped(el) && !(el.parentElement && el.parentElement !== document.body && over(el.parentElement)));
    return { scrollWidth: document.documentElement.scrollWidth, culprits: culprits.slice(0, 6).map(describe) };
  });
}

/**
 * Audits the page as it is (its screen shown): axe in light and dark at both widths, the
 * overflow at 375 px, screenshots of each. Returns the problems, one string each.
 */
async function audit(p: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Map<string, string[]>();
  for (const colorScheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme });
    for (const width of [DESKTOP, PHONE]) {
      await p.setViewportSize({ width, height: 800 });
      await frames(p);
      const mode = `${colorScheme} ${width}px`;
      if (width === PHONE) {
        const { scrollWidth, culprits } = await overflowing(p);
        if (scrollWidth > PHONE) problems.push(`overflow (${mode}): the page is ${scrollWidth} px wide; sticking out: ${culprits.join('; ')}`);
      }
      for (const v of await axeViolations(p)) {
        // The same violation in several modes is one finding, naming the modes.
        const text = describeViolations([v]);
        seen.set(text, [...(seen.get(text) ?? []), mode]);
      }
      await site.browser.screenshot(p, `quality-${name}-${colorScheme}-${width}`);
    }
  }
  for (const [text, modes] of seen) problems.push(`axe (${modes.join(', ')}): ${text}`);
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: DESKTOP, height: 800 });
  return problems;
}

/** Opens the screen with `open`, audits it, records and asserts what was found. */
async function check(name: string, open: (p: Page) => Promise<void>) {
  let problems: string[];
  try {
    await open(page);
    problems = await audit(page, name);
  } catch (err) {
    problems = [`could not open the screen: ${(err as Error).message.split('\n')[0]}`];
  }
  // Console errors and requests leaving this machine are findings of this screen too (taken
  // here, so one screen's errors are not blamed on the next).
  problems.push(...site.browser.errors.splice(0).map((e) => `console: ${e.slice(0, 300)}`));
  problems.push(...site.browser.requests.splice(0).filter((u) => !isLocal(u)).map((u) => `request leaving this machine: ${u}`));
  findings.set(name, problems);
  expect(problems, `${name}:\n${problems.join('\n')}`).toEqual([]);
}

interface TabResult {
  /** The controls Tab never reached (or that are not on the page). */
  missed: string[];
  /** Controls reached whose focus shows no ring (no outline, no box-shadow). */
  invisible: string[];
}

/** Presses Tab from the top of the page up to `max` times, noting which of `targets` receive focus and whether it shows. */
async function tabThrough(p: Page, targets: Record<string, Locator>, max = 60): Promise<TabResult> {
  const names = Object.keys(targets);
  const absent = new Set<string>();
  for (const [i, n] of names.entries()) {
    const el = targets[n]!.first();
    if ((await el.count()) === 0) absent.add(n);
    else await el.evaluate((node, mark) => node.setAttribute('data-tab-target', mark), String(i));
  }
  await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const reached = new Set<string>();
  const invisible = new Set<string>();
  for (let i = 0; i < max && reached.size + absent.size < names.length; i++) {
    await p.keyboard.press('Tab');
    const focus = await p.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      return { mark: el.getAttribute('data-tab-target'), ring };
    });
    if (focus?.mark == null) continue;
    const n = names[Number(focus.mark)]!;
    reached.add(n);
    if (!focus.ring) invisible.add(n);
  }
  const missed = names.filter((n) => !reached.has(n)).map((n) => (absent.has(n) ? `${n} (not on the page)` : n));
  return { missed, invisible: [...invisible] };
}

async function keyboard(name: string, targets: (p: Page) => Record<string, Locator>) {
  const { missed, invisible } = await tabThrough(page, targets(page));
  const problems = [...missed.map((m) => `keyboard: Tab never reaches ${m}`), ...invisible.map((m) => `keyboard: ${m} shows no focus ring when reached by Tab`)];
  findings.set(`${name} (keyboard)`, problems);
  expect(problems, `${name}:\n${problems.join('\n')}`).toEqual([]);
}

const signedIn = (hash = '') => async (p: Page) => {
  await p.goto(`${site.site}/?project=${project.id}${hash}`);
  await p.getByRole('button', { name: 'Sign out', exact: true }).waitFor({ timeout: READY });
};

suite('pages before signing in', () => {
  it('sign-in', () => check('sign-in', async (p) => {
    await p.goto(`${site.site}/`);
    await heading(p, 'Sign in');
    await p.getByRole('button', { name: 'Create an account' }).waitFor({ timeout: READY });
  }), 90_000);

  it('sign-in, by keyboard', async () => {
    await page.goto(`${site.site}/`);
    await heading(page, 'Sign in');
    await keyboard('sign-in', (p) => ({
      'the username field': p.getByLabel('Username or email'),
      'the password field': p.getByLabel('Password', { exact: true }),
      'the "Sign in" button': p.getByRole('button', { name: 'Sign in', exact: true }),
    }));
  }, 60_000);

  it('sign-up', () => check('sign-up', async (p) => {
    await p.goto(`${site.site}/`);
    await p.getByRole('button', { name: 'Create an account' }).click();
    await p.getByRole('form', { name: 'Create an account' }).waitFor();
  }), 90_000);

  it('read-only display (API key form)', () => check('key-display-form', async (p) => {
    await p.goto(`${site.site}/`);
    await p.getByRole('button', { name: 'Use an API key (read-only display)' }).click();
    await heading(p);
  }), 90_000);

  it('public status page', () => check('status-page', async (p) => {
    await p.goto(`${site.site}/status/quality`);
    await p.locator('tr[data-check="payroll"]').waitFor({ timeout: READY });
    await p.locator('[data-live="websocket"], [data-live="sse"]').first().waitFor({ timeout: READY });
  }), 90_000);

  it('status page not found', () => check('status-page-missing', async (p) => {
    await p.goto(`${site.site}/status/nobody`);
    await heading(p, 'Status page not found');
    // The document's own 404 is the one console error Chromium reports.
    site.browser.errors.splice(0, site.browser.errors.length, ...site.browser.errors.filter((e) => !/status of 404/.test(e)));
  }), 90_000);

  it('emailed invitation', () => check('invitation', async (p) => {
    await p.goto(`${site.site}/invite/${invitationToken}`);
    await heading(p, 'Join');
  }), 90_000);

  for (const [kind, title] of [['reset', 'Choose a new password'], ['sign-in', 'Sign in with your link'], ['verify', 'Confirm your email address']] as const) {
    it(`emailed ${kind} link`, () => check(`link-${kind}`, async (p) => {
      // These pages act on a press, not on load: any token shows the page.
      await p.goto(`${site.site}/${kind}/${newSecret()}`);
      await heading(p, title);
    }), 90_000);
  }
});

suite('a signed-in person\'s screens', () => {
  beforeAll(async () => {
    if (!chromiumFound) return;
    await site.browser.context.clearCookies();
    await signInAt(site, page, person, `/?project=${project.id}`);
  }, 60_000);

  it('checks list', () => check('checks', async (p) => {
    await signedIn()(p);
    await p.locator('tr[data-check="payroll"] [data-status="DOWN"]').waitFor({ timeout: READY });
    await p.locator('[data-status="GRACE"]').first().waitFor({ timeout: READY });
  }), 90_000);

  it('checks list, by keyboard', async () => {
    await signedIn()(page);
    await page.locator('tr[data-check="backup"]').waitFor({ timeout: READY });
    await keyboard('checks', (p) => ({
      'the project switcher': p.locator('header select').first(),
      'the "Integrations" tab': p.getByRole('link', { name: 'Integrations', exact: true }),
      'the "Sign out" button': p.getByRole('button', { name: 'Sign out', exact: true }),
      // A link styled as a button, or a button: either is reached by Tab.
      'the "Add check" control': p.getByRole('link', { name: 'Add check', exact: true }).or(p.getByRole('button', { name: 'Add check', exact: true })),
      'the first check\'s link': p.locator('tr[data-check] a').first(),
    }));
  }, 60_000);

  it('a check\'s page', () => check('check-page', async (p) => {
    await signedIn()(p);
    await p.locator('tr[data-check="payroll"] a').first().click();
    await heading(p, 'payroll');
  }), 90_000);

  it('integrations', () => check('integrations', async (p) => {
    await signedIn('#/integrations')(p);
    await heading(p);
  }), 90_000);

  it('project settings', () => check('project-settings', async (p) => {
    await signedIn('#/project')(p);
    await heading(p);
  }), 90_000);

  it('members', () => check('members', async (p) => {
    await signedIn('#/members')(p);
    await heading(p, 'Members');
  }), 90_000);

  it('API keys', () => check('keys', async (p) => {
    await signedIn('#/keys')(p);
    await heading(p, 'API keys');
  }), 90_000);

  it('audit log', () => check('audit', async (p) => {
    await signedIn('#/audit')(p);
    await heading(p, 'Audit log');
  }), 90_000);

  it('account settings', () => check('account-settings', async (p) => {
    await signedIn('#/settings')(p);
    await heading(p, 'Account settings');
  }), 90_000);

  it('new project', () => check('new-project', async (p) => {
    await signedIn('#/new-project')(p);
    await heading(p, 'New project');
  }), 90_000);

  it('campus records', () => check('campus', async (p) => {
    await signedIn('#/campus')(p);
    await heading(p);
  }), 90_000);

  it('a campus record\'s page', () => check('campus-record', async (p) => {
    await signedIn('#/campus')(p);
    await heading(p);
    // The record is one link away, or two when the screen lists the kinds first.
    const record = p.getByRole('link', { name: COURSE });
    if (!(await record.first().isVisible().catch(() => false))) {
      const kind = p.locator('main').getByRole('link', { name: /courses/i }).first();
      if (await kind.isVisible().catch(() => false)) await kind.click();
    }
    await record.first().click({ timeout: READY });
    await heading(p, COURSE);
  }), 90_000);
});
