import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, ROOT_PASSWORD, SHOTS, signIn, startConsole, type Console } from './browser';
import { shootThemes } from './shoot';
import { startGateway } from './gateway';
import { ApiClient } from '../../server/test/harness';

const tiers = [{ above: 200000, input: 2.5, output: 7.5 }];

/** Long-context tiers in the price list, the price dialog and the model cards; the price sync preview. */
describe.skipIf(!chromiumAvailable)('price tiers and price sync in Chromium', () => {
  let c: Console;
  let page: Page;
  let list: Server;
  let listUrl = '';
  beforeAll(async () => {
    // A loopback price list the server fetches for the sync preview.
    list = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ model: 'tiered-pro', type: 'tokens', channel_type: 1, input: 1.5, output: 6, tiers }, { model: 'brand-new', type: 'tokens', channel_type: 1, input: 1, output: 1 }] }));
    });
    await new Promise<void>((r) => list.listen(0, '127.0.0.1', r));
    listUrl = `http://127.0.0.1:${(list.address() as AddressInfo).port}/prices.json`;
    c = await startConsole();
    page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
    expect((await c.root.post('/api/prices/single', { model: 'tiered-pro', type: 'tokens', channel_type: 1, input: 1.25, output: 5, tiers })).body.success).toBe(true);
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await new Promise((r) => list?.close(r));
  });

  it('shows the tiers in the admin price list and edits them in the price dialog', async () => {
    await page.goto('/panel/pricing');
    await page.getByTestId('price-search').fill('tiered');
    await page.getByTestId('price-tier').first().waitFor();
    expect(await page.getByTestId('price-tier').first().textContent()).toContain('Prompt > 200,000 tokens');
    await shootThemes(page, 'pricing-tiers', async () => {
      await page.getByTestId('price-search').fill('tiered');
      await page.getByTestId('price-tier').first().waitFor();
    });
    await page.getByTestId('price-search').fill('tiered');
    await page.getByTestId('price-edit').first().click();
    const tiersBox = page.getByTestId('price-tiers');
    await tiersBox.getByLabel('Prompt above (tokens)').waitFor();
    await tiersBox.getByLabel('Prompt above (tokens)').fill('128000');
    // The tier's own cache ratio (the first class offered is Cached).
    await tiersBox.getByRole('button', { name: 'Tier ratio' }).click();
    await tiersBox.getByLabel('Ratio').fill('0.1');
    await page.screenshot({ path: `${SHOTS}/price-dialog-tiers.png` });
    await page.getByTestId('price-submit').click();
    await expect.poll(async () => (await c.root.get('/api/prices')).body.data.find((p: { model: string }) => p.model === 'tiered-pro')?.tiers).toEqual([{ above: 128000, input: 2.5, output: 7.5, extra_ratios: { cached_tokens: 0.1 } }]);
    await page.getByTestId('price-tier-ratios').first().waitFor();
    expect(await page.getByTestId('price-tier-ratios').first().textContent()).toBe('Cached ×0.1');
  });

  it('previews the sync diff from a published list before applying it', async () => {
    await page.goto('/panel/pricing');
    await page.getByRole('button', { name: 'Update prices' }).click();
    const dialog = page.getByTestId('price-sync-dialog');
    await dialog.getByLabel('Price data URL').fill(listUrl);
    await dialog.getByRole('button', { name: 'Overwrite' }).click();
    await page.getByTestId('price-sync-preview').click();
    await dialog.getByTestId('price-sync-diff').waitFor();
    const text = await dialog.getByTestId('price-sync-diff').textContent();
    expect(text).toContain('+ brand-new');
    expect(text).toContain('tiered-pro: input 1.25 → 1.5; output 5 → 6; tiers >128,000: 2.5/7.5 (cached_tokens×0.1) → >200,000: 2.5/7.5');
    await page.screenshot({ path: `${SHOTS}/price-sync-preview-desktop-light.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/price-sync-preview-phone-light.png` });
    await page.setViewportSize({ width: 1366, height: 860 });
    await dialog.getByRole('button', { name: 'Add only' }).click();
    await expect.poll(async () => dialog.getByTestId('price-sync-diff').textContent()).not.toContain('tiered-pro');
    await page.getByTestId('price-sync-apply').click();
    await expect.poll(async () => (await c.root.get('/api/prices')).body.data.some((p: { model: string }) => p.model === 'brand-new')).toBe(true);
  });

  it("shows each tier's prices and usage-class ratios on the model cards and in the list, to visitors and users, with nothing of the channels", async () => {
    const gw = await startGateway(c);
    await gw.addModel('cache-tiered', {}, 1);
    // An untiered neighbour: the list view marks only the tiered price.
    await gw.addModel('plain-mini', {}, 1);
    const price = { model: 'cache-tiered', type: 'tokens', channel_type: 1, input: 1, output: 2, extra_ratios: { cached_tokens: 0.5 }, tiers: [{ above: 200000, input: 2, output: 4, extra_ratios: { cached_tokens: 0.1, cached_write_tokens: 1.25 } }, { above: 500000, input: 3, output: 6 }] };
    expect((await c.root.put('/api/prices/single/cache-tiered', price)).body.success).toBe(true);
    await gw.addUser('frank', 'password123');
    const visitor = await c.open({ lang: 'en_US' });
    const user = await c.open({ lang: 'en_US' });
    await signIn(user, 'frank', 'password123');
    const findCard = async (page: Page) => {
      await page.getByTestId('model-search').fill('cache-tiered');
      const card = page.getByTestId('model-card').filter({ hasText: 'cache-tiered' });
      await card.getByTestId('card-tier-ratios').first().waitFor();
      return card;
    };
    /** The list view with both models ("-" is in both names): the tiered one's row. */
    const listRow = async (page: Page) => {
      await page.getByRole('button', { name: 'List view' }).click();
      await page.getByTestId('model-search').fill('-');
      await page.getByTestId('table-row').filter({ hasText: 'plain-mini' }).waitFor();
      const row = page.getByTestId('table-row').filter({ hasText: 'cache-tiered' });
      await row.getByTestId('list-tier-badge').waitFor();
      return row;
    };
    const openListTiers = async (page: Page) => {
      await (await listRow(page)).getByTestId('list-tier-badge').click();
      const popover = page.getByTestId('list-tier-popover');
      await popover.waitFor();
      return popover;
    };
    for (const [page, path] of [[visitor, '/price'], [user, '/panel/model_price']] as const) {
      const answer = page.waitForResponse((r) => r.url().includes('/api/available_model'));
      await page.goto(path);
      const data = (await (await answer).json()).data as Record<string, Record<string, unknown>>;
      // Groups, owner and price only: no channel id, name, key or address.
      expect(Object.keys(data['cache-tiered']).sort()).toEqual(['groups', 'owned_by', 'price']);
      expect(Object.keys(data['cache-tiered'].price as object).sort()).toEqual(['channel_type', 'extra_ratios', 'input', 'locked', 'model', 'output', 'tiers', 'type']);
      expect(JSON.stringify(data)).not.toMatch(/e2e-key|127\.0\.0\.1|base_url|channel_id/);
      const card = await findCard(page);
      expect(await card.getByTestId('card-ratios').textContent()).toBe('Cached ×0.5');
      expect(await card.getByTestId('card-tier-ratios').allTextContents()).toEqual(['Cached ×0.1, Cache write ×1.25', 'Cached ×0.5']);
      // The list view marks the tiered price only; the mark opens the same tiers, worded as the card words them.
      const popover = await openListTiers(page);
      expect(await page.getByTestId('list-tier-badge').count()).toBe(1);
      expect(await popover.getByTestId('list-tier-base').textContent()).toBe('Prompt ≤ 200,000 tokens$0.002 / 1K / $0.004 / 1KCached ×0.5');
      expect(await popover.getByTestId('list-tier').allTextContents()).toEqual(['Prompt > 200,000 tokens$0.004 / 1K / $0.008 / 1KCached ×0.1, Cache write ×1.25', 'Prompt > 500,000 tokens$0.006 / 1K / $0.012 / 1KCached ×0.5']);
      await page.keyboard.press('Escape');
      await popover.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Card view' }).click();
    }
    // The detail dialog words them the same.
    await (await findCard(user)).getByRole('button', { name: 'View detail' }).click();
    const rows = user.getByRole('dialog').getByTestId('detail-tier');
    await rows.first().waitFor();
    expect(await rows.allTextContents()).toEqual([expect.stringContaining('Cached ×0.1, Cache write ×1.25'), expect.stringContaining('Cached ×0.5')]);
    await shootThemes(visitor, 'price-card-tier-ratios', async () => (await findCard(visitor)).scrollIntoViewIfNeeded());
    await shootThemes(visitor, 'price-list-tiers', async () => {
      await listRow(visitor);
      // On a phone: the rows and the paginator below them.
      await visitor.locator('.MuiTablePagination-root').scrollIntoViewIfNeeded();
    });
    await shootThemes(visitor, 'price-list-tier-popover', () => openListTiers(visitor));
    await gw.close();
  });

  it('a user sees their own failed request without upstream detail; root opens its captured bodies', async () => {
    const gw = await startGateway(c);
    await gw.addModel('broken-model', { status: 500, errorBody: { error: { message: 'db-7.internal exploded', type: 'server_error' } } }, 1);
    const userId = await gw.addUser('erin', 'password123');
    const erin = new ApiClient(c.server.app);
    await erin.login('erin', 'password123');
    await erin.post('/api/token/', { name: 'e', unlimited_quota: true });
    const token = (await erin.get('/api/token/')).body.data.data[0];
    expect((await c.root.put('/api/option/', { key: 'LogCaptureRules', value: JSON.stringify([{ kind: 'user', id: userId, until: Math.floor(Date.now() / 1000) + 3600 }]) })).body.success).toBe(true);
    const res = await fetch(`${c.base}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'broken-model', messages: [{ role: 'user', content: 'hello' }] }) });
    expect(res.status).toBeGreaterThanOrEqual(500);
    await gw.flush();

    const userPage = await c.open({ lang: 'en_US' });
    await signIn(userPage, 'erin', 'password123');
    await userPage.goto('/panel/log');
    // At 1440 px the detail sits in the expanded row (issue 38 point 1).
    await userPage.getByRole('row').filter({ hasText: 'broken-model' }).first().getByLabel('Expand').click();
    await userPage.getByText('502 upstream error').first().waitFor();
    expect(await userPage.content()).not.toContain('db-7.internal');
    await shootThemes(userPage, 'log-own-failure', () => userPage.getByText('broken-model').first().waitFor());

    await page.goto('/panel/log');
    await page.getByRole('row').filter({ hasText: 'broken-model' }).first().getByLabel('Expand').click();
    await page.getByText('db-7.internal').first().waitFor();
    await page.getByTestId('capture-open').first().click();
    await page.getByTestId('capture-view').first().waitFor();
    expect(await page.getByTestId('capture-view').first().textContent()).toContain('[redacted]');
    await page.screenshot({ path: `${SHOTS}/log-capture-desktop-light.png`, fullPage: true });
    await gw.close();
    // Where root sets the rules: the log section of the operation settings.
    await page.goto('/panel/setting#operation');
    const rules = page.getByLabel('Request capture rules');
    await rules.waitFor();
    expect(await rules.inputValue()).toContain('"kind": "user"');
    await rules.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/setting-capture-rules.png` });
  });
});
