// Debian's Chromium driven by playwright-core, as a user's browser: a fresh profile per
// launch, every request and console error of every page recorded, screenshots kept under
// test-output/screenshots/ (git-ignored; CI keeps them).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from '../../src/paths.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumFound = existsSync(CHROMIUM);
export const SCREENSHOTS = path.join(projectRoot, 'test-output/screenshots');

// No update checks, sync, QUIC or first-run pages: nothing but the page under test makes a request.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  /** Every URL any page asked for (WebSockets included). */
  requests: string[];
  /** Console errors and uncaught exceptions of every page. */
  errors: string[];
  page(): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'gateway-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 800 } });
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const watch = (page: Page) => {
    page.on('websocket', (ws) => requests.push(ws.url()));
    page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: console: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`${page.url()}: uncaught: ${e.message} ${e.stack ?? ""}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    requests,
    errors,
    page: () => context.newPage(),
    async screenshot(page, name) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Whether a URL stays on this machine (blob: and data: URLs are made by the page itself). */
export function isLocal(url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === 'data:' || parsed.protocol === 'about:') return true;
  const host = parsed.protocol === 'blob:' ? new URL(parsed.pathname).hostname : parsed.hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/** After a failed test, says what each page still open showed (text, errors) and keeps a screenshot; then closes it. */
export async function reportFailedPages(browser: Browser | undefined, ctx: { task: { name: string; result?: { state?: string } } }) {
  if (ctx.task.result?.state !== 'fail' || !browser) return;
  for (const [i, page] of browser.context.pages().entries()) {
    if (page.isClosed() || page.url() === 'about:blank') continue;
    const text = await page.locator('body').innerText({ timeout: 2000 }).catch((e: unknown) => `(no text: ${String(e)})`);
    console.error(`failed test's page ${i}: ${page.url()}\n${text.slice(0, 2000)}\nerrors: ${JSON.stringify(browser.errors)}`);
    await browser.screenshot(page, `failed-${ctx.task.name.replace(/\W+/g, '-').slice(0, 60)}-${i}`).catch(() => {});
    await page.close();
  }
}
