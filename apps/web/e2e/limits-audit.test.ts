import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, type Console } from './browser';
import { shootThemes } from './shoot';

/** Request limits in the token dialog, and root's audit log of the change it made to another user. */
describe.skipIf(!chromiumAvailable)('request limits and the audit log in Chromium', () => {
  let c: Console;
  let page: Page;
  beforeAll(async () => {
    c = await startConsole();
    page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('saves a token with RPM and a daily cap from the dialog', async () => {
    await page.goto('/panel/token');
    await page.getByTestId('token-create').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('limited');
    await dialog.getByLabel('Requests per minute (RPM)').fill('30');
    await dialog.getByLabel('Daily spending cap (quota)').fill('500000');
    await page.screenshot({ path: `${SHOTS}/token-dialog-limits.png` });
    await page.getByTestId('token-submit').click();
    await expect.poll(async () => (await c.root.get('/api/token/')).body.data.data.find((t: { name: string }) => t.name === 'limited')?.setting.limits.request_limits).toMatchObject({ rpm: 30, daily_quota: 500000 });
  });

  it("shows root the admin's change with its diff, in light, dark and on a phone", async () => {
    const user = await c.root.post('/api/user/', { username: 'dave', password: 'password123' });
    expect(user.body.success).toBe(true);
    const dave = (await c.root.get('/api/user/?keyword=dave')).body.data.data[0];
    await c.root.post(`/api/user/quota/${dave.id}`, { quota: 1234 });
    await page.goto('/panel/audit_log');
    await page.getByTestId('audit-log-page').waitFor();
    await page.getByRole('row').filter({ hasText: `User ${dave.id}` }).first().getByLabel('Expand').click();
    await page.getByText('1234').first().waitFor();
    await shootThemes(page, 'audit-log', () => page.getByText('root (#1)').first().waitFor());
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll(page);
    await page.setViewportSize({ width: 1366, height: 860 });
  });
});
