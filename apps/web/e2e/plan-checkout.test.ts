import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../server/test/harness';
import { chromiumAvailable, signIn, startConsole, type Console } from './browser';
import { shootThemes } from './shoot';
import { FakeEpay } from '../../server/test/fakes/epay';

/**
 * Buying a plan shows the bill first (issue 38.8): the gateway, the price in the gateway's currency,
 * the fee and the rate, before any order exists; a plan the user holds offers Renew (or nothing, when it
 * does not renew), in all four languages.
 */
const TEXTS = {
  zh_CN: { buy: '购买', renew: '续费', held: '已订阅', fee: '手续费（3%）', pay: '实际支付（人民币，汇率 7.2）', amount: '¥74.16', price: '套餐价格', cancel: '取消' },
  zh_HK: { buy: '購買', renew: '續費', held: '已訂閱', fee: '手續費（3%）', pay: '實際支付（人民幣，匯率 7.2）', amount: '¥74.16', price: '套餐價格', cancel: '取消' },
  en_US: { buy: 'Buy', renew: 'Renew', held: 'Active', fee: 'Fee (3%)', pay: 'Amount to pay (CNY, exchange rate 7.2)', amount: 'CNY 74.16', price: 'Plan price', cancel: 'Cancel' },
  ja_JP: { buy: '購入する', renew: '更新する', held: '契約中', fee: '手数料（3%）', pay: '支払額（人民元、為替レート 7.2）', amount: 'CNY 74.16', price: 'プラン価格', cancel: 'キャンセル' },
} as const;

