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

  it('fits the log table into 1440×900 with every default column, detail included', async () => {
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/log');
    await page.getByTestId('table-row').nth(2).waitFor();
    for (const header of ['时间', '渠道', '用户', '令牌', '类型', '模型', '详情']) await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
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
      await page.getByTestId('log-text').filter({ hasText: expected }).first().waitFor();
      const texts = await page.getByTestId('log-text').allInnerTexts();
      expect(texts.length, tab).toBeGreaterThan(0);
      for (const text of texts) expect(cjk.test(text), text).toBe(false);
    }
    // the API keeps the Chinese text for scripts that read it
    const raw = (await buyer.get('/api/log/self?log_type=1')).body.data.data as Array<{ content: string }>;
    expect(raw[0].content).toMatch(/^通过兑换码充值/);
    await shootThemes(page, 'log-server-text-en', () => page.getByTestId('log-text').first().waitFor());
  });

  it('shows a scroll cue when the menu overflows 1440×900, and Ctrl+K jumps to a screen or a channel by name', async () => {
    const page = await c.open({ width: 1440, height: 900 });
    await signIn(page, 'root', ROOT_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'main' });
    const overflows = await nav.evaluate((el) => el.scrollHeight > el.clientHeight);
    if (overflows) {
      await page.getByTestId('menu-more').waitFor();
      await page.screenshot({ path: `${SHOTS}/menu-cue-desktop-light.png` });
      await page.getByTestId('menu-more').click();
      await expect.poll(() => nav.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    }
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
