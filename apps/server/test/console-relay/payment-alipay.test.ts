import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';
import { FakeAlipay, rsaPair } from '../fakes/alipay.js';

type Row = Record<string, any>;

/** Online top-up through Alipay (RSA2, public-key mode), end to end over HTTP against the gateway fake. */
describe.each(testDialects())('Alipay top-up on %s', (dialect) => {
  const fake = new FakeAlipay();
  let f: ConsoleFixture;
  let admin: TestUser;
  let base = '';
  const gws: Record<string, Row> = {};
  const quota = async (u: TestUser) => (await u.client.get('/api/user/self')).body.data.quota as number;
  const order = async (tradeNo: string) => (await admin.client.get(`/api/payment/order?trade_no=${tradeNo}`)).body.data.data[0] as Row;
  const gateway = async (name: string, config: Row, currency = 'CNY') => {
    const res = await admin.client.post('/api/payment/', { type: 'alipay', name, icon: 'i', currency, config: JSON.stringify({ app_id: fake.appId, ...config }) });
    expect(res.status).toBe(201);
    return res.body.data as Row;
  };
  const notifyUrl = (g: Row) => `${base}/api/payment/notify/${g.uuid}`;
  const buy = async (u: TestUser, g: Row, amount: number) => {
    const res = (await u.client.post('/api/user/order', { uuid: g.uuid, amount })).body;
    expect(res.success).toBe(true);
    return res.data as Row;
  };

  beforeAll(async () => {
    await fake.start();
    f = await consoleFixture(dialect, { env: { ALIPAY_BASE_URL: `${fake.url}/gateway.do` } });
    base = await f.server.listen();
    await f.root.put('/api/option/', { key: 'ServerAddress', value: base });
    await f.root.put('/api/option/', { key: 'SystemName', value: 'Hub' });
    await f.root.put('/api/option/', { key: 'PaymentUSDRate', value: '7' });
    admin = await f.newUser({ admin: true });
    gws.face = await gateway('QR', { private_key: fake.app.privateBase64, public_key: fake.alipay.publicBase64, pay_type: 'facepay' });
    gws.page = await gateway('PC', { private_key: fake.app.privatePem, public_key: fake.alipay.publicPem, pay_type: 'pagepay' });
    gws.wap = await gateway('Phone', { private_key: fake.app.privateBase64, public_key: fake.alipay.publicBase64, pay_type: 'wappay' });
  });
  afterAll(async () => {
    await f?.close();
    await fake.close();
  });

  it('precreates a QR code (15 minutes, the subject of §23.2) and credits the signed notify once', async () => {
    const user = await f.newUser();
    const res = await buy(user, gws.face, 10);
    expect(res).toMatchObject({ type: 2, data: { url: expect.stringMatching(/^https:\/\/qr\.alipay\.com\//), method: 'GET' }, order: { order_amount: 70, order_currency: 'CNY' } });
    expect(fake.trades.get(res.trade_no)).toMatchObject({ method: 'alipay.trade.precreate', total_amount: '70.00', subject: 'Hub-Token充值:10', notify_url: notifyUrl(gws.face) });

    expect(await fake.pay(res.trade_no)).toBe('success');
    expect(await quota(user)).toBe(5_000_000);
    expect(await order(res.trade_no)).toMatchObject({ status: 'success', gateway_no: fake.trades.get(res.trade_no)!.trade_no });
    const logs = (await user.client.get('/api/log/self?log_type=1')).body.data.data as Row[];
    expect(logs.map((l) => l.content)).toEqual(['在线充值成功，充值积分: 5000000，支付金额：70.00 CNY']);
    expect(await fake.pay(res.trade_no)).toBe('success');
    expect(await quota(user)).toBe(5_000_000);
  });

  it('answers signed redirects for pagepay and wappay that the gateway accepts; a notify in the query string works too', async () => {
    const user = await f.newUser();
    for (const [g, method] of [[gws.page, 'alipay.trade.page.pay'], [gws.wap, 'alipay.trade.wap.pay']] as const) {
      const res = await buy(user, g, 2);
      expect(res).toMatchObject({ type: 1, data: { url: `${fake.url}/gateway.do`, method: 'GET', params: { method, return_url: `${base}/panel/log`, notify_url: notifyUrl(g) } } });
      expect(JSON.parse(res.data.params.biz_content)).toMatchObject({ out_trade_no: res.trade_no, total_amount: '14.00', timeout_express: '15m' });
      const page = await fetch(`${res.data.url}?${new URLSearchParams(res.data.params)}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Alipay cashier 14.00');
      expect(await fake.notify(notifyUrl(g), fake.notifyParams(res.trade_no), true)).toBe('success');
    }
    expect(fake.rejected).toEqual([]);
    expect(await quota(user)).toBe(2_000_000);
  });

  it('refuses forged and altered notifies, fails an order paid for another amount, ignores unpaid states', async () => {
    const user = await f.newUser();
    const { trade_no: tradeNo } = await buy(user, gws.face, 5);
    const url = notifyUrl(gws.face);
    expect(await fake.notify(url, fake.notifyParams(tradeNo, {}, rsaPair().privateKey))).toBe('failure');
    expect(await fake.notify(url, { ...fake.notifyParams(tradeNo), total_amount: '0.01' })).toBe('failure');
    expect(await fake.notify(url, fake.notifyParams(tradeNo, { app_id: '2021000000000000' }))).toBe('failure');
    expect(await fake.notify(url, { ...fake.notifyParams(tradeNo), sign: '' })).toBe('failure');
    expect(await fake.notify(url, fake.notifyParams(tradeNo, { trade_status: 'WAIT_BUYER_PAY' }))).toBe('success');
    expect((await order(tradeNo)).status).toBe('pending');
    // Another gateway's notify URL: its key verifies, but the order is not its own.
    expect(await fake.notify(notifyUrl(gws.wap), fake.notifyParams(tradeNo))).toBe('success');
    expect((await order(tradeNo)).status).toBe('pending');
    expect(await fake.notify(url, fake.notifyParams(tradeNo, { total_amount: '0.01' }))).toBe('success');
    expect(await order(tradeNo)).toMatchObject({ status: 'failed', fail_reason: 'paid 0.01 CNY, order is 35.00 CNY' });
    expect(await fake.pay(tradeNo)).toBe('success');
    expect(await quota(user)).toBe(0);
  });

  it('credits once under 20 concurrent duplicate notifies', async () => {
    const user = await f.newUser();
    const { trade_no: tradeNo } = await buy(user, gws.face, 3);
    const params = fake.notifyParams(tradeNo);
    const answers = await Promise.all(Array.from({ length: 20 }, () => fake.notify(notifyUrl(gws.face), params)));
    expect(answers).toEqual(Array(20).fill('success'));
    expect(await quota(user)).toBe(1_500_000);
  });

  it('refuses an answer Alipay did not sign, a USD gateway, and every notify without a public key', async () => {
    const user = await f.newUser();
    const wrongKey = await gateway('Wrong key', { private_key: fake.app.privateBase64, public_key: rsaPair().publicBase64 });
    expect((await user.client.post('/api/user/order', { uuid: wrongKey.uuid, amount: 1 })).status).toBe(502);
    const usd = await gateway('USD', { private_key: fake.app.privateBase64, public_key: fake.alipay.publicBase64 }, 'USD');
    expect((await user.client.post('/api/user/order', { uuid: usd.uuid, amount: 1 })).status).toBe(502);
    const notSet = await gateway('No key', { private_key: fake.app.privateBase64, public_key: '' });
    const { trade_no: tradeNo } = await buy(user, gws.face, 1);
    expect(await fake.notify(notifyUrl(notSet), fake.notifyParams(tradeNo))).toBe('failure');
    expect(await quota(user)).toBe(0);
  });
});
