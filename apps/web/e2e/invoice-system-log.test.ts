import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { upsertStatistics } from '../../server/src/db/repos/log-writes';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, toasts, unfoldMenu, type Console } from './browser';
import { shootThemes } from './shoot';

const stat = (date: string, model_name: string, request_count: number, quota: number) => ({ date, model_name, request_count, quota, prompt_tokens: quota * 2, completion_tokens: quota, request_time: request_count * 1500, channel_id: 1 });

/** Monthly bills (generated from Settings, then read by the user) and root's server log viewer (console-screens §3.6, §12). */
describe.skipIf(!chromiumAvailable)('monthly bills and system log in Chromium', () => {
  let c: Console;
  let page: Page;
  beforeAll(async () => {
    c = await startConsole({ USER_INVOICE_MONTH: 'true', LOG_LEVEL: 'info' });
    const rootId = (await c.root.get('/api/user/self')).body.data.id as number;
    await upsertStatistics(c.server.ctx.db, [
      { ...stat('2025-10-03', 'gpt-4o', 40, 1_500_000), user_id: rootId },
      { ...stat('2025-10-28', 'gpt-4o', 10, 500_000), user_id: rootId },
      { ...stat('2025-10-12', 'claude-sonnet-4', 5, 500_000), user_id: rootId },
    ]);
    page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await page.screenshot({ path: `${SHOTS}/fail-invoice-${ctx.task.name.slice(0, 20)}.png` });
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('generates October 2025 in Settings and shows it as a bill with per-model lines', async () => {
    await page.goto('/panel/setting');
    const tool = page.getByTestId('section-invoice');
    await tool.waitFor();
    await page.getByTestId('invoice-month').fill('2025-10');
    await page.getByTestId('invoice-gen').click();
    await expect.poll(() => toasts(page)).toContain('Bills for 2025-10 generated');
    await page.getByTestId('invoice-gen').click();
    await expect.poll(async () => (await toasts(page)).join(' ')).toMatch(/already generated/);
    await tool.screenshot({ path: `${SHOTS}/setting-invoice-tool.png` });

    await unfoldMenu(page);
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Monthly bills', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: '2025-10' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/2025-10[\s\S]*\$5\.0000[\s\S]*Input 5,000,000[\s\S]*Output 2,500,000[\s\S]*55[\s\S]*1 m 23 s/);
    await shootThemes(page, 'invoice-list', () => page.getByTestId('invoice-view-2025-10').waitFor());

    await page.getByTestId('invoice-view-2025-10').click();
    await page.waitForURL(/\/panel\/invoice\/detail\/2025-10-01$/);
    await page.getByText('Bill for 2025-10').waitFor();
    const gpt = page.getByRole('row').filter({ hasText: 'gpt-4o' });
    await gpt.waitFor();
    expect(await gpt.innerText()).toMatch(/gpt-4o[\s\S]*50[\s\S]*4,000,000[\s\S]*2,000,000[\s\S]*\$4\.0000[\s\S]*80\.0%/);
    expect(await page.getByTestId('invoice-total-amount').innerText()).toContain('$5.0000');
    await shootThemes(page, 'invoice-detail', () => page.getByText('claude-sonnet-4').waitFor());

    await page.goto('/panel/invoice/detail/2025-10-17');
    await page.getByTestId('invoice-page').waitFor();
    expect(page.url()).toMatch(/\/panel\/invoice$/);
  });

  it('lets root read, search and clear the server log', async () => {
    c.server.ctx.log.warn('e2e marker: upstream slow on channel 9');
    await page.goto('/panel/dashboard');
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'System info', exact: true }).click();
    await page.waitForURL(/\/panel\/system_info$/);
    const marker = page.getByTestId('log-line').filter({ hasText: 'e2e marker' });
    await marker.waitFor();
    expect(await marker.innerText()).toMatch(/WARN[\s\S]*upstream slow on channel 9/);
    await page.getByTestId('log-search').fill('E2E MARKER');
    await expect.poll(() => page.getByTestId('log-line').count()).toBe(1);
    await shootThemes(page, 'system-info', () => page.getByTestId('log-line').first().waitFor());

    await page.getByTestId('log-search').fill('');
    await page.getByTestId('log-clear').click();
    await page.getByTestId('log-empty').waitFor();
    c.server.ctx.log.error('e2e after the clear');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('log-line').filter({ hasText: 'e2e after the clear' }).waitFor();
    expect(await page.getByTestId('log-line').filter({ hasText: 'e2e marker' }).count()).toBe(0);

    const phone = await c.open({ width: 390, height: 844, lang: 'en_US' });
    await signIn(phone, 'root', ROOT_PASSWORD);
    await phone.goto('/panel/system_info');
    await phone.getByTestId('log-line').first().waitFor();
    await noSidewaysScroll(phone);
  });

  it('reads in Chinese on a phone', async () => {
    const zh = await c.open({ width: 390, height: 844, lang: 'zh_CN' });
    await signIn(zh, 'root', ROOT_PASSWORD);
    await zh.goto('/panel/invoice/detail/2025-10-01');
    await zh.getByText('2025-10 账单').waitFor();
    // the totals show a placeholder until the bill's figures arrive
    await expect.poll(() => zh.getByTestId('invoice-total-time').innerText(), { timeout: 15_000 }).toContain('1 分 23 秒');
    await noSidewaysScroll(zh);
    await zh.screenshot({ path: `${SHOTS}/invoice-detail-phone-zh.png`, fullPage: true });
    await zh.goto('/panel/setting');
    await zh.getByTestId('section-invoice').getByText('生成账单').waitFor();
    await zh.getByTestId('section-invoice').screenshot({ path: `${SHOTS}/setting-invoice-tool-phone-zh.png` });
  });

  it('keeps both screens from a common user: no menu items and a refused log route', async () => {
    await c.root.post('/api/user/', { username: 'billy', password: 'password123', display_name: 'Billy' });
    const user = await c.open({ lang: 'en_US' });
    await signIn(user, 'billy', 'password123');
    await unfoldMenu(user);
    await user.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Monthly bills', exact: true }).waitFor();
    expect(await user.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'System info', exact: true }).count()).toBe(0);
    await user.goto('/panel/system_info');
    await user.getByTestId('forbidden').waitFor();
    await user.goto('/panel/invoice');
    await user.getByText('No monthly bills yet').waitFor();
  });
});
