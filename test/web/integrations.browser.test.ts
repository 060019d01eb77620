// The integrations screen (#/integrations) in Chromium, as the owner and as a read-only member:
// a webhook added through the form with a request of its own per status, tested (the outcome on
// the card, the request at a local receiver); a channel whose delivery fails shows the error, on
// its own test and when another client's test is pushed live; editing (a toggle saved at once,
// both alerts off refused, the form); the server's refusal of a bad address, creating nothing;
// delete, confirmed; and the read-only member, who sees no channel and no write control.
//
// One server and one signed-in page for the whole file, the tests in order (each builds on the
// last). Every change is checked against the API (the page's own cookie), not only the screen.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Account } from '../../src/identity/accounts.ts';
import { testChannel } from '../../src/monitoring/notifications/service.ts';
import { startHttpReceiver, type HttpReceiver } from '../helpers/receivers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { expectClean, joinProject, liveUp, newPerson, ownedProject, screenshots, signInAt, startAppSite, type AppSite } from './app-site.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

let site: AppSite;
let page: Page;
let receiver: HttpReceiver;
let owner: Account;
let reader: Account;
let project: { id: string; name: string };

beforeAll(async () => {
  if (!chromiumFound) return;
  // The receiver listens on 127.0.0.1, a private address webhooks may not reach by default.
  [site, receiver] = await Promise.all([startAppSite({ INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True' }), startHttpReceiver()]);
  const { w } = site;
  owner = await newPerson(w, 'owner');
  reader = await newPerson(w, 'reader');
  project = await ownedProject(w, owner, 'Integrations demo');
  await joinProject(w, project.id, reader, 'readonly');
  page = await site.browser.page();
  await signInAt(site, page, owner, `/?project=${project.id}#/integrations`);
  await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await receiver?.close();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  if (ctx.task.result?.state !== 'fail') expectClean(site);
});

interface ApiChannel {
  uuid: string;
  kind: string;
  name: string;
  target: string | null;
  notifyDown: boolean;
  notifyUp: boolean;
  webhook: { down: { method: string; url: string; body: string; headers: Array<{ name: string; value: string }> }; up: { method: string; url: string } } | null;
}

/** The project's channels as the signed-in person's GraphQL API answers (the page's own cookie). */
async function apiChannels(): Promise<ApiChannel[]> {
  const body = await page.evaluate(async (id) => {
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: 'query($id: ID!) { project(id: $id) { channels { uuid kind name target notifyDown notifyUp webhook { down { method url body headers { name value } } up { method url } } } } }',
        variables: { id },
      }),
    });
    return res.json();
  }, project.id);
  expect(body.errors).toBeUndefined();
  return body.data.project.channels;
}

const card = (name: string): Locator => page.getByRole('article', { name, exact: true });
const side = (form: Locator, which: 'down' | 'up') => form.getByRole('group', { name: which === 'down' ? 'When a check goes down' : 'When a check comes back up' });

async function openAddForm(): Promise<Locator> {
  await page.getByRole('button', { name: 'Add integration' }).click();
  const form = page.getByRole('form', { name: 'New integration' });
  await form.waitFor();
  return form;
}

