import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../server/test/harness';
import { FakeSmtp } from '../../server/test/accounts/fake-smtp';
import { chromiumAvailable, noSidewaysScroll, SHOTS, signIn, startConsole, toasts, type Console } from './browser';
import { shootThemes } from './shoot';

describe.skipIf(!chromiumAvailable)('profile in Chromium', () => {
  let c: Console;
  const smtp = new FakeSmtp();
  beforeAll(async () => {
    const smtpPort = await smtp.start();
    c = await startConsole();
    for (const [key, value] of [
      ['SMTPServer', '127.0.0.1'],
      ['SMTPPort', String(smtpPort)],
      ['SMTPFrom', 'hub@example.com'],
    ]) {
      expect((await c.root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
    const res = await new ApiClient(c.server.app).post('/api/user/register', { username: 'profiler', password: 'password123' });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await smtp.close();
  });

  it('changes the display name, refuses a mismatched password and signs in with the new one', async () => {
    const page = await c.open();
    await signIn(page, 'profiler', 'password123');
    await page.goto('/panel/profile');
    expect(await page.getByTestId('profile-username').innerText()).toBe('profiler');
    await page.getByTestId('display-name').fill('Pro Filer');
    await page.getByTestId('new-password').fill('new-password-1');
    await page.getByTestId('new-password2').fill('new-password-2');
    await page.getByTestId('profile-submit').click();
    await expect.poll(() => toasts(page)).toContainEqual(expect.stringContaining('两次输入的密码不一致'));
    await page.getByTestId('new-password2').fill('new-password-1');
    // a new password needs the current one
    await page.getByTestId('profile-submit').click();
    await expect.poll(() => toasts(page)).toContainEqual(expect.stringContaining('修改密码须填写原密码'));
    await page.getByTestId('original-password').fill('password123');
    await page.getByTestId('profile-submit').click();
    await expect.poll(() => toasts(page)).toContainEqual(expect.stringContaining('保存成功'));
    await page.screenshot({ path: `${SHOTS}/profile-desktop-light.png` });

    const check = new ApiClient(c.server.app);
    const me = await check.login('profiler', 'new-password-1');
    expect(me.id).toBeGreaterThan(0);
    expect((await check.get('/api/user/self')).body.data.display_name).toBe('Pro Filer');
    await page.reload();
    await expect.poll(() => page.getByTestId('display-name').inputValue()).toBe('Pro Filer');
  });

  it('generates an access token that manages the account through the API', async () => {
    const page = await c.open();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, 'profiler', 'new-password-1');
    await page.goto('/panel/profile');
    await page.getByTestId('profile-tab-token').click();
    await page.getByTestId('access-token-generate').click();
    const token = await page.getByTestId('access-token').innerText();
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    const res = await c.server.app.inject({ method: 'GET', url: '/api/user/self', headers: { authorization: token } });
    expect(JSON.parse(res.body).data.username).toBe('profiler');
  });

  it('lists the bindings and fits a phone in dark mode', async () => {
    const page = await c.open({ width: 375, height: 780 });
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(page, 'profiler', 'new-password-1');
    await page.goto('/panel/profile');
    await page.getByTestId('profile-tab-binding').click();
    expect(await page.getByTestId('binding-email').innerText()).toContain('未绑定');
    // providers the site has not enabled have no row
    expect(await page.getByTestId('binding-github').count()).toBe(0);
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/profile-phone-dark.png` });
  });

  it('binds an e-mail with the mailed code', async () => {
    const page = await c.open();
    await signIn(page, 'profiler', 'new-password-1');
    await page.goto('/panel/profile');
    await page.getByTestId('profile-tab-binding').click();
    await page.getByTestId('binding-email').getByRole('button', { name: '绑定' }).click();
    await page.getByTestId('bind-email').fill('pro@example.com');
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByRole('button', { name: /秒后重新发送/ }).waitFor();
    await expect.poll(() => smtp.lastTo('pro@example.com')).toBeTruthy();
    const code = smtp.lastTo('pro@example.com')!.match(/<strong>([0-9a-f]{6})<\/strong>/)![1];
    await page.getByTestId('bind-code').fill('000000');
    await page.getByTestId('bind-email-submit').click();
    await expect.poll(() => toasts(page)).toContainEqual(expect.stringContaining('验证码错误或已过期'));
    await page.getByTestId('bind-code').fill(code);
    await page.getByTestId('bind-email-submit').click();
    await expect.poll(() => page.getByTestId('binding-email').innerText()).toContain('已绑定：pro@example.com');
  });

  it('asks signed-out visitors of the public playground to sign in', async () => {
    const page = await c.open();
    await page.goto('/playground');
    expect(await page.getByTestId('playground-empty').innerText()).toContain('请先登录再使用操练场');
    await page.getByTestId('playground-empty').getByRole('link', { name: '登录' }).click();
    await page.waitForURL(/\/login$/);
  });

  it('unbinds GitHub after a confirmation', async () => {
    for (const [key, value] of [
      ['GitHubClientId', 'gh-client'],
      ['GitHubClientSecret', 'gh-secret'],
      ['GitHubOAuthEnabled', 'true'],
    ]) {
      expect((await c.root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
    await c.server.ctx.db.updateTable('users').set({ github_id: 'octo-42' }).where('username', '=', 'profiler').execute();
    const page = await c.open();
    await signIn(page, 'profiler', 'new-password-1');
    await page.goto('/panel/profile');
    await page.getByTestId('profile-tab-binding').click();
    const row = page.getByTestId('binding-github');
    await expect.poll(() => row.innerText()).toContain('已绑定：octo-42');
    await row.getByRole('button', { name: '解绑' }).click();
    await page.getByRole('dialog').getByText('解绑后将无法再用此方式登录').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '解绑' }).click();
    await expect.poll(() => row.innerText()).toContain('未绑定');
    const stored = await c.server.ctx.db.selectFrom('users').select('github_id').where('username', '=', 'profiler').executeTakeFirstOrThrow();
    expect(stored.github_id).toBe('');
    await page.screenshot({ path: `${SHOTS}/profile-binding-desktop-light.png` });
  });

  it('sets a low-balance alert to the bound e-mail, with Telegram offered only once bound', async () => {
    const page = await c.open();
    await signIn(page, 'profiler', 'new-password-1');
    await page.goto('/panel/profile');
    const openTab = async () => {
      await page.getByTestId('profile-tab-alert').click();
      await page.getByTestId('alert-threshold').waitFor();
    };
    await openTab();
    await page.getByTestId('alert-threshold').fill('2.5');
    await page.getByRole('combobox').click();
    expect(await page.getByRole('option', { name: /Telegram/ }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('option', { name: '邮件（pro@example.com）' }).click();
    await page.getByTestId('alert-submit').click();
    await expect.poll(() => toasts(page)).toContainEqual(expect.stringContaining('保存成功'));
    const stored = await c.server.ctx.db.selectFrom('users').select(['quota_alert_threshold', 'quota_alert_channel']).where('username', '=', 'profiler').executeTakeFirstOrThrow();
    expect([Number(stored.quota_alert_threshold), stored.quota_alert_channel]).toEqual([1_250_000, 'email']);
    await shootThemes(page, 'profile-alert', openTab);
  });
});
