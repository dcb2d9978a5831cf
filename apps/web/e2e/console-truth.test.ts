import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiClient } from '../../server/test/harness';
import { relayState } from '../../server/src/relay/state';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, toasts, type Console } from './browser';
import { startGateway } from './gateway';
import { shootThemes } from './shoot';

/** Issue 23: numbers that agree, tables that fit, feedback that tells the truth. */
describe.skipIf(!chromiumAvailable)('console truth: sessions, sums, prices and fit in Chromium', () => {
  let c: Console;
  let gw: Awaited<ReturnType<typeof startGateway>>;

  /** One chat completion through the gateway with the user's new token. */
  const chat = async (key: string, model: string) => {
    const res = await fetch(`${c.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await res.text();
  };

  beforeAll(async () => {
    c = await startConsole();
    gw = await startGateway(c);
    await gw.addModel('e2e-owned', { content: 'owned answer' }, 10000);
    // a model whose price names no owner (channel type 999 has no model_owned_by row)
    gw.fake.behave('orphan-key', { content: 'orphan answer' });
    await c.server.ctx.db.insertInto('prices').values({ model: 'e2e-orphan', type: 'tokens', channel_type: 999, input: 5000, output: 5000 }).execute();
    await c.server.ctx.store.publish('prices:changed', '');
    const orphan = await c.root.post('/api/channel/', { type: 1, name: 'orphan-channel', key: 'orphan-key', base_url: gw.fake.url, models: 'e2e-orphan', group: 'default' });
    expect(orphan.body.success, JSON.stringify(orphan.body)).toBe(true);
    // the VIP group pays ×0.8 and has its own channel for the owned model
    const seeded = (await c.root.get('/api/user_group/?size=100')).body.data.data.find((g: { symbol: string }) => g.symbol === 'vip');
    const vip = await c.root.put('/api/user_group/', { ...seeded, name: 'VIP', ratio: 0.8, public: false });
    expect(vip.body.success, JSON.stringify(vip.body)).toBe(true);
    gw.fake.behave('vip-key', { content: 'vip answer' });
    const vipChannel = await c.root.post('/api/channel/', { type: 1, name: 'vip-channel', key: 'vip-key', base_url: gw.fake.url, models: 'e2e-owned', group: 'vip' });
    expect(vipChannel.body.success, JSON.stringify(vipChannel.body)).toBe(true);
    // a model a channel serves with no price record at all
    const bare = await c.root.post('/api/channel/', { type: 1, name: 'bare-channel', key: 'bare-key', base_url: gw.fake.url, models: 'e2e-bare', group: 'default' });
    expect(bare.body.success, JSON.stringify(bare.body)).toBe(true);
    await relayState(c.server.ctx).selector.reload();

    const buyerId = await gw.addUser('buyer', 'password123');
    const buyer = new ApiClient(c.server.app);
    await buyer.login('buyer', 'password123');
    const created = await buyer.post('/api/token/', { name: 'relay', unlimited_quota: true });
    expect(created.body.data.key, JSON.stringify(created.body)).toMatch(/^[0-9A-Za-z]{48}$/);
    for (const model of ['e2e-owned', 'e2e-owned', 'e2e-orphan']) await chat(created.body.data.key, model);
    await gw.flush();
    expect(buyerId).toBeGreaterThan(0);

    const vipId = await gw.addUser('vipuser', 'password123');
    await c.server.ctx.db.updateTable('users').set({ group: 'vip' }).where('id', '=', vipId).execute();
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await gw?.close();
  });

  it('keeps the session on a 429 from /api/user/self and says "too many requests"; a page load stays far below the limit', async () => {
    const page = await c.open();
    await signIn(page, 'root', ROOT_PASSWORD);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(new URL(r.url()).pathname);
    });
    await page.goto('/panel/dashboard');
    await page.getByTestId('stat-requests-value').waitFor();
    await page.waitForLoadState('networkidle');
    // GLOBAL_API_RATE_LIMIT is 300 per 180 s: one dashboard load must not spend more than a few percent
    expect(calls.length, calls.join(' ')).toBeLessThanOrEqual(12);

    await page.route('**/api/user/self', (r) => r.fulfill({ status: 429, body: '' }));
    await page.goto('/panel/token');
    await expect.poll(() => toasts(page)).toContain('错误：请求次数过多，请稍后再试！');
    expect(new URL(page.url()).pathname).toBe('/panel/token');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null')?.username)).toBe('root');
    expect((await toasts(page)).filter((t) => t.includes('无法正常连接'))).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/session-429-desktop-light.png` });
  });

  const totals = async (page: Page) => ({
    cost: await page.getByTestId('chart-cost-total').innerText(),
    requests: await page.getByTestId('chart-requests-total').innerText(),
    tokens: await page.getByTestId('chart-tokens-total').innerText(),
  });

  it('sums every analytics grouping to the same totals, models without an owner under "other"', async () => {
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/analytics');
    await expect.poll(() => page.getByTestId('chart-requests-total').innerText().catch(() => '')).toContain('3');
    const byType = await totals(page);
    await page.getByTestId('chart-cost').locator('.apexcharts-legend-text', { hasText: '其他' }).waitFor();
    expect(byType.cost).not.toContain('$0.000');
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/analytics-model-type-desktop-light.png`, fullPage: true });
    for (const grouping of ['模型', '渠道']) {
      await page.getByLabel('分组方式').click();
      await page.getByRole('option', { name: grouping, exact: true }).click();
      await page.getByTestId('period-search').click();
      await page.getByTestId('chart-requests-total').waitFor();
      expect(await totals(page), grouping).toEqual(byType);
    }
    await page.getByTestId('chart-cost').locator('.apexcharts-legend-text', { hasText: 'orphan-channel' }).waitFor();
    // the y-axis of the request chart never prints the same tick twice
    const ticks = await page.getByTestId('chart-requests').locator('.apexcharts-yaxis-label').allTextContents();
    expect(ticks.length).toBeGreaterThan(1);
    expect(new Set(ticks).size).toBe(ticks.length);
    await shootThemes(page, 'analytics-period', () => page.getByTestId('chart-requests-total').waitFor());
  });

  it('shows a VIP user ×0.8 prices with their own group preselected', async () => {
    const page = await c.open();
    await signIn(page, 'vipuser', 'password123');
    await page.goto('/panel/model_price');
    await page.getByTestId('model-price-page').getByText('e2e-owned').first().waitFor();
    const text = await page.getByTestId('model-price-page').innerText();
    // 10000 × 0.002 per 1K tokens is $20 at ×1, $16 at the VIP ratio
    expect(text).toContain('$16');
    expect(text).not.toContain('$20');
    expect(text).toContain('VIP');
    await page.screenshot({ path: `${SHOTS}/model-price-vip-desktop-light.png`, fullPage: true });
  });

  it('fits the log table into 1440×900 with every default column, the detail opening with its row', async () => {
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/log');
    await page.getByTestId('table-row').nth(2).waitFor();
    for (const header of ['时间', '渠道', '用户', '令牌', '类型', '模型', '额度']) await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    // Below 1536 px the detail (like group and source IP) is folded into the expanded row (issue 38.1).
    expect(await page.getByRole('columnheader', { name: '详情', exact: true }).count()).toBe(0);
    await page.getByTestId('table-row').first().getByRole('button', { name: '展开' }).click();
    await page.getByTestId('folded-fields').getByText('详情', { exact: true }).waitFor();
    const fit = await page.locator('.MuiTableContainer-root').first().evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    await noSidewaysScroll(page);
    // the chooser tells the truth: the group column is off at this width, and ticking it shows it
    await page.getByTestId('column-settings').click();
    const groupItem = page.getByRole('menuitem', { name: '分组', exact: true });
    expect(await groupItem.locator('input').isChecked()).toBe(false);
    await groupItem.click();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: '分组', exact: true }).waitFor();
    await page.evaluate(() => localStorage.removeItem('log_hidden_columns'));
    await shootThemes(page, 'log-admin', () => page.getByTestId('table-row').first().waitFor());
  });

  it('fits the log table into 1440×900 in the other three languages too', async () => {
    for (const lang of ['zh_HK', 'en_US', 'ja_JP']) {
      const page = await c.open({ lang, width: 1440, height: 900 });
      await signIn(page, 'root', ROOT_PASSWORD);
      await page.goto('/panel/log');
      await page.getByTestId('table-row').nth(2).waitFor();
      await page.screenshot({ path: `${SHOTS}/log-admin-${lang}.png` });
      const fit = await page.locator('.MuiTableContainer-root').first().evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
        columns: [...el.querySelectorAll('th')].map((th) => `${th.textContent}:${Math.round(th.getBoundingClientRect().width)}`).join(' '),
      }));
      expect(fit.scroll, `${lang} ${fit.columns}`).toBeLessThanOrEqual(fit.client);
      await page.close();
    }
  });

  it('writes server log texts in the reader language: an English console shows no CJK in them', async () => {
    const buyer = new ApiClient(c.server.app);
    const me = await buyer.login('buyer', 'password123');
    const [code] = (await c.root.post('/api/redemption/', { name: 'e2e-text', quota: 500000, count: 1 })).body.data as string[];
    expect((await buyer.post('/api/user/topup', { key: code })).body.success).toBe(true);
    expect((await c.root.post(`/api/user/quota/${me.id}`, { quota: 1000, remark: 'thanks' })).body.success).toBe(true);
    const page = await c.open({ lang: 'en_US', width: 1440, height: 900 });
    await signIn(page, 'buyer', 'password123');
    const cjk = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
    for (const [tab, expected] of [['topup', 'Topped up $1.000000 with a redemption code'], ['manage', 'note: thanks']] as const) {
      await page.goto('/panel/log');
      await page.getByTestId(`log-tab-${tab}`).click();
      // Below 1536 px a row's text opens with it: open rows one at a time until the expected one
      // shows. (A loop over `.all()` clicked nth(i) locators, which move as rows open: the last ones
      // matched nothing and each click waited out Playwright's 30 s before its error was swallowed.)
      const collapsed = page.locator('button[aria-label="Expand"][aria-expanded="false"]');
      await expect
        .poll(
          async () => {
            if (await collapsed.count()) await collapsed.first().click({ timeout: 2_000 }).catch(() => undefined);
            return page.getByTestId('log-text').filter({ hasText: expected }).count();
          },
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0);
      const texts = await page.getByTestId('log-text').allInnerTexts();
      expect(texts.length, tab).toBeGreaterThan(0);
      for (const text of texts) expect(cjk.test(text), text).toBe(false);
    }
    // the API keeps the Chinese text for scripts that read it
    const raw = (await buyer.get('/api/log/self?log_type=1')).body.data.data as Array<{ content: string }>;
    expect(raw[0].content).toMatch(/^通过兑换码充值/);
    await shootThemes(page, 'log-server-text-en', async () => {
      await page.getByRole('button', { name: 'Expand' }).first().click();
      await page.getByTestId('log-text').first().waitFor();
    });
    // Two log tabs and four screenshots (1440 and 1366, light and dark): about 40 s on a quiet machine.
  }, 150_000);

  it('tells an administrator a model has no price set, and the link opens a new price for it', async () => {
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/model_price');
    const card = page.getByTestId('model-card').filter({ hasText: 'e2e-bare' });
    await card.getByTestId('no-price-set').waitFor();
    expect(await card.innerText()).toContain('未设置价格');
    // a priced model shows its price, not the marker
    expect(await page.getByTestId('model-card').filter({ hasText: 'e2e-owned' }).getByTestId('no-price-set').count()).toBe(0);
    await card.screenshot({ path: `${SHOTS}/model-price-unpriced-card-light.png` });
    await card.getByTestId('set-price-link').click();
    await page.waitForURL(/\/panel\/pricing/);
    await expect.poll(() => page.getByRole('dialog').locator('input[name="model"]').inputValue().catch(() => '')).toBe('e2e-bare');
    // the buyer (no admin) sees no marker
    const user = await c.open();
    await signIn(user, 'buyer', 'password123');
    await user.goto('/panel/model_price');
    await user.getByTestId('model-card').filter({ hasText: 'e2e-bare' }).waitFor();
    expect(await user.getByTestId('no-price-set').count()).toBe(0);
  });

  it('fits the token, user and channel tables into 1440×900 with the spec columns; an expired token says so', async () => {
    const made = await c.root.post('/api/token/', { name: 'stale-token', unlimited_quota: true });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    await c.server.ctx.db.updateTable('tokens').set({ expired_time: Math.floor(Date.now() / 1000) - 3600 }).where('name', '=', 'stale-token').execute();
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    const fits = async (path: string, headers: string[]) => {
      await page.goto(path);
      await page.getByTestId('table-row').first().waitFor();
      for (const header of headers) await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
      const fit = await page.locator('.MuiTableContainer-root').first().evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(fit.scroll, path).toBeLessThanOrEqual(fit.client);
      await noSidewaysScroll(page);
    };
    await fits('/panel/token', ['名称', '分组', '状态', '创建时间', '过期时间']);
    const stale = page.getByTestId('table-row').filter({ hasText: 'stale-token' });
    expect(await stale.innerText()).toContain('已过期');
    expect(await stale.locator('input[type="checkbox"]').count()).toBe(0);
    await shootThemes(page, 'token-table', () => page.getByTestId('table-row').first().waitFor());
    await fits('/panel/user', ['用户名', '分组', '创建时间', '最后登录 / IP']);
    // group names, not symbols: the seeded default group reads as its name
    expect(await page.getByTestId('table-row').filter({ hasText: 'buyer' }).innerText()).toContain('默认分组');
    await shootThemes(page, 'user-table', () => page.getByTestId('table-row').first().waitFor());
    await fits('/panel/channel', ['分组']);
    await shootThemes(page, 'channel-table', () => page.getByTestId('table-row').first().waitFor());
  });

  it('fits chart captions in all four languages at desktop and phone width, with axis labels readable in dark mode', async () => {
    /** Every caption of a card (chart titles and totals, stat card lines) stays inside its card, whole. */
    const captionsFit = (page: Page) =>
      page.locator('main .MuiCard-root').evaluateAll((cards) =>
        cards.flatMap((card) => {
          const box = card.getBoundingClientRect();
          return [...card.querySelectorAll('h6, p, span.MuiTypography-root, div.MuiTypography-root')]
            .filter((el) => !el.closest('.apexcharts-canvas') && el.textContent!.trim())
            .filter((el) => {
              const r = el.getBoundingClientRect();
              return el.scrollWidth > el.clientWidth + 1 || r.left < box.left - 1 || r.right > box.right + 1;
            })
            .map((el) => el.textContent);
        }),
      );
    /** Relative luminance (0–1) of the axis labels' fill colour. */
    const labelLuminance = (page: Page) =>
      page.locator('.apexcharts-xaxis-label, .apexcharts-yaxis-label').evaluateAll((els) =>
        els.map((el) => {
          const m = getComputedStyle(el).fill.match(/\d+(\.\d+)?/g)!.map(Number);
          const [r, g, b] = m.map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        }),
      );
    for (const lang of ['zh_CN', 'zh_HK', 'en_US', 'ja_JP']) {
      const page = await c.open({ lang, width: 1440, height: 900 });
      await signIn(page, 'root', ROOT_PASSWORD);
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
      for (const [w, h] of [[1440, 900], [390, 844]] as const) {
        await page.setViewportSize({ width: w, height: h });
        await page.goto('/panel/analytics');
        await expect.poll(() => page.getByTestId('chart-requests-total').innerText().catch(() => '')).toMatch(/\d/);
        await page.locator('.apexcharts-yaxis-label').first().waitFor();
        expect(await captionsFit(page), `${lang} ${w}`).toEqual([]);
        const lum = await labelLuminance(page);
        expect(lum.length).toBeGreaterThan(0);
        // on the dark paper the labels are light grey, never the light theme's dark grey
        for (const l of lum) expect(l, `${lang} ${w}`).toBeGreaterThan(0.3);
        await page.screenshot({ path: `${SHOTS}/analytics-captions-${lang}-${w}-dark.png`, fullPage: w > 400 });
      }
    }
  }, 240_000);

  it('picks dates with the localized MUI X picker on every screen that had a browser date input', async () => {
    const page = await c.open({ lang: 'ja_JP', width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    const screens: Array<[string, string, string]> = [
      ['/panel/log', 'filter-time-start', 'log'],
      ['/panel/task', 'task-filter-time-start', 'task'],
      ['/panel/midjourney', 'mj-filter-time-start', 'midjourney'],
      ['/panel/payment', 'order-filter-time-start', 'orders'],
      ['/panel/audit_log', 'audit-time-start', 'audit'],
      ['/panel/setting#operation', 'log-cleanup-before', 'log-cleanup'],
    ];
    for (const [path, testId, name] of screens) {
      await page.goto(path);
      const field = page.getByTestId(testId);
      await field.waitFor();
      expect(await page.locator('input[type="datetime-local"], input[type="date"]').count(), path).toBe(0);
      // the picker opens a Japanese calendar with a clear action
      await field.getByRole('button').last().click();
      const dialog = page.locator('.MuiPickerPopper-root, .MuiDialog-root').last();
      await dialog.waitFor();
      expect(await dialog.innerText(), path).toMatch(/[月日]/);
      await page.keyboard.press('Escape');
      await page.screenshot({ path: `${SHOTS}/date-picker-${name}-desktop-light.png` });
    }
    await page.goto('/panel/token');
    await page.getByTestId('token-create').click();
    await page.getByRole('dialog').getByText('有効期限なし', { exact: true }).click();
    await page.getByTestId('token-expiry').waitFor();
    expect(await page.getByRole('dialog').locator('input[type="datetime-local"]').count()).toBe(0);
    await page.getByRole('dialog').screenshot({ path: `${SHOTS}/date-picker-token-expiry-light.png` });
    await page.goto('/panel/log');
    await page.getByTestId('table-row').first().waitFor();
    // the pickers take a grid cell each and never widen the page
    await noSidewaysScroll(page);
    // (on a phone the filters fold behind a toggle: the ready signal is the first row)
    await shootThemes(page, 'log-filters-ja', () => page.getByTestId('table-row').first().waitFor());
  }, 240_000);

  // (the menu fitting 1440×900 and 1366×768 is proven in menu-refresh.test.ts)
  it('Ctrl+K jumps to a screen or a channel by name', async () => {
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.keyboard.press('Control+k');
    await page.getByTestId('quick-search-input').fill('兑换');
    await page.getByTestId('quick-search-results').getByText('兑换码').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/panel\/redemption$/);
    await page.keyboard.press('Control+k');
    await page.getByTestId('quick-search-input').fill('orphan');
    await page.getByTestId('quick-search-results').getByText('orphan-channel').click();
    await page.waitForURL(/\/panel\/channel\?q=orphan-channel$/);
    await page.getByTestId('table-row').filter({ hasText: 'orphan-channel' }).waitFor();
    expect(await page.getByTestId('table-row').count()).toBe(1);
  });

  it('keeps every paginator button inside a 390×844 phone and skips empty rows in log cards', async () => {
    const page = await c.open({ width: 390, height: 844 });
    await signIn(page, 'buyer', 'password123');
    for (const path of ['/panel/log', '/panel/token']) {
      await page.goto(path);
      await page.getByTestId('table-row').first().waitFor();
      const buttons = page.locator('.MuiTablePagination-actions button');
      expect(await buttons.count(), path).toBe(4);
      for (const box of await buttons.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
        expect(box.x, path).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, path).toBeLessThanOrEqual(390);
      }
      await noSidewaysScroll(page);
    }
    await page.goto('/panel/log');
    await page.getByTestId('table-row').first().waitFor();
    // every labelled line of a card has something to show
    const blanks = await page.getByTestId('table-row').evaluateAll((cards) =>
      cards.flatMap((card) => [...card.querySelectorAll(':scope > .MuiStack-root')].filter((line) => line.children.length === 2 && !line.lastElementChild!.textContent!.trim() && !line.lastElementChild!.querySelector('svg,input')).map((line) => line.firstElementChild!.textContent)),
    );
    expect(blanks).toEqual([]);
    await shootThemes(page, 'log-user', () => page.getByTestId('table-row').first().waitFor());
  });
});