async function expectNoViolations() {
  const violations = await axeViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

suite('integrations', () => {
  it('adds a webhook with a request per status through the form; Test delivers it to the receiver and says so', async () => {
    await page.getByText('No integrations yet.').waitFor();
    const form = await openAddForm();
    await form.getByLabel('Kind').selectOption({ label: 'Webhook' });
    await form.getByLabel('Name').fill('Deploy hook');
    // A request of one's own for each status is the webhook form's first choice.
    await expect.poll(() => form.getByRole('radio', { name: 'A request of my own for each status' }).isChecked()).toBe(true);
    const down = side(form, 'down');
    await down.getByLabel('Method').selectOption('PUT');
    await down.getByLabel('URL').fill(`${receiver.url}/down?status=$STATUS`);
    await down.getByLabel('Body').fill('{"status": "$STATUS"}');
    await down.getByLabel('Headers').fill('X-Token: s3cret\nContent-Type: application/json');
    await side(form, 'up').getByLabel('Method').selectOption('GET');
    await side(form, 'up').getByLabel('URL').fill(`${receiver.url}/up`);
    await expectNoViolations();
    // Dark mode is audited by quality.browser.test.ts (every screen, both schemes); a picture here.
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(site, page, 'integrations-form-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await form.getByRole('button', { name: 'Add integration' }).click();

    const hook = card('Deploy hook');
    await hook.waitFor();
    await expect.poll(() => page.getByRole('status').first().innerText()).toBe('Added Deploy hook.');
    // Focus is back on the button that opened the form.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Add integration');
    const [stored] = await apiChannels();
    expect(stored).toMatchObject({ kind: 'WEBHOOK', name: 'Deploy hook', target: null, notifyDown: true, notifyUp: true });
    expect(stored!.webhook).toEqual({
      down: { method: 'PUT', url: `${receiver.url}/down?status=$STATUS`, body: '{"status": "$STATUS"}', headers: [{ name: 'X-Token', value: 's3cret' }, { name: 'Content-Type', value: 'application/json' }] },
      up: { method: 'GET', url: `${receiver.url}/up` },
    });
    await expect.poll(() => hook.innerText()).toContain(`PUT ${receiver.url}/down?status=$STATUS`);

    await hook.getByRole('button', { name: 'Test Deploy hook' }).click();
    await expect.poll(() => hook.getByRole('status').innerText()).toMatch(/^Test delivered in \d+ ms\.$/);
    const [request] = await receiver.waitFor(1);
    expect(request).toMatchObject({ method: 'PUT', path: '/down?status=down', body: '{"status": "down"}' });
    expect(request!.headers['x-token']).toBe('s3cret');
    // The test is the channel's latest notification, read again after it.
    await hook.getByText('Recent notifications').click();
    await expect.poll(() => hook.getByRole('listitem').first().innerText()).toMatch(/test, down · sent/);
    await expectNoViolations();
    await screenshots(site, page, 'integrations-list');
  });

  it('a channel whose delivery fails shows its last error: after its own test, and pushed live after another client’s', async () => {
    receiver.respond(500);
    const form = await openAddForm();
    await form.getByLabel('Kind').selectOption({ label: 'Webhook' });
    await form.getByLabel('Name').fill('Flaky receiver');
    await form.getByRole('radio', { name: 'A JSON document to one URL' }).check();
    await form.getByRole('textbox', { name: 'URL' }).fill(`${receiver.url}/flaky`);
    await form.getByRole('button', { name: 'Add integration' }).click();
    const flaky = card('Flaky receiver');
    await flaky.waitFor();
    const stored = (await apiChannels()).find((c) => c.name === 'Flaky receiver')!;
    expect(stored).toMatchObject({ kind: 'WEBHOOK', target: `${receiver.url}/flaky`, webhook: null });

    await flaky.getByRole('button', { name: 'Test Flaky receiver' }).click();
    await expect.poll(() => flaky.getByRole('status').innerText()).toBe('Test failed: Received status code 500');
    await expect.poll(() => flaky.locator('.last-error').innerText()).toBe('Received status code 500');

    // Another client's test (here the domain's, as the CLI's `channel test` runs it): its
    // outcome arrives over the live connection, with no reload and no press here.
    receiver.respond(503);
    await liveUp(page);
    await testChannel(site.w.app.db, site.w.app.notifier, project.id, stored.uuid, site.w.clock.now());
    await expect.poll(() => flaky.locator('.last-error').innerText()).toBe('Received status code 503');
    receiver.respond(200);
    await screenshots(site, page, 'integrations-last-error');
  });

  it('edits a channel: a toggle is saved at once, the form changes its name and requests', async () => {
    const hook = card('Deploy hook');
    await hook.getByRole('checkbox', { name: 'Up alerts' }).uncheck();
    await expect.poll(() => hook.getByRole('status').innerText()).toBe('Up alerts off.');
    expect((await apiChannels()).find((c) => c.name === 'Deploy hook')).toMatchObject({ notifyDown: true, notifyUp: false });
    // Both off is refused: the server's message, and the box shows what is stored again.
    const downBox = hook.getByRole('checkbox', { name: 'Down alerts' });
    await downBox.click();
    await expect.poll(() => hook.getByRole('alert').innerText()).toBe('a channel must notify of down, up or both');
    await expect.poll(() => downBox.isChecked()).toBe(true);

    await hook.getByRole('button', { name: 'Edit Deploy hook' }).click();
    const form = page.getByRole('form', { name: 'Edit Deploy hook' });
    await form.getByLabel('Name').fill('Deploy hook (staging)');
    await side(form, 'down').getByLabel('URL').fill(`${receiver.url}/staging-down`);
    await side(form, 'down').getByLabel('Body').fill('');
    await side(form, 'down').getByLabel('Method').selectOption('GET');
    await form.getByRole('button', { name: 'Save changes' }).click();

    const edited = card('Deploy hook (staging)');
    await edited.waitFor();
    await expect.poll(() => edited.getByRole('status').innerText()).toBe('Changes saved.');
    expect(await edited.getByRole('alert').count()).toBe(0);
    const stored = (await apiChannels()).find((c) => c.name === 'Deploy hook (staging)');
    expect(stored?.webhook?.down).toMatchObject({ method: 'GET', url: `${receiver.url}/staging-down`, body: '' });
    expect(stored?.webhook?.up.url).toBe(`${receiver.url}/up`);
    // The form sent the "up" box as the card showed it: still off.
    expect(stored).toMatchObject({ notifyDown: true, notifyUp: false });
  });

  it('a bad address shows the server’s message beside the form and creates nothing', async () => {
    const before = (await apiChannels()).length;
    const form = await openAddForm();
    await form.getByLabel('Kind').selectOption({ label: 'Email' });
    await form.getByLabel('Email address').fill('not-an-email');
    await form.getByRole('button', { name: 'Add integration' }).click();
    await expect.poll(() => form.getByRole('alert').innerText()).toBe('Not saved: value is not a valid email address');
    expect((await apiChannels()).length).toBe(before);

    // Corrected, the same form adds it.
    await form.getByLabel('Email address').fill('ops@example.org');
    await form.getByRole('button', { name: 'Add integration' }).click();
    const added = card('ops@example.org');
    await added.waitFor();
    expect((await apiChannels()).map((c) => c.target)).toContain('ops@example.org');
    // Not the owner's own address: it waits for its recipient, and says so.
    expect(await added.getByText('Waiting for ops@example.org to confirm', { exact: false }).count()).toBe(1);
    // This site has no mail settings: asking again gets the server's reason.
    await added.getByRole('button', { name: 'Send the confirmation link to ops@example.org again' }).click();
    await expect.poll(() => added.getByRole('alert').innerText()).toBe('mail is not configured on this server (EMAIL_HOST)');
  });

  it('offers only the kinds this server can send', async () => {
    const form = await openAddForm();
    const kinds = await form.getByLabel('Kind').locator('option').allInnerTexts();
    expect(kinds).toContain('Email');
    expect(kinds).toContain('Webhook');
    // No TELEGRAM_TOKEN, no PUSHOVER_API_TOKEN, SHELL_ENABLED off by default.
    expect(kinds).not.toContain('Telegram');
    expect(kinds).not.toContain('Pushover');
    expect(kinds).not.toContain('Shell command');

    // A closed choice is a select: ntfy's priorities, "send nothing" for up.
    await form.getByLabel('Kind').selectOption({ label: 'ntfy' });
    await form.getByLabel('Topic').fill('campus-alerts');
    await form.getByLabel('Priority when down').selectOption({ label: 'Max (5)' });
    await form.getByLabel('Priority when up').selectOption({ label: 'Send nothing (0)' });
    await form.getByRole('button', { name: 'Add integration' }).click();
    await card('campus-alerts').or(page.getByRole('article').filter({ hasText: 'campus-alerts' })).first().waitFor();
    const ntfy = (await apiChannels()).find((c) => c.kind === 'NTFY');
    expect(JSON.parse(ntfy!.target!)).toEqual({ priority: 5, priority_up: 0, token: '', topic: 'campus-alerts', url: 'https://ntfy.sh' });
    expect(ntfy).toMatchObject({ notifyDown: true, notifyUp: false });
    // Removed again (the card's own button), so the tests after see the list they expect.
    const ntfyCard = page.getByRole('article').filter({ hasText: 'campus-alerts' }).first();
    await ntfyCard.getByRole('button', { name: /^Delete / }).click();
    await ntfyCard.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(async () => (await apiChannels()).some((c) => c.kind === 'NTFY')).toBe(false);
  });

  it('deletes a channel once confirmed', async () => {
    const flaky = card('Flaky receiver');
    await flaky.getByRole('button', { name: 'Delete Flaky receiver' }).click();
    // Asked first: nothing is deleted until "Yes".
    const question = flaky.getByRole('group', { name: 'Checks stop notifying it. Delete this integration?' });
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect((await apiChannels()).some((c) => c.name === 'Flaky receiver')).toBe(true);

    await flaky.getByRole('button', { name: 'Delete Flaky receiver' }).click();
    await question.getByRole('button', { name: 'Yes, delete' }).click();
    await flaky.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('status').first().innerText()).toBe('Deleted Flaky receiver.');
    expect((await apiChannels()).map((c) => c.name).sort()).toEqual(['', 'Deploy hook (staging)']);
  });

  it('a read-only member sees no channels and no write control', async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Username or email').waitFor();
    await signInAt(site, page, reader, `/?project=${project.id}#/integrations`);
    await page.getByText('Read-only members do not see the project\'s integrations').waitFor();
    for (const name of ['Add integration', /^Test /, /^Edit /, /^Delete /]) expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(await page.getByRole('article').count()).toBe(0);
    await expectNoViolations();
    await screenshots(site, page, 'integrations-read-only');
  });
});
