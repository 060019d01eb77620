// Issue #30: a page whose live connection drops (a server restart) and comes back shows the
// current state without a reload. Nothing is pushed while the socket is down, so the screens
// read again once it is up (web/lib/live.ts announces the reconnection through onState).
//
// The page's WebSocket goes through a gate (Playwright's routeWebSocket, connected to the real
// server): `drop()` closes every connection from the server's side with 1012 (Service Restart,
// as a restarting server says goodbye) and refuses new ones until `restore()`. Meanwhile a check
// changes state through a ping to the API.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, WebSocketRoute } from 'playwright-core';
import { chromiumFound, reportFailedPages } from './browser.ts';
import { gql } from '../helpers/gql.ts';
import { expectClean, joinProject, liveUp, newPerson, signInAt, startAppSite, type AppSite } from './app-site.ts';

const suite = chromiumFound ? describe : describe.skip;
if (!chromiumFound) it.skip('skipped: chromium not found', () => {});

const SERVICE_RESTART = 1012;
let site: AppSite;

beforeAll(async () => {
  if (!chromiumFound) return;
  site = await startAppSite();
}, 60_000);
afterAll(async () => {
  await site?.stop();
});
afterEach(async (ctx) => {
  await reportFailedPages(site?.browser, ctx);
  if (ctx.task.result?.state !== 'fail') expectClean(site);
});

/** Routes the page's /graphql WebSocket through a gate the test opens and shuts. */
async function gate(page: Page) {
  /** Each open connection: the page's side and the server's. */
  const open = new Map<WebSocketRoute, WebSocketRoute>();
  let refusing = false;
  let refused = 0;
  await page.routeWebSocket(/\/graphql$/, (ws) => {
    if (refusing) {
      refused++;
      return ws.close({ code: SERVICE_RESTART, reason: 'restarting' });
    }
    const server = ws.connectToServer();
    open.set(ws, server);
    ws.onClose((code, reason) => {
      open.delete(ws);
      return server.close({ code, reason });
    });
    server.onClose((code, reason) => {
      open.delete(ws);
      return ws.close({ code, reason });
    });
  });
  return {
    open: () => open.size,
    refused: () => refused,
    /**
     * Closes both sides, so the server sees the connection go and its subscriptions end, as when
     * it restarts; with `halfOpen`, only the page's side: the server has not noticed yet (a
     * dropped network path), and its subscriptions run on.
     */
    drop({ halfOpen = false } = {}) {
      refusing = true;
      for (const [ws, server] of open) {
        open.delete(ws);
        // The server side is a browser WebSocket, which may close with 1000 or 3000-4999 only.
        if (!halfOpen) void server.close({ code: 1000, reason: 'restarting' });
        void ws.close({ code: SERVICE_RESTART, reason: 'restarting' });
      }
    },
    restore() {
      refusing = false;
    },
  };
}

async function newCheck(name: string, tags = '') {
  const created = await site.w.api('POST', '/api/v3/checks/', { body: { name, tags, timeout: 3600 } });
  expect(created.status).toBe(201);
  const path = new URL(created.json.ping_url).pathname;
  expect((await site.w.ping(path)).status).toBe(200);
  return path;
}

/**
 * With the page live and `name` UP: the socket drops, `name` goes down through a ping while it
 * is down (the page still shows UP: nothing reached it), the socket returns, and the row shows
 * DOWN in the same document.
 */
async function downWhileDisconnected(page: Page, g: Awaited<ReturnType<typeof gate>>, name: string, pingPath: string, halfOpen = false) {
  const row = page.locator(`tr[data-check="${name}"]`);
  await row.locator('[data-status="UP"]').waitFor();
  await page.locator('[data-live="websocket"]').waitFor();
  expect(g.open()).toBe(1);
  // A reload would lose this mark: the new state must arrive in the same document.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));

  g.drop({ halfOpen });
  await page.locator('[data-live="offline"]').waitFor();
  expect((await site.w.ping(`${pingPath}/fail`)).status).toBe(200);
  // Nothing could tell the page: it still shows the state before the outage.
  expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('UP');
  // At least one reconnection refused, as a server that is still starting refuses it.
  await expect.poll(() => g.refused(), { timeout: 5000, interval: 20 }).toBeGreaterThan(0);

  g.restore();
  await page.locator('[data-live="websocket"]').waitFor({ timeout: 10_000 });
  await row.locator('[data-status="DOWN"]').waitFor({ timeout: 5000 });
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  // And the subscription is live again: the next change is pushed.
  expect((await site.w.ping(pingPath)).status).toBe(200);
  await row.locator('[data-status="UP"]').waitFor({ timeout: 5000 });
}

suite('after the live connection drops and returns', () => {
  it("the dashboard (an API key's wall display) shows a change made while it was down, without reloading", async () => {
    const pingPath = await newCheck('backup');
    const page = await site.browser.page();
    const g = await gate(page);
    await page.goto(`${site.site}/`);
    await page.getByRole('button', { name: 'Use an API key (read-only display)' }).click();
    await page.fill('#key', site.w.alice.api_key_readonly);
    await page.click('button[type=submit]');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await downWhileDisconnected(page, g, 'backup', pingPath);
    await page.close();
  }, 60_000);

  it("a signed-in member's checks list shows a change made while it was down, without reloading", async () => {
    const pingPath = await newCheck('nightly');
    const member = await newPerson(site.w, 'member');
    await joinProject(site.w, site.w.alice.id, member, 'regular');
    const page = await site.browser.page();
    const g = await gate(page);
    await signInAt(site, page, member, `/?project=${site.w.alice.id}#/checks`);
    await liveUp(page);
    await downWhileDisconnected(page, g, 'nightly', pingPath);
    await page.close();
  }, 60_000);

  it('a public status page shows a change made while it was down, without reloading', async () => {
    const set = await gql(site.w, 'mutation { setStatusPage(slug: "alice-reconnect", tags: ["public"]) { statusPage { url } } }');
    expect(set.errors).toBeUndefined();
    const pingPath = await newCheck('website', 'public');
    const page = await site.browser.page();
    const g = await gate(page);
    await page.goto(`${site.site}/status/alice-reconnect`);
    await downWhileDisconnected(page, g, 'website', pingPath);
    // Again with the old connection still open on the server: resubscribing joins the identical
    // subscription still running there, which sends the next change only, not the page now.
    await downWhileDisconnected(page, g, 'website', pingPath, true);
    await page.close();
  }, 60_000);
});
