import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../../server/test/harness';

const here = dirname(fileURLToPath(import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/shots';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`skipping console e2e: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

describe.skipIf(!available)('console in Chromium', () => {
  let server: TestServer;
  let base: string;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(here, '../../../node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: join(here, '..'), stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    server = await startTestServer('sqlite', { env: { WEB_DIST: join(here, '../dist') } });
    base = await server.listen();
    const anon = new ApiClient(server.app);
    await anon.post('/api/user/register', { username: 'plainuser', password: 'password123' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.destroy();
  });

  async function open(width = 1280, height = 800, lang = 'zh_CN'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.addInitScript((l) => {
      if (!localStorage.getItem('appLanguage')) localStorage.setItem('appLanguage', l);
    }, lang);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

  async function signIn(page: Page, username: string, password: string) {
    await page.goto(`${base}/login`);
    await page.fill('input[name=username]', username);
    await page.fill('input[name=password]', password);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/panel\/dashboard$/);
  }

  it('sends signed-out visitors to sign-in, and signs root in to an admin menu', async () => {
    const page = await open();
    await page.goto(`${base}/panel/token`);
    await page.waitForURL(/\/login$/);
    await signIn(page, 'root', ROOT_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'main' });
    await nav.getByRole('link', { name: '渠道' }).waitFor();
    expect(await nav.getByRole('link', { name: '渠道' }).getAttribute('href')).toBe('/panel/channel');
    await expect.poll(() => page.getByText('当前余额').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/dashboard-light.png`, fullPage: true });
    await page.getByRole('link', { name: '令牌' }).click();
    await page.waitForURL(/\/panel\/token$/);
    await page.getByRole('button', { name: '新建令牌' }).click();
    await page.getByLabel('名称').fill('from-browser');
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByText('from-browser').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/tokens-light.png`, fullPage: true });
  });

  it('keeps ordinary users out of administration', async () => {
    const page = await open();
    await signIn(page, 'plainuser', 'password123');
    const nav = page.getByRole('navigation', { name: 'main' });
    await nav.getByRole('link', { name: '令牌' }).waitFor();
    expect(await nav.getByRole('link', { name: '渠道' }).count()).toBe(0);
    await page.goto(`${base}/panel/channel`);
    await page.waitForURL(/\/panel\/dashboard$/);
  });

  it('remembers theme and language across reloads', async () => {
    const page = await open(1280, 800, 'en_US');
    await signIn(page, 'root', ROOT_PASSWORD);
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    await page.getByTestId('theme-toggle').click();
    await page.reload();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(15, 20, 32)');
    await expect.poll(() => page.getByText('Balance').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/dashboard-dark-en.png`, fullPage: true });
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const page = await open(375, 740);
    await signIn(page, 'root', ROOT_PASSWORD);
    await expect.poll(() => page.getByText('当前余额').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${SHOTS}/dashboard-phone.png`, fullPage: true });
    await page.goto(`${base}/`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${SHOTS}/home-phone.png` });
  });

  it('drops the stored user on a 401 and returns to sign-in', async () => {
    const page = await open();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.context().clearCookies();
    await page.goto(`${base}/panel/token`);
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    expect(errors).toEqual([]);
  });
});
