import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../../server/test/harness';

export { ROOT_PASSWORD };
const here = dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/shots';

/** Skip only when nobody asked for a browser and the default one is absent. */
export const chromiumAvailable = Boolean(process.env.CHROMIUM_PATH) || existsSync(CHROMIUM);
if (!chromiumAvailable) console.warn(`console e2e skipped: no Chromium at ${CHROMIUM} (install chromium or set CHROMIUM_PATH)`);

export interface Console {
  server: TestServer;
  base: string;
  browser: Browser;
  /** Uncaught page errors of every page opened. */
  errors: string[];
  root: ApiClient;
  open(opts?: { width?: number; height?: number; lang?: string }): Promise<Page>;
  close(): Promise<void>;
}

/** A fresh server (SQLite) serving the built console, a signed-in root API client, and Chromium. */
export async function startConsole(env: Record<string, string> = {}): Promise<Console> {
  // E2E_WEB_DIST: a private copy of the build, so another run's rebuild of dist cannot swap the chunks mid-test.
  const server = await startTestServer('sqlite', { env: { WEB_DIST: process.env.E2E_WEB_DIST || join(here, '../dist'), ...env } });
  const base = await server.listen();
  const root = new ApiClient(server.app);
  await root.login('root', ROOT_PASSWORD);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(SHOTS, { recursive: true });
  const errors: string[] = [];
  const contexts: BrowserContext[] = [];
  return {
    server,
    base,
    browser,
    errors,
    root,
    async open({ width = 1366, height = 860, lang = 'zh_CN' } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, baseURL: base });
      contexts.push(context);
      // a fresh browser profile picks its language like a first visit: stored choice first
      await context.addInitScript((l) => {
        try {
          if (!localStorage.getItem('appLanguage')) localStorage.setItem('appLanguage', l);
        } catch {
          // a framed foreign page (a chat client in the playground) may not touch storage
        }
      }, lang);
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
      // The console's Content-Security-Policy must not block anything it needs. Blocked inline event
      // handlers are the tests' own XSS payloads (`<img onerror=…>` in notices and footers): React never
      // writes inline handlers, so those reports are the policy working, not the console broken.
      page.on('console', (m) => {
        const text = m.text();
        if (/Content[- ]Security[- ]Policy/i.test(text) && !/inline event handler/i.test(text)) errors.push(`${page.url()}: ${text}`);
      });
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await server.destroy();
    },
  };
}

export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL(/\/panel\/dashboard$/);
}

export async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

/** Texts of the toasts on screen. */
export async function toasts(page: Page): Promise<string[]> {
  return page.locator('.notistack-Snackbar').allInnerTexts();
}

/** Unfolds every sidebar group (only the current route's group is open by default). */
export async function unfoldMenu(page: Page) {
  await page.getByTestId('menu-group').first().waitFor();
  const folded = page.locator('[data-testid="menu-group"][aria-expanded="false"]');
  while ((await folded.count()) > 0) await folded.first().click();
}
