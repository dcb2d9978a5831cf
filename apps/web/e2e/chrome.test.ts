import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, toasts, unfoldMenu, type Console } from './browser';

describe.skipIf(!chromiumAvailable)('preferences, notice, footer and toasts in Chromium', () => {
  let c: Console;
  beforeAll(async () => {
    c = await startConsole();
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('keeps theme and language across reloads', async () => {
    const page = await c.open({ lang: 'zh_CN' });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.getByTestId('theme-toggle').click();
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await unfoldMenu(page);
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Tokens', exact: true }).waitFor();
    await page.reload();
    await unfoldMenu(page);
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Channels', exact: true }).waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('theme'), localStorage.getItem('appLanguage'), document.documentElement.lang])).toEqual(['dark', 'en_US', 'en-US']);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
    await page.getByTestId('dashboard').waitFor();
    await page.screenshot({ path: `${SHOTS}/panel-desktop-dark-en.png` });
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: '日本語' }).click();
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'トークン', exact: true }).waitFor();
    await page.setViewportSize({ width: 375, height: 780 });
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/panel-phone-dark-ja.png` });
    await page.goto('/login');
    await page.waitForURL(/\/panel\/dashboard$/);
  });

  it('pops a new notice up once, renders it as sanitised markdown, and reopens it from the button', async () => {
    onTestFinished(async () => {
      await c.root.put('/api/option/', { key: 'Notice', value: '' });
    });
    const set = await c.root.put('/api/option/', { key: 'Notice', value: '**Maintenance** tonight <img src=x onerror="window.__pwned=1">' });
    expect(set.body.success, JSON.stringify(set.body)).toBe(true);
    const page = await c.open();
    await page.goto('/');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.locator('strong').innerText()).toBe('Maintenance');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.locator('h1', { hasText: 'One Hub' }).waitFor(); // the hero, hidden from roles behind the dialog
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/notice-desktop-light.png` });
    await dialog.getByRole('button', { name: '关闭' }).click();
    await page.reload();
    await page.getByTestId('notice-button').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByTestId('notice-button').click();
    await page.getByRole('dialog').waitFor();
  });

  it('shows the custom footer HTML sanitised, or the default credit line', async () => {
    const page = await c.open();
    await page.goto('/about');
    await page.getByTestId('default-footer').waitFor();
    expect(await page.getByTestId('default-footer').innerText()).toContain('MIT');
    await c.root.put('/api/option/', { key: 'Footer', value: '<b id="foot">Hosted by ACME</b><script>window.__footer=1</script>' });
    await page.reload();
    await page.locator('#foot').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __footer?: number }).__footer)).toBeUndefined();
    expect(await page.getByTestId('custom-footer').innerText()).toBe('Hosted by ACME');
    await c.root.put('/api/option/', { key: 'Footer', value: '' });
  });

  it('toasts each error class with the spec texts, at most three at a time', async () => {
    const page = await c.open();
    await page.goto('/login');
    const answers: [number, unknown][] = [
      [429, { success: false, message: 'slow down' }],
      [500, {}],
      [405, {}],
      [400, { success: false, message: '用户名或密码错误' }],
      [200, { success: false, message: '用户已被封禁' }],
    ];
    const expected = ['错误：请求次数过多，请稍后再试！', '错误：服务器内部错误，请联系管理员！', '本站仅作演示之用，无服务端！', '错误：用户名或密码错误', '错误：用户已被封禁'];
    for (let i = 0; i < answers.length; i++) {
      const [status, body] = answers[i];
      await page.route('**/api/user/login', (r) => r.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }));
      await page.fill('input[name=username]', 'someone');
      await page.fill('input[name=password]', 'whatever1');
      await page.click('button[type=submit]');
      await expect.poll(() => toasts(page)).toContain(expected[i]);
      expect((await toasts(page)).length).toBeLessThanOrEqual(3);
      await page.unroute('**/api/user/login');
    }
    const first = (await page.locator('.notistack-Snackbar').first().boundingBox())!;
    expect(Math.abs(first.x + first.width / 2 - 1366 / 2)).toBeLessThan(40);
    expect(first.y).toBeGreaterThan(500);
    const info = page.locator('.notistack-Snackbar', { hasText: '本站仅作演示之用' });
    expect(await info.count()).toBeLessThanOrEqual(1);
    await page.route('**/api/user/login', (r) => r.abort('connectionrefused'));
    await page.click('button[type=submit]');
    await expect.poll(() => toasts(page)).toContain('错误：无法正常连接至服务器！');
    expect(await page.getByRole('alert').filter({ hasText: '错误：' }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/toasts-desktop.png` });
  });

  it('places toasts bottom-centre (clear of the sidebar); validation messages are translated', async () => {
    const page = await c.open({ width: 375, height: 780 });
    await page.goto('/login');
    await page.route('**/api/user/login', (r) => r.fulfill({ status: 500, body: '{}' }));
    await page.click('button[type=submit]');
    await page.getByText('此项不能为空').first().waitFor();
    await page.fill('input[name=username]', 'x');
    await page.fill('input[name=password]', 'y');
    await page.click('button[type=submit]');
    const toast = page.locator('.notistack-Snackbar').first();
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 375 / 2)).toBeLessThan(30);
    expect(box.y).toBeGreaterThan(500);
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/login-phone-light.png` });
  });

  it('copies the reset password, or keeps a toast with it when the clipboard refuses', async () => {
    const page = await c.open();
    await page.route('**/api/user/reset', (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify({ success: true, message: '', data: 'N3wPassw0rd' }) }));
    await page.goto('/user/reset?email=a@b.co&token=t0k');
    await page.addInitScript(() => undefined);
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } }));
    await page.getByRole('button').filter({ hasText: '重置' }).click();
    await page.getByTestId('new-password').waitFor();
    const copyToast = page.locator('.notistack-Snackbar', { hasText: '复制新密码失败，请手动复制：' });
    await copyToast.waitFor();
    expect(await copyToast.innerText()).toContain('N3wPassw0rd');
    await page.waitForTimeout(2000);
    expect(await copyToast.isVisible()).toBe(true); // persistent
    await page.screenshot({ path: `${SHOTS}/reset-copy-toast.png` });
    await page.goto('/user/reset');
    await page.getByTestId('invalid-link').waitFor();
  });

  it('renders the public pages in both themes without sideways scrolling (screenshots)', async () => {
    const desk = await c.open();
    await desk.goto('/');
    await desk.locator('h1', { hasText: 'One Hub' }).waitFor();
    await desk.screenshot({ path: `${SHOTS}/home-desktop-light.png` });
    await desk.evaluate(() => localStorage.setItem('theme', 'dark'));
    await desk.goto('/register');
    await desk.locator('input[name=password2]').waitFor();
    await desk.fill('input[name=password]', 'Abcdefg1!x');
    await desk.screenshot({ path: `${SHOTS}/register-desktop-dark.png` });
    const phone = await c.open({ width: 375, height: 780 });
    await phone.evaluate(() => localStorage.setItem('theme', 'dark')).catch(() => undefined);
    await phone.goto('/about');
    await phone.getByText('https://github.com/MartialBE/one-hub').waitFor();
    await noSidewaysScroll(phone);
    await phone.screenshot({ path: `${SHOTS}/about-phone.png` });
    await signIn(phone, 'root', ROOT_PASSWORD);
    await phone.getByTestId('drawer-toggle').click();
    await phone.getByRole('navigation', { name: 'main' }).waitFor();
    await phone.waitForTimeout(400);
    await phone.screenshot({ path: `${SHOTS}/panel-phone-drawer.png` });
  });
});
