import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { chromiumAvailable, ROOT_PASSWORD, SHOTS, signIn, startConsole, toasts, type Console } from './browser';

/** Every group title and every shown link of the sidebar lies inside the viewport, with nothing to scroll. */
async function menuFits(page: Page) {
  const nav = page.getByRole('navigation', { name: 'main' });
  // the unfolding animation has ended when the nav's content stops growing
  await expect.poll(() => nav.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
  const height = page.viewportSize()!.height;
  const boxes = await nav.locator('[data-testid="menu-group"], a').evaluateAll((els) =>
    els.map((el) => ({ text: (el as HTMLElement).innerText, bottom: el.getBoundingClientRect().bottom, top: el.getBoundingClientRect().top })),
  );
  expect(boxes.length).toBeGreaterThan(4);
  for (const b of boxes) {
    expect(b.top, b.text).toBeGreaterThanOrEqual(0);
    expect(b.bottom, b.text).toBeLessThanOrEqual(height);
  }
}

async function openGroups(page: Page) {
  return page.getByTestId('menu-group').evaluateAll((els) => els.filter((el) => el.getAttribute('aria-expanded') === 'true').map((el) => el.getAttribute('data-group')));
}

describe.skipIf(!chromiumAvailable)('the sidebar fits the screen and a failed refresh keeps the rows', () => {
  let c: Console;
  beforeAll(async () => {
    c = await startConsole({ USER_INVOICE_MONTH: 'true' });
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('fits 1440×900 and 1366×768 for root in every language, light and dark, only the current group unfolded', async () => {
    for (const lang of ['zh_CN', 'zh_HK', 'en_US', 'ja_JP']) {
      const page = await c.open({ width: 1440, height: 900, lang });
      const theme = lang === 'zh_HK' || lang === 'ja_JP' ? 'dark' : 'light';
      await page.addInitScript((th) => localStorage.setItem('theme', th), theme);
      await signIn(page, 'root', ROOT_PASSWORD);
      // the dashboard, and the longest case: a settings screen inside an open collapse
      for (const [path, group] of [['/panel/dashboard', 'dashboard'], ['/panel/pricing', 'setting'], ['/panel/invoice', 'usage']] as const) {
        await page.goto(path);
        await expect.poll(() => openGroups(page)).toEqual([group]);
        for (const [width, height] of [[1440, 900], [1366, 768]]) {
          await page.setViewportSize({ width, height });
          await menuFits(page);
        }
        await page.setViewportSize({ width: 1440, height: 900 });
      }
      expect(await page.getByTestId('menu-group').count()).toBe(4);
      await page.getByRole('navigation', { name: 'main' }).getByRole('link').first().waitFor();
      if (lang === 'zh_CN' || lang === 'ja_JP') await page.screenshot({ path: `${SHOTS}/menu-1440-${lang}-${theme}.png` });
      await page.context().close();
    }
  }, 240_000);

  it('unfolds a group on click and follows the route; the phone drawer fits 390×844', async () => {
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'main' });
    expect(await nav.getByRole('link', { name: '令牌', exact: true }).count()).toBe(0);
    await page.locator('[data-testid="menu-group"][data-group="setting"]').click();
    await nav.getByRole('link', { name: '令牌', exact: true }).click();
    await page.waitForURL(/\/panel\/token$/);
    await expect.poll(() => openGroups(page)).toEqual(['setting']);
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await menuFits(page);
    await page.screenshot({ path: `${SHOTS}/menu-1440-token-dark.png` });

    for (const theme of ['light', 'dark']) {
      const phone = await c.open({ width: 390, height: 844 });
      await phone.evaluate((th) => localStorage.setItem('theme', th), theme).catch(() => undefined);
      await signIn(phone, 'root', ROOT_PASSWORD);
      await phone.getByTestId('drawer-toggle').click();
      await expect.poll(() => openGroups(phone)).toEqual(['dashboard']);
      await menuFits(phone);
      await phone.locator('[data-testid="menu-group"][data-group="usage"]').click();
      await phone.getByRole('navigation', { name: 'main' }).getByRole('link', { name: '日志', exact: true }).waitFor();
      await phone.waitForTimeout(300); // let the drawer and the group finish unfolding for the picture
      await phone.screenshot({ path: `${SHOTS}/menu-phone-drawer-${theme}.png` });
      await phone.getByRole('navigation', { name: 'main' }).getByRole('link', { name: '日志', exact: true }).click();
      await phone.waitForURL(/\/panel\/log$/);
      await phone.context().close();
    }
  });

  it('keeps the rows under a dated banner when a refresh fails (500, 429, network, success:false) until Retry works', async () => {
    const page = await c.open({ width: 1440, height: 900, lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/user');
    const row = page.getByTestId('table-row').filter({ hasText: 'root' });
    await row.waitFor();
    const isList = (url: URL) => url.pathname === '/api/user/';
    const failures: [string, (r: Route) => Promise<void>, RegExp][] = [
      ['500', (r) => r.fulfill({ status: 500, json: { success: false, message: '' } }), /internal server error/i],
      ['429', (r) => r.fulfill({ status: 429, json: { success: false, message: '' } }), /too many requests/i],
      ['network', (r) => r.abort('connectionreset'), /unable to connect/i],
      ['success-false', (r) => r.fulfill({ status: 200, json: { success: false, message: 'database is busy' } }), /database is busy/],
    ];
    for (const [name, fail, text] of failures) {
      await page.route(isList, fail);
      await page.getByRole('button', { name: /refresh/i }).first().click();
      const banner = page.getByTestId('table-stale');
      await banner.waitFor();
      expect(await banner.innerText(), name).toMatch(text);
      expect(await banner.innerText(), name).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      expect(await row.isVisible(), name).toBe(true);
      await expect.poll(async () => (await toasts(page)).join(' ')).toMatch(text);
      if (name === '500') {
        await page.screenshot({ path: `${SHOTS}/table-stale-1440-light.png` });
        await page.evaluate(() => localStorage.setItem('theme', 'dark'));
      }
      // once the server answers again, Retry clears the banner and the rows stay
      await page.unroute(isList);
      await banner.getByRole('button', { name: 'Retry' }).click();
      await banner.waitFor({ state: 'detached' });
      expect(await row.isVisible(), name).toBe(true);
    }
    await page.reload();
    await row.waitFor();
    await page.route(isList, (r) => r.fulfill({ status: 500, json: { success: false, message: '' } }));
    await page.getByRole('button', { name: /refresh/i }).first().click();
    await page.getByTestId('table-stale').waitFor();
    await page.screenshot({ path: `${SHOTS}/table-stale-1440-dark.png` });
    // the banner and its Retry stay on a 1366×768 screen too
    await page.setViewportSize({ width: 1366, height: 768 });
    const retry = (await page.getByTestId('table-stale').getByRole('button', { name: 'Retry' }).boundingBox())!;
    expect(retry.x + retry.width).toBeLessThanOrEqual(1366);
    expect(retry.y + retry.height).toBeLessThanOrEqual(768);
    await page.screenshot({ path: `${SHOTS}/table-stale-1366-dark.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('table-stale').waitFor();
    await page.screenshot({ path: `${SHOTS}/table-stale-phone-dark.png` });
  });
});
