import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, ROOT_PASSWORD, SHOTS, signIn, startConsole, toasts, type Console } from './browser';

/** Serves /api/status from the real server with some fields replaced. */
async function patchStatus(page: Page, patch: Record<string, unknown>) {
  await page.route('**/api/status', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({ response: res, json: { ...body, data: { ...body.data, ...patch } } });
  });
}

describe.skipIf(!chromiumAvailable)('sign-in options, OAuth callbacks and site info in Chromium', () => {
  let c: Console;
  beforeAll(async () => {
    c = await startConsole();
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('shows only the third-party buttons the status enables, and the WeChat code dialog', async () => {
    const page = await c.open();
    await page.goto('/login');
    await page.locator('input[name=username]').waitFor();
    expect(await page.getByRole('button', { name: /GitHub/ }).count()).toBe(0);
    await patchStatus(page, { github_oauth: true, github_client_id: 'cid', wechat_login: true, oidc_auth: true, lark_login: true, linuxdo_oauth: true });
    await page.reload();
    for (const name of ['使用 GitHub 登录', '使用微信登录', '使用飞书登录', '使用 OIDC 登录', '使用 LINUX DO 登录']) await page.getByRole('button', { name }).waitFor();
    await page.screenshot({ path: `${SHOTS}/login-oauth-desktop.png` });
    await page.getByRole('button', { name: '使用微信登录' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('三分钟内有效', { exact: false }).waitFor();
    await page.route('**/api/oauth/wechat?*', (r) => r.fulfill({ json: { success: false, message: '验证码错误或已过期', data: null } }));
    await dialog.getByLabel('验证码').fill('123456');
    await dialog.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => toasts(page)).toContain('错误：验证码错误或已过期');
  });

  it('binds an account from an OAuth callback, and sends failed callbacks back to sign-in', async () => {
    const page = await c.open();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.route('**/api/oauth/github?*', (r) => r.fulfill({ json: { success: true, message: 'bind', data: null } }));
    await page.goto('/oauth/github?code=abc&state=xyz');
    await page.waitForURL(/\/panel\/dashboard$/);
    await expect.poll(() => toasts(page)).toContain('绑定成功！');

    const other = await c.open();
    await other.route('**/api/oauth/oidc?*', (r) => r.fulfill({ json: { success: false, message: '授权已失效', data: null } }));
    await other.goto('/oauth/oidc?code=bad&state=s');
    await other.getByTestId('oauth-status').filter({ hasText: '即将返回登录页' }).waitFor();
    await expect.poll(() => toasts(other)).toContain('错误：授权已失效');
    await other.waitForURL(/\/login$/, { timeout: 5000 });
  });

  it('retries an OAuth callback the server could not answer, showing the count', async () => {
    const page = await c.open();
    let calls = 0;
    await page.route('**/api/oauth/lark?*', (r) => {
      calls += 1;
      if (calls === 1) return r.fulfill({ status: 502, body: 'bad gateway' });
      return r.fulfill({ json: { success: true, message: '', data: { id: 1, username: 'root', role: 100, display_name: 'Root' } } });
    });
    await page.goto('/oauth/lark?code=c&state=s');
    await page.getByTestId('oauth-status').filter({ hasText: '第 1 次重试' }).waitFor();
    await page.waitForURL(/\/panel\/dashboard$/, { timeout: 10_000 });
    expect(calls).toBe(2);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!).username).toBe('root');
  });

  it('falls back to the stored site info when the status call fails', async () => {
    const page = await c.open();
    await patchStatus(page, { system_name: 'Stored Hub' });
    await page.goto('/about');
    await expect.poll(() => page.title()).toBe('Stored Hub');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('siteInfo')))!).system_name).toBe('Stored Hub');
    expect(await page.evaluate(() => [localStorage.getItem('quota_per_unit'), localStorage.getItem('display_in_currency'), localStorage.getItem('default_language')])).toEqual(['500000', 'true', 'zh_CN']);
    await page.unroute('**/api/status');
    await page.route('**/api/status', (r) => r.abort('connectionrefused'));
    await page.reload();
    await expect.poll(() => toasts(page)).toContain('错误：无法正常连接至服务器！');
    await expect.poll(() => page.title()).toBe('Stored Hub');
  });
});
