import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';
import { FakeWxpay } from '../fakes/wxpay.js';
import { rsaPair } from '../fakes/alipay.js';

type Row = Record<string, any>;

/** Online top-up through WeChat Pay API v3 Native (public-key mode), end to end over HTTP. */
describe.each(testDialects())('WeChat Pay top-up on %s', (dialect) => {
  const fake = new FakeWxpay();
  let f: ConsoleFixture;
  let admin: TestUser;
  let base = '';
  let gw: Row;
  const quota = async (u: TestUser) => (await u.client.get('/api/user/self')).body.data.quota as number;
  const order = async (tradeNo: string) => (await admin.client.get(`/api/payment/order?trade_no=${tradeNo}`)).body.data.data[0] as Row;
  const config = () => ({
    app_id: fake.appId, mch_id: fake.mchId, mch_certificate_serial_number: fake.merchantSerial, mch_apiv3_key: fake.apiV3Key,
    mch_private_key: fake.merchant.privatePem, wechatpay_public_key_id: fake.publicKeyId, wechatpay_public_key: fake.platform.publicPem, pay_type: 'Native',
  });
  const gateway = async (name: string, cfg: Row) => (await admin.client.post('/api/payment/', { type: 'wxpay', name, icon: 'i', currency: 'CNY', config: JSON.stringify(cfg) })).body.data as Row;
  const notifyUrl = (g: Row) => `${base}/api/payment/notify/${g.uuid}`;
  const buy = async (u: TestUser, amount: number) => {
    const res = (await u.client.post('/api/user/order', { uuid: gw.uuid, amount })).body;
    expect(res.success).toBe(true);
    return res.data as Row;
  };

  beforeAll(async () => {
    await fake.start();
    f = await consoleFixture(dialect, { env: { WECHATPAY_BASE_URL: fake.url } });
    base = await f.server.listen();
    await f.root.put('/api/option/', { key: 'ServerAddress', value: base });
    await f.root.put('/api/option/', { key: 'PaymentUSDRate', value: '7.25' });
    admin = await f.newUser({ admin: true });
    gw = await gateway('WeChat', config());
  });
  afterAll(async () => {
    await f?.close();
    await fake.close();
  });

  it('places a signed Native order (amount in fen), shows code_url, credits the decrypted notify once with 204', async () => {
    const user = await f.newUser();
    const res = await buy(user, 10);
    expect(res).toMatchObject({ type: 2, data: { url: expect.stringMatching(/^weixin:\/\/wxpay\/bizpayurl\?pr=/), method: 'GET' }, order: { order_amount: 72.5 } });
    expect(fake.rejected).toEqual([]);
    expect(fake.orders.get(res.trade_no)).toMatchObject({ amount: { total: 7250, currency: 'CNY' }, notify_url: notifyUrl(gw), mchid: fake.mchId, appid: fake.appId });

    expect(await fake.pay(res.trade_no)).toEqual({ status: 204, body: '' });
    expect(await quota(user)).toBe(5_000_000);
    expect(await order(res.trade_no)).toMatchObject({ status: 'success', gateway_no: fake.orders.get(res.trade_no)!.transaction_id });
    const logs = (await user.client.get('/api/log/self?log_type=1')).body.data.data as Row[];
    expect(logs.map((l) => l.content)).toEqual(['在线充值成功，充值积分: 5000000，支付金额：72.50 CNY']);
    expect((await fake.pay(res.trade_no)).status).toBe(204);
    expect(await quota(user)).toBe(5_000_000);
  });

  it('refuses forged, stale, altered and undecryptable notifies with 400 FAIL; fails a notify for another amount', async () => {
    const user = await f.newUser();
    const { trade_no: tradeNo } = await buy(user, 2);
    const body = fake.notifyBody(tradeNo);
    const url = notifyUrl(gw);
    const forged = await fake.notify(url, body, fake.signedHeaders(body, { key: rsaPair().privateKey }));
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toEqual({ code: 'FAIL', message: 'signature verification failed' });
    expect((await fake.notify(url, body, fake.signedHeaders(body, { timestamp: Math.floor(Date.now() / 1000) - 301 }))).status).toBe(400);
    expect((await fake.notify(url, body, fake.signedHeaders(body, { serial: 'PUB_KEY_ID_other' }))).status).toBe(400);
    expect((await fake.notify(url, body.replace('"summary":"支付成功"', '"summary":"x"'), fake.signedHeaders(body))).status).toBe(400);
    const wrongKey = fake.notifyBody(tradeNo, {}, 'TRANSACTION.SUCCESS', 'k'.repeat(32));
    expect(JSON.parse((await fake.notify(url, wrongKey)).body)).toEqual({ code: 'FAIL', message: 'resource decryption failed' });
    expect((await fake.notify(url, fake.notifyBody(tradeNo, { trade_state: 'NOTPAY' }))).status).toBe(204);
    expect((await fake.notify(url, fake.notifyBody(tradeNo, {}, 'REFUND.SUCCESS'))).status).toBe(204);
    expect((await fake.notify(url, fake.notifyBody(tradeNo, { mchid: '1900000000' }))).status).toBe(400);
    expect((await order(tradeNo)).status).toBe('pending');

    expect((await fake.notify(url, fake.notifyBody(tradeNo, { amount: { total: 1, currency: 'CNY' } }))).status).toBe(204);
    expect(await order(tradeNo)).toMatchObject({ status: 'failed', fail_reason: 'paid 0.01 CNY, order is 14.50 CNY' });
    await fake.pay(tradeNo);
    expect(await quota(user)).toBe(0);
  });

  it("credits once under 20 concurrent duplicates, never another gateway's order, nothing without keys", async () => {
    const user = await f.newUser();
    const { trade_no: tradeNo } = await buy(user, 4);
    const body = fake.notifyBody(tradeNo);
    const headers = fake.signedHeaders(body);
    const other = await gateway('WeChat 2', config());
    expect((await fake.notify(notifyUrl(other), body, headers)).status).toBe(204);
    expect((await order(tradeNo)).status).toBe('pending');
    const answers = await Promise.all(Array.from({ length: 20 }, () => fake.notify(notifyUrl(gw), body, headers)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(204));
    expect(await quota(user)).toBe(2_000_000);

    const keyless = await gateway('Keyless', { ...config(), mch_apiv3_key: '', wechatpay_public_key: '' });
    expect(JSON.parse((await fake.notify(notifyUrl(keyless), body, headers)).body)).toEqual({ code: 'FAIL', message: 'gateway verification keys are not set' });
    expect((await user.client.post('/api/user/order', { uuid: keyless.uuid, amount: 1 })).status).toBe(502);
    // An answer not signed by WeChat Pay is not trusted.
    const impostor = await gateway('Impostor', { ...config(), wechatpay_public_key: rsaPair().publicPem });
    expect((await user.client.post('/api/user/order', { uuid: impostor.uuid, amount: 1 })).status).toBe(502);
    expect(await quota(user)).toBe(2_000_000);
  });
});
