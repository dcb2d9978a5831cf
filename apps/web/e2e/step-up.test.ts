import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, ROOT_PASSWORD, SHOTS, signIn, startConsole, type Console } from './browser';
import { base32Decode, hotp, stepAt } from '../../server/src/console/auth/two-factor/totp';

describe.skipIf(!chromiumAvailable)('step-up before a channel key is shown, in Chromium', () => {
  let c: Console;
  let secret = '';
  let step = 0;
  let recovery: string[] = [];

  beforeAll(async () => {
    c = await startConsole();
    const made = await c.root.post('/api/channel/', { type: 1, name: 'step-up-channel', key: 'sk-e2e-secret', models: 'gpt-4o', group: 'default' });
    expect(made.body.success).toBe(true);
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  async function enableTwoFactor() {
    secret = (await c.root.post('/api/user/2fa/setup')).body.data.secret;
    step = stepAt(Date.now());
    recovery = (await c.root.post('/api/user/2fa/enable', { code: hotp(base32Decode(secret), step) })).body.data;
    expect(recovery).toHaveLength(10);
  }

  it('asks the administrator for a code before "show key" reveals the key, then keeps the confirmation', async () => {
    const page = await c.open();
    await signIn(page, 'root', ROOT_PASSWORD);
    await enableTwoFactor();
    await page.goto('/panel/channel');
    await page.getByTestId('channel-edit').first().click();
    // the dialog opens without the key and without asking
    const edit = page.getByTestId('channel-dialog');
    await expect.poll(() => edit.getByLabel('名称', { exact: false }).first().inputValue()).toBe('step-up-channel');
    expect(await page.getByTestId('channel-key').inputValue()).toBe('');
    expect(await page.getByText('确认身份').count()).toBe(0);
    await page.getByTestId('channel-key-reveal').click();
    const confirm = page.getByRole('dialog').filter({ hasText: '确认身份' });
    await confirm.getByText('5 分钟内有效', { exact: false }).waitFor();
    await page.screenshot({ path: `${SHOTS}/step-up-desktop-light.png` });
    await confirm.getByTestId('step-up-code').fill(hotp(base32Decode(secret), step + 1));
    await confirm.getByTestId('step-up-submit').click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('channel-key').inputValue()).toBe('sk-e2e-secret');
    await edit.getByRole('button', { name: '取消' }).click();
    await edit.waitFor({ state: 'detached' });
    // confirmed for a few minutes: the next reveal needs no code
    await page.getByTestId('channel-edit').first().click();
    await expect.poll(() => page.getByTestId('channel-dialog').getByLabel('名称', { exact: false }).first().inputValue()).toBe('step-up-channel');
    await page.getByTestId('channel-key-reveal').click();
    await expect.poll(() => page.getByTestId('channel-key').inputValue()).toBe('sk-e2e-secret');
    expect(await page.getByText('确认身份').count()).toBe(0);
  });

  it('works at phone width in dark mode and in English, with a recovery code', async () => {
    const page = await c.open({ width: 390, height: 844, lang: 'en_US' });
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await page.goto('/login');
    await page.fill('input[name=username]', 'root');
    await page.fill('input[name=password]', ROOT_PASSWORD);
    await page.click('button[type=submit]');
    await page.getByTestId('two-factor-code').waitFor();
    await page.screenshot({ path: `${SHOTS}/login-two-factor-phone-dark.png` });
    await page.getByTestId('two-factor-code').fill(recovery[0]);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/panel\/dashboard$/);
    await page.goto('/panel/channel');
    await page.getByTestId('channel-edit').first().click();
    await page.getByTestId('channel-key-reveal').click();
    const confirm = page.getByRole('dialog').filter({ hasText: "Confirm it's you" });
    await confirm.getByText('lasts 5 minutes', { exact: false }).waitFor();
    await page.screenshot({ path: `${SHOTS}/step-up-phone-dark.png` });
    await confirm.getByTestId('step-up-code').fill(recovery[1]);
    await confirm.getByTestId('step-up-submit').click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('channel-key').inputValue()).toBe('sk-e2e-secret');
    await page.screenshot({ path: `${SHOTS}/step-up-phone-dark-after.png` });
  });

  it('draws the e-mail bind dialog in the shared code-dialog frame', async () => {
    const page = await c.open({ width: 390, height: 844 });
    await page.goto('/login');
    await page.fill('input[name=username]', 'root');
    await page.fill('input[name=password]', ROOT_PASSWORD);
    await page.click('button[type=submit]');
    await page.getByTestId('two-factor-code').fill(recovery[2]);
    await page.getByRole('button', { name: '提交' }).click();
    await page.waitForURL(/\/panel\/dashboard$/);
    await page.goto('/panel/profile');
    await page.getByTestId('profile-tab-binding').click();
    await page.getByTestId('binding-email').getByRole('button', { name: '绑定' }).click();
    await page.getByTestId('bind-email').waitFor();
    await page.getByTestId('bind-code').waitFor();
    await page.screenshot({ path: `${SHOTS}/profile-email-bind-phone-light.png` });
  });
});
