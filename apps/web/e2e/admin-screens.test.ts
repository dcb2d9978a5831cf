import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiClient } from '../../server/test/harness';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, toasts, type Console } from './browser';
import { shootThemes } from './shoot';

/** Users, user groups, redemption codes and settings (console-screens §3.5, §3.6, §3.9, §3.17) as root sees them. */
describe.skipIf(!chromiumAvailable)('admin screens in Chromium: users, groups, redemption, settings', () => {
  let c: Console;
  let page: Page;
  beforeAll(async () => {
    c = await startConsole();
    page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') console.log('PAGE ERRORS', c.errors);
    if (ctx.task.result?.state === 'fail') await page.screenshot({ path: `/tmp/s3/fail-${ctx.task.name.slice(0, 20)}.png` });
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const row = (text: string) => page.getByRole('row').filter({ hasText: text });
  const findUser = async (name: string) => (await c.root.get(`/api/user/?keyword=${name}`)).body.data.data.find((u: { username: string }) => u.username === name);

  it('manages a user: create, change quota in dollars, edit, disable', async () => {
    await page.goto('/panel/user');
    await page.getByTestId('user-page').waitFor();
    await page.getByTestId('user-create').click();
    await dialog().getByLabel('Username').fill('carol');
    await dialog().locator('input[name=password]').fill('short');
    await page.getByTestId('user-submit').click();
    await dialog().getByText('Too short').waitFor();
    await dialog().locator('input[name=password]').fill('password123');
    await page.getByTestId('user-submit').click();
    await row('carol').waitFor();

    await page.getByTestId('user-menu-carol').click();
    await page.getByRole('menuitem', { name: 'Change quota' }).click();
    await dialog().getByLabel('Amount').fill('0');
    await page.getByTestId('quota-submit').click();
    await dialog().getByText('Cannot be 0').waitFor();
    await dialog().getByLabel('Amount').fill('3');
    await dialog().getByText('= 1500000 quota points').waitFor();
    await page.getByTestId('quota-submit').click();
    await row('carol').getByText('$3.00').waitFor();
    expect((await findUser('carol')).quota).toBe(1_500_000);

    await page.getByTestId('user-menu-carol').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await dialog().getByLabel('Display name').fill('Carol C');
    await dialog().getByLabel('Group').waitFor();
    await page.getByTestId('user-submit').click();
    await expect.poll(async () => (await findUser('carol')).display_name).toBe('Carol C');

    await page.getByLabel('Status of carol').click();
    await expect.poll(async () => (await findUser('carol')).status).toBe(2);
    await expect.poll(() => page.getByLabel('Status of carol').isChecked()).toBe(false);
    await shootThemes(page, 'user', () => page.getByText('carol').first().waitFor());
  });

  it('creates a user group with its ratio and rate', async () => {
    await page.goto('/panel/user_group');
    await page.getByTestId('user-group-create').click();
    await dialog().getByLabel('Symbol').fill('贵宾');
    await dialog().getByLabel('Name', { exact: false }).first().waitFor();
    await page.getByTestId('user-group-submit').click();
    await dialog().getByText('Letters, digits, - and _ only').waitFor();
    await dialog().getByLabel('Symbol').fill('gold');
    await dialog().locator('input[name=name]').fill('Gold');
    await dialog().getByLabel('Ratio').fill('0.8');
    await dialog().getByLabel('API rate').fill('120');
    await dialog().getByRole('switch', { name: 'Public' }).click();
    await page.getByTestId('user-group-submit').click();
    await row('gold').waitFor();
    const groups = (await c.root.get('/api/user_group/')).body.data.data;
    expect(groups.find((g: { symbol: string }) => g.symbol === 'gold')).toMatchObject({ name: 'Gold', ratio: 0.8, api_rate: 120, public: true, enable: true });
    // Min and max have their columns from 1536 px (below, they open with the row).
    await page.setViewportSize({ width: 1600, height: 860 });
    await page.getByRole('button', { name: 'Min top-up ($)' }).click();
    await page.getByRole('button', { name: 'Public' }).click();
    await expect.poll(() => page.getByTestId('table-row').count()).toBe(4);
    expect(await page.getByTestId('table-error').count()).toBe(0);
    await page.setViewportSize({ width: 1366, height: 860 });
    await shootThemes(page, 'user-group', () => page.getByText('Gold').first().waitFor());
  });

  it('creates three codes as a downloaded text file, and a user redeems one', async () => {
    await page.goto('/panel/redemption');
    await page.getByTestId('redemption-create').click();
    await dialog().getByLabel('Name').fill('promo');
    await dialog().getByLabel('Quota').fill('1000000');
    await dialog().getByText('equals $2.00').waitFor();
    await dialog().getByLabel('How many').fill('3');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('redemption-submit').click()]);
    expect(download.suggestedFilename()).toBe('promo.txt');
    const keys = readFileSync((await download.path())!, 'utf8').trim().split('\n');
    expect(keys).toHaveLength(3);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'promo' }).count()).toBe(3);

    const dave = new ApiClient(c.server.app);
    expect((await dave.post('/api/user/register', { username: 'dave', password: 'password123' })).body.success).toBe(true);
    const davePage = await c.open({ lang: 'en_US' });
    await signIn(davePage, 'dave', 'password123');
    const answer = await davePage.evaluate(async (key) => (await fetch('/api/user/topup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key }) })).json(), keys[0]);
    expect(answer).toMatchObject({ success: true, data: 1_000_000 });

    await page.getByLabel('Refresh').click();
    await page.getByRole('row').filter({ hasText: 'promo' }).getByText('Used', { exact: true }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Not yet redeemed' }).count()).toBe(2);
    await shootThemes(page, 'redemption', () => page.getByText('promo').first().waitFor());
  });

  it('edits settings and sees them applied: system name in the header, a switch that persists, the lock-out warning', async () => {
    await page.goto('/panel/setting#other');
    await page.getByTestId('tab-other').waitFor();
    await page.locator('input[name=SystemName]').fill('Acme Hub');
    await page.getByRole('button', { name: 'Set system name' }).click();
    await expect.poll(() => toasts(page)).toContain('Saved');
    await page.getByRole('banner').getByText('Acme Hub').waitFor();

    await page.locator('textarea[name=Notice]').fill('# Hello\n<img src="x" onerror="window.hacked=1">');
    await page.getByTestId('fields-Notice').getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('preview-Notice').getByRole('heading', { name: 'Hello' }).waitFor();
    expect(await page.getByTestId('preview-Notice').innerHTML()).not.toContain('onerror');

    await page.getByTestId('tab-operation').click();
    await page.waitForURL(/#operation$/);
    const logSwitch = page.getByRole('switch', { name: 'Record quota consumption logs' });
    expect(await logSwitch.isChecked()).toBe(true);
    await logSwitch.click();
    await expect.poll(() => logSwitch.isChecked()).toBe(false);
    await page.reload();
    await page.getByRole('switch', { name: 'Record quota consumption logs' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Record quota consumption logs' }).isChecked()).toBe(false);
    const options = (await c.root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    expect(options.find((o) => o.key === 'LogConsumeEnabled')?.value).toBe('false');
    expect(options.find((o) => o.key === 'SystemName')?.value).toBe('Acme Hub');

    await page.getByRole('button', { name: 'Clear old logs' }).click();
    await expect.poll(() => toasts(page)).toContainEqual(expect.stringMatching(/^\d+ logs cleared$/));

    await page.locator('input[name=QuotaPerUnit]').fill('-1');
    await page.getByTestId('section-general').getByRole('button', { name: 'Save settings' }).click();
    // The bound is named at the field.
    await page.getByTestId('section-general').getByText(/^Must be at least /).waitFor();

    await page.getByTestId('tab-system').click();
    await page.getByRole('switch', { name: 'Allow sign-in with a password' }).click();
    await page.getByTestId('lockout-dialog').getByText('locked out', { exact: false }).waitFor();
    await page.getByTestId('lockout-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('lockout-dialog').waitFor({ state: 'hidden' });
    expect(await page.getByRole('switch', { name: 'Allow sign-in with a password' }).isChecked()).toBe(true);

    await page.locator('input[name=EmailDomainWhitelist]').fill('example.org');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Save whitelist' }).click();
    await expect.poll(async () => ((await c.root.get('/api/option/')).body.data as Array<{ key: string; value: string }>).find((o) => o.key === 'EmailDomainWhitelist')?.value).toMatch(/,example\.org$/);

    for (const tab of ['operation', 'system', 'other']) {
      await page.goto(`/panel/setting#${tab}`);
      await shootThemes(page, `setting-${tab}`, () => page.getByTestId(`tab-${tab}`).waitFor());
    }
  });

  it('fits its dialogs on a phone in dark mode', async () => {
    const phone = await c.open({ lang: 'en_US', width: 390, height: 844 });
    await phone.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(phone, 'root', ROOT_PASSWORD);
    for (const [path, button, name] of [
      ['/panel/user', 'user-create', 'user-dialog'],
      ['/panel/user_group', 'user-group-create', 'user-group-dialog'],
      ['/panel/redemption', 'redemption-create', 'redemption-dialog'],
    ]) {
      await phone.goto(path);
      await phone.getByTestId(button).click();
      await phone.getByRole('dialog').waitFor();
      await phone.waitForTimeout(300);
      await noSidewaysScroll(phone);
      await phone.screenshot({ path: `${SHOTS}/${name}-phone-dark.png` });
    }
    await phone.goto('/panel/user');
    await phone.getByTestId('user-menu-carol').click();
    await phone.getByRole('menuitem', { name: 'Change quota' }).click();
    await phone.getByRole('dialog').getByLabel('Amount').fill('-1');
    await phone.waitForTimeout(300);
    await noSidewaysScroll(phone);
    await phone.screenshot({ path: `${SHOTS}/quota-dialog-phone-dark.png` });
  });
});
