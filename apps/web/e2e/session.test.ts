import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, unfoldMenu, type Console } from './browser';

const ADMIN_ONLY = ['用户', '渠道', '系统设置', '分析', '用户分组', '模型价格', 'Telegram 机器人', '兑换码', '支付网关'];
const EVERYONE = ['仪表盘', '操练场', '令牌', '个人设置', '充值', '可用模型', '日志', 'Midjourney 任务', '异步任务'];

describe.skipIf(!chromiumAvailable)('sign-in, menus and guards in Chromium', () => {
  let c: Console;
  beforeAll(async () => {
    c = await startConsole();
    const anon = new (c.root.constructor as typeof import('../../server/test/harness').ApiClient)(c.server.app);
    const res = await anon.post('/api/user/register', { username: 'plainuser', password: 'password123' });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('sends signed-out visitors to /login, signs root in to /panel/dashboard and out to /', async () => {
    const page = await c.open();
    await page.goto('/panel/token');
    await page.waitForURL(/\/login$/);
    await signIn(page, 'root', ROOT_PASSWORD);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!).username).toBe('root');
    await page.getByTestId('dashboard').waitFor();
    await page.getByTestId('breadcrumbs').getByRole('heading', { name: '仪表盘' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'main' });
    await unfoldMenu(page);
    for (const label of [...ADMIN_ONLY.filter((l) => !['用户分组', '模型价格', 'Telegram 机器人', '兑换码', '支付网关'].includes(l)), ...EVERYONE]) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    expect(await nav.getByRole('link', { name: '渠道', exact: true }).getAttribute('href')).toBe('/panel/channel');
    expect(await page.getByTestId('welcome').innerText()).toContain('root');
    expect(await page.getByTestId('welcome').innerText()).toContain('欢迎回来');
    expect(await page.getByTestId('version-chip').innerText()).toMatch(/v\d|未知版本/);
    await page.screenshot({ path: `${SHOTS}/panel-desktop-light.png` });

    // a collapse opens and goes to its first child; its items are real links
    await nav.getByRole('link', { name: '运营', exact: true }).click();
    await page.waitForURL(/\/panel\/user_group$/);
    expect(await nav.getByRole('link', { name: '模型价格', exact: true }).getAttribute('href')).toBe('/panel/pricing');
    await expect.poll(() => page.getByTestId('breadcrumbs').innerText()).toMatch(/仪表盘[\s\S]*设置[\s\S]*运营[\s\S]*用户分组/);

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.goto('/panel/dashboard');
    await page.waitForURL(/\/login$/);
  });

  it('shows ordinary users only their menu and refuses admin screens', async () => {
    const page = await c.open();
    await signIn(page, 'plainuser', 'password123');
    const nav = page.getByRole('navigation', { name: 'main' });
    await unfoldMenu(page);
    for (const label of EVERYONE) await nav.getByRole('link', { name: label, exact: true }).waitFor();
    for (const label of ADMIN_ONLY) expect(await nav.getByRole('link', { name: label, exact: true }).count(), label).toBe(0);
    expect(await nav.getByText('运营').count()).toBe(0);
    await page.goto('/panel/channel');
    await page.getByTestId('forbidden').waitFor();
    expect(await page.getByTestId('coming-soon').count()).toBe(0);
    await page.goto('/login');
    await page.waitForURL(/\/panel\/dashboard$/);
  });

  it('drops the stored user on a 401 and returns to sign-in', async () => {
    const page = await c.open();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.context().clearCookies();
    // the playground asks the API for a key: that call answers 401 now (opened by its address:
    // a menu click can race the dashboard's own refresh, which meets the 401 first)
    await page.goto('/panel/playground');
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  it('shows not-found pages for unknown paths inside and outside the console', async () => {
    const page = await c.open();
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/nothing-here');
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByRole('navigation', { name: 'main' }).isVisible()).toBe(true);
  });

  it('fits a 375 px phone: public pages, sign-in and the console with its drawer', async () => {
    const page = await c.open({ width: 375, height: 780 });
    await page.goto('/');
    await page.getByRole('heading', { name: 'One Hub' }).waitFor();
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/home-phone-light.png` });
    await page.getByTestId('public-menu').click();
    await page.getByRole('menuitem', { name: '登录' }).waitFor();
    await page.waitForTimeout(400); // let the menu finish fading in
    await page.screenshot({ path: `${SHOTS}/home-phone-menu.png` });
    await page.keyboard.press('Escape');
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.getByTestId('dashboard').waitFor();
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/panel-phone-light.png` });
    await page.getByTestId('drawer-toggle').click();
    await unfoldMenu(page);
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: '令牌', exact: true }).click();
    await page.waitForURL(/\/panel\/token$/);
    await noSidewaysScroll(page);
    await page.goto('/login');
    await noSidewaysScroll(page);
  });
});
