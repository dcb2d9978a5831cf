// The guarded first run in Chromium (issue 39 point 3): a gateway process started with no
// INITIAL_ROOT_PASSWORD prints a one-time /setup link; the console's page takes it from there.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { GATEWAY_ARGS, SERVER_DIR, gatewayProcessEnv } from '../../server/test/gateway-process';
import { CHROMIUM, chromiumAvailable, noSidewaysScroll, SHOTS, toasts } from './browser';

const here = dirname(fileURLToPath(import.meta.url));

/** The gateway as its own process, as an operator starts it; resolves once `pattern` shows in its output. */
function startGateway(dir: string) {
  const env: Record<string, string | undefined> = { ...process.env, ...gatewayProcessEnv(dir, ''), WEB_DIST: process.env.E2E_WEB_DIST || join(here, '../dist') };
  delete env.INITIAL_ROOT_PASSWORD;
  const child: ChildProcess = spawn(process.execPath, GATEWAY_ARGS, { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = out.match(pattern);
        if (m) resolve(m);
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      check();
      void exited.then((code) => reject(new Error(`the gateway exited (${code}) before printing ${pattern}: ${out.slice(-2000)}`)));
    });
  return { child, port: Number(env.PORT), printed, exited, output: () => out };
}

describe.skipIf(!chromiumAvailable)('first-run setup in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-setup-e2e-'));
  let gateway: ReturnType<typeof startGateway>;
  let browser: Browser;
  let base: string;
  let link: string;
  const errors: string[] = [];

  beforeAll(async () => {
    gateway = startGateway(dir);
    const [, printedLink] = await gateway.printed(/open (\S+\/setup\?token=[A-Za-z0-9_-]{43,})/);
    await gateway.printed(/listening on/);
    link = printedLink;
    base = `http://127.0.0.1:${gateway.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  });
  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    gateway?.child.kill('SIGTERM');
    await gateway?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(width = 1366, height = 860, theme = 'light'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, baseURL: base });
    await context.addInitScript((th) => {
      localStorage.setItem('appLanguage', 'en_US');
      localStorage.setItem('theme', th);
    }, theme);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => /Content[- ]Security[- ]Policy/i.test(m.text()) && errors.push(`${page.url()}: ${m.text()}`));
    return page;
  }

  it('prints one link, never a password, and /setup refuses without its token', async () => {
    expect(link.startsWith(`http://localhost:${gateway.port}/setup?token=`)).toBe(true);
    expect(gateway.output()).not.toMatch(/password:/);
    expect(gateway.output().match(/\/setup\?token=/g)).toHaveLength(1);
    const status = await (await fetch(`${base}/api/status`)).json();
    expect(status.data.setup_required).toBe(true);
    expect(JSON.stringify(status)).not.toContain(new URL(link).searchParams.get('token'));

    const page = await open(1366, 860, 'dark');
    await page.goto('/setup');
    await expect.poll(() => page.getByTestId('setup-refused').innerText()).toContain('one-time setup link');
    // Dark mode: the card is drawn dark, its text light.
    const card = page.locator('.MuiCard-root');
    const [bg, fg] = await card.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el.querySelector('h1')!).color]);
    const lightness = (rgb: string) => rgb.match(/\d+/g)!.slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
    expect(lightness(bg)).toBeLessThan(80);
    expect(lightness(fg)).toBeGreaterThan(170);
    await page.screenshot({ path: `${SHOTS}/setup-refused-dark.png` });
    await page.goto('/setup?token=not-the-token');
    await expect.poll(() => page.getByTestId('setup-refused').innerText()).toContain('invalid or has expired');
    expect(await page.locator('input[name=password]').count()).toBe(0);
    // The login page points the operator to the log, without the link.
    await page.goto('/login');
    await expect.poll(() => page.getByTestId('setup-pending').innerText()).toContain('setup link the server printed');
    await page.context().close();
  });

  it('sets root, the site and a first channel from the link (its failing test reported), then root signs in', async () => {
    const url = new URL(link);
    const page = await open(390, 844); // a phone
    await page.goto(`${url.pathname}${url.search}`);
    await page.locator('input[name=username]').waitFor();
    await expect.poll(() => page.locator('input[name=server_address]').inputValue()).toBe(`http://localhost:${gateway.port}`);
    await page.fill('input[name=username]', 'owner');
    await page.fill('input[name=password]', 'owner-pass-42');
    await page.fill('input[name=password2]', 'owner-pass-4');
    await page.fill('input[name=system_name]', 'Setup Hub');
    await page.getByLabel('Also add a first channel').check();
    await page.fill('input[name=channel_key]', 'sk-first');
    // Loopback: this node's egress guard refuses it, so the channel test fails and is reported.
    await page.fill('input[name=channel_base_url]', 'http://127.0.0.1:9');
    await page.click('button[type=submit]');
    await expect.poll(() => page.getByText('Passwords do not match').count()).toBe(1);
    await page.fill('input[name=password2]', 'owner-pass-42');
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/setup-phone.png`, fullPage: true });
    await page.click('button[type=submit]');
    await expect.poll(() => page.url()).toMatch(/\/login$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(); // the login form, not the setup form leaving
    const shown = (await toasts(page)).join('\n');
    expect(shown).toContain('Setup done: sign in as owner');
    expect(shown).toContain('The channel was created but its test failed');
    expect(await page.getByTestId('setup-pending').count()).toBe(0);

    await page.fill('input[name=username]', 'owner');
    await page.fill('input[name=password]', 'owner-pass-42');
    await page.click('button[type=submit]');
    await expect.poll(() => page.url()).toMatch(/\/panel\/dashboard$/);
    const self = await page.evaluate(async () => (await (await fetch('/api/user/self')).json()).data);
    expect(self).toMatchObject({ username: 'owner', role: 100 });
    const channels = await page.evaluate(async () => (await (await fetch('/api/channel/?p=0&page_size=10')).json()).data);
    expect(JSON.stringify(channels)).toContain('first-channel');
    const status = await (await fetch(`${base}/api/status`)).json();
    expect(status.data).toMatchObject({ setup_required: false, system_name: 'Setup Hub' });

    // The link is spent: opening it again is refused.
    await page.goto(`${url.pathname}${url.search}`);
    await expect.poll(() => page.getByTestId('setup-refused').innerText()).toContain('Setup is already done');
    await page.context().close();
  });
});