describe.skipIf(!chromiumAvailable)('plan checkout in Chromium', () => {
  let c: Console;
  const epay = new FakeEpay();
  const ids: Record<string, number> = {};
  const orders = async () => (await c.root.get('/api/payment/order')).body.data.total_count as number;
  beforeAll(async () => {
    await epay.start();
    epay.merchants.set('2002', 'CHECKOUT-SECRET');
    c = await startConsole();
    await c.root.put('/api/option/', { key: 'ServerAddress', value: c.base });
    await c.root.put('/api/option/', { key: 'PaymentUSDRate', value: '7.2' });
    const gw = await c.root.post('/api/payment/', {
      type: 'epay', name: 'Epay CNY', icon: 'i', currency: 'CNY', percent_fee: 0.03,
      config: JSON.stringify({ pay_domain: epay.url, partner_id: '2002', key: 'CHECKOUT-SECRET', pay_type: 'alipay' }),
    });
    expect(gw.body.success, JSON.stringify(gw.body)).toBe(true);
    const plan = { currency: 'USD', duration_kind: 'month', duration_count: 1, window_kind: 'day', window_quota: 1_000_000 };
    for (const [name, price, renews] of [['Pro', 10, true], ['Lite', 10, false], ['Solo', 3, false]] as const) {
      const res = await c.root.post('/api/plan/', { ...plan, name, price, renews });
      expect(res.body.success, JSON.stringify(res.body)).toBe(true);
      ids[name] = res.body.data.id;
    }
    const anon = new ApiClient(c.server.app);
    expect((await anon.post('/api/user/register', { username: 'checkout', password: 'password123' })).body.success).toBe(true);
    const buyer = await new ApiClient(c.server.app).login('checkout', 'password123');
    for (const name of ['Pro', 'Solo']) expect((await c.root.post('/api/plan/grant', { user_id: buyer.id, plan_id: ids[name] })).body.success).toBe(true);
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await epay.close();
  });

  // Each language at a desktop size and theme of its own: 1440×900 and 1366×768, light and dark (issue 38).
  const LOOKS: Record<string, [number, number, 'light' | 'dark']> = { zh_CN: [1440, 900, 'light'], zh_HK: [1366, 768, 'dark'], en_US: [1440, 900, 'dark'], ja_JP: [1366, 768, 'light'] };
  for (const [lang, tx] of Object.entries(TEXTS)) {
    const [width, height, theme] = LOOKS[lang];
    it(`shows the bill before the order and offers Renew for a held plan (${lang}, ${width}×${height}, ${theme})`, { timeout: 90_000 }, async () => {
      const page = await c.open({ lang, width, height });
      await page.addInitScript((th) => localStorage.setItem('theme', th), theme);
      await signIn(page, 'checkout', 'password123');
      await page.goto('/panel/subscription');
      const offer = (name: string) => page.getByTestId(`plan-offer-${ids[name]}`);
      await offer('Pro').getByRole('button', { name: tx.renew, exact: true }).waitFor();
      expect(await offer('Pro').getByRole('button', { name: tx.buy, exact: true }).count()).toBe(0);
      await expect.poll(() => offer('Solo').getByRole('button', { name: tx.held, exact: true }).isDisabled()).toBe(true);
      await expect.poll(() => offer('Lite').getByRole('button', { name: tx.buy, exact: true }).isEnabled()).toBe(true);

      // Buying: the gateway, the price, the 3 % fee and the CNY amount at the rate; no order yet.
      const before = await orders();
      await offer('Lite').getByRole('button', { name: tx.buy, exact: true }).click();
      const dialog = page.getByTestId('plan-checkout');
      await dialog.getByRole('button', { name: 'Epay CNY' }).waitFor();
      expect(await dialog.getByRole('button', { name: 'Epay CNY' }).getAttribute('aria-pressed')).toBe('true');
      expect(await dialog.getByTestId('sum-price').innerText()).toMatch(new RegExp(`^${tx.price}\\s+10\\.00 USD$`));
      expect(await dialog.getByTestId('sum-fee').innerText()).toMatch(new RegExp(`^${escape(tx.fee)}\\s+\\$0\\.30$`));
      expect(await dialog.getByTestId('sum-pay').innerText()).toMatch(new RegExp(`^${escape(tx.pay)}\\s+${escape(tx.amount)}$`));
      expect(await dialog.getByTestId('plan-renew-hint').count()).toBe(0);
      expect(await orders()).toBe(before);
      // the whole bill and its Pay button are on the screen, nothing to scroll to
      const pay = (await dialog.getByTestId('plan-pay').boundingBox())!;
      expect(pay.y + pay.height, `${width}×${height}`).toBeLessThanOrEqual(height);
      if (lang === 'en_US') await shootThemes(page, 'plan-checkout-buy', async () => {
        await offer('Lite').getByRole('button', { name: tx.buy, exact: true }).click();
        await dialog.getByTestId('sum-pay').waitFor();
      });
      await dialog.getByRole('button', { name: tx.cancel }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await orders()).toBe(before);

      // Renewing says when the new period starts.
      await offer('Pro').getByRole('button', { name: tx.renew, exact: true }).click();
      await dialog.getByTestId('plan-renew-hint').waitFor();
      expect(await dialog.getByTestId('sum-pay').innerText()).toContain(tx.amount);
      await page.context().close();
    });
  }

  it('orders the amount the bill showed when the user pays', { timeout: 90_000 }, async () => {
    const page = await c.open({ lang: 'en_US' });
    await signIn(page, 'checkout', 'password123');
    await page.goto('/panel/subscription');
    await page.getByTestId(`plan-offer-${ids.Lite}`).getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByTestId('plan-checkout').getByTestId('sum-pay').waitFor();
    const tab = page.context().waitForEvent('page');
    await page.getByTestId('plan-pay').click();
    const epayTab = await tab;
    await epayTab.locator('#money').waitFor();
    expect(await epayTab.locator('#money').innerText()).toBe('74.16');
    await page.getByTestId('pay-dialog').getByText('Order').waitFor();
    const [order] = (await c.root.get('/api/payment/order')).body.data.data;
    expect(order).toMatchObject({ order_amount: 74.16, order_currency: 'CNY', fee: 0.3 });
  });
});

function escape(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
