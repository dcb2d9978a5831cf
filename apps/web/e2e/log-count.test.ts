import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seedBig } from '../../server/bench/seed-big';
import { chromiumAvailable, ROOT_PASSWORD, signIn, startConsole, type Console } from './browser';
import { shootThemes } from './shoot';

/** More log rows than the server counts: the log screen says "10,000+" and still pages. */
describe.skipIf(!chromiumAvailable)('capped log count in Chromium', () => {
  let c: Console;
  let page: Page;
  beforeAll(async () => {
    c = await startConsole();
    await seedBig(c.server.ctx.db, { users: 5, tokens: 10, channels: 2, logs: 10_050, days: 3 });
    page = await c.open();
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('shows "10,000+" in the paginator, pages on, and counts a narrow filter exactly', async () => {
    await page.goto('/panel/log');
    const label = page.locator('.MuiTablePagination-displayedRows');
    await expect.poll(() => label.innerText(), { timeout: 15_000 }).toBe('1-10 共 10,000+ 条');
    await shootThemes(page, 'log-capped-count', () => label.getByText('10,000+').waitFor());
    await page.getByRole('button', { name: /next page|下一页/i }).click();
    await expect.poll(() => label.innerText()).toBe('11-20 共 10,000+ 条');
    await page.getByTestId('log-tab-manage').click();
    await expect.poll(() => label.innerText()).toMatch(/^1-10 共 \d{3} 条$/);
  });
});
