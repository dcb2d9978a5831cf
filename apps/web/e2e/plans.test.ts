import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import OpenAI from 'openai';
import { ApiClient } from '../../server/test/harness';
import { chromiumAvailable, ROOT_PASSWORD, signIn, startConsole, type Console } from './browser';
import { shootThemes } from './shoot';
import { FakeEpay } from '../../server/test/fakes/epay';
import { FakeOpenAI } from '../../server/test/fakes/openai-upstream';
import { relayState } from '../../server/src/relay/state';

/** Subscription plans (issue 21.1): the admin screen, buying a plan through Epay, and its window usage on the dashboard. */
describe.skipIf(!chromiumAvailable)('subscription plans in Chromium', () => {
  let c: Console;
  let page: Page;
  const epay = new FakeEpay();
  const upstream = new FakeOpenAI();
  let key = '';
  beforeAll(async () => {
    await epay.start();
    await upstream.start();
    epay.merchants.set('1001', 'PLAN-SECRET');
    c = await startConsole();
    await c.root.put('/api/option/', { key: 'ServerAddress', value: c.base });
    await c.root.post('/api/payment/', { type: 'epay', name: 'Epay', icon: 'i', currency: 'USD', config: JSON.stringify({ pay_domain: epay.url, partner_id: '1001', key: 'PLAN-SECRET', pay_type: 'alipay' }) });
    await c.root.post('/api/channel/', { type: 1, name: 'up', key: 'k-plan', base_url: upstream.url, models: 'plan-model', group: 'default' });
    await c.server.ctx.db.insertInto('prices').values({ model: 'plan-model', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await c.server.ctx.store.publish('prices:changed', '');
    await relayState(c.server.ctx).selector.reload();
    const anon = new ApiClient(c.server.app);
    await anon.post('/api/user/register', { username: 'planbuyer', password: 'password123' });
    const buyer = new ApiClient(c.server.app);
    await buyer.login('planbuyer', 'password123');
    await buyer.post('/api/token/', { name: 'plan', unlimited_quota: true });
    key = `sk-${(await buyer.get('/api/token/')).body.data.data[0].key}`;
    page = await c.open({ lang: 'en_US' });
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await epay.close();
    await upstream.close();
  });

  it('lets root create a plan on the plans screen', { timeout: 120_000 }, async () => {
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/plan');
    await page.getByTestId('plan-page').waitFor();
    await page.getByTestId('plan-create').click();
    const dialog = page.getByTestId('plan-dialog');
    await dialog.getByLabel('Name').fill('Pro monthly');
    await dialog.getByLabel('Price').fill('12.5');
    await dialog.getByLabel('Quota per window').fill('2000000');
    await dialog.getByLabel('Models covered').fill('plan-model');
    await page.getByTestId('plan-save').click();
    await page.getByRole('row').filter({ hasText: 'Pro monthly' }).waitFor();
    const [plan] = (await c.root.get('/api/plan/')).body.data;
    expect(plan).toMatchObject({ name: 'Pro monthly', price: 12.5, currency: 'USD', window_kind: '5h', window_quota: 2_000_000, models: ['plan-model'] });
    await shootThemes(page, 'plan-admin', () => page.getByText('Pro monthly').first().waitFor());
    await page.context().clearCookies();
  });

  it('buys the plan through Epay and sees its window usage on the dashboard', { timeout: 150_000 }, async () => {
    await signIn(page, 'planbuyer', 'password123');
    await page.goto('/panel/subscription');
    await page.getByTestId('subscription-page').waitFor();
    await page.getByText('No running plan').waitFor();
    const offer = page.getByTestId(/^plan-offer-/).first();
    await offer.getByText('Pro monthly').waitFor();
    await offer.getByRole('button', { name: 'Buy' }).click();
    // The bill first: nothing is ordered until the user pays.
    await page.getByTestId('plan-checkout').getByTestId('sum-pay').getByText('$12.50').waitFor();
    expect((await c.root.get('/api/payment/order')).body.data.total_count).toBe(0);
    const checkout = page.context().waitForEvent('page');
    await page.getByTestId('plan-pay').click();
    const tab = await checkout;
    await tab.locator('#money').waitFor();
    expect(await tab.locator('#money').innerText()).toBe('12.50');
    await tab.locator('#pay').click();
    await tab.waitForURL(`${c.base}/panel/subscription`);
    await tab.close();
    await page.getByTestId('pay-succeeded').waitFor({ timeout: 15_000 });
    await page.getByTestId('pay-close').click();
    const card = page.getByTestId('plan-card');
    await card.getByText('Pro monthly').waitFor();
    await card.getByText('Active').waitFor();

    // A request for the covered model spends the window, not the balance.
    upstream.behave('k-plan', { usage: { prompt: 10, completion: 50_000 } });
    const sdk = new OpenAI({ apiKey: key, baseURL: `${c.base}/v1`, maxRetries: 0 });
    await sdk.chat.completions.create({ model: 'plan-model', max_tokens: 100_000, messages: [{ role: 'user', content: 'hello' }] });
    await page.goto('/panel/dashboard');
    const used = page.getByTestId('plan-card').getByTestId('plan-window-used');
    await used.waitFor();
    await expect.poll(() => used.innerText()).toBe('$0.10 of $4.00 used (this 5-hour window)');
    // The window counts at once; the log row comes with the next batch flush.
    await expect.poll(async () => (await c.root.get('/api/log/?size=1')).body.data.data[0], { timeout: 10_000 }).toMatchObject({ quota: 0, model_name: 'plan-model' });
    expect(await page.getByTestId('plan-card').innerText()).toContain('Resets');
    await shootThemes(page, 'plan-dashboard', () => page.getByTestId('plan-window-used').waitFor());
    await page.goto('/panel/subscription');
    await shootThemes(page, 'plan-subscription', () => page.getByTestId('plan-window-used').waitFor());
    await page.context().clearCookies();
  });

  it('shows root the bought subscription with its window spend on the plans screen', { timeout: 120_000 }, async () => {
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/plan');
    const subs = page.getByTestId('plan-subscriptions');
    const bought = subs.getByRole('row').filter({ hasText: 'Bought' });
    await bought.waitFor();
    expect(await bought.innerText()).toContain('$0.10 / $4.00');
    // The source column is hidden at phone width: wait for the spend instead.
    await shootThemes(page, 'plan-admin-subscriptions', () => page.getByTestId('plan-subscriptions').getByText('$0.10 / $4.00').first().waitFor());
  });
});
