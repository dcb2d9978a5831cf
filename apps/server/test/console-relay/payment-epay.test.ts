import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';
import { epayFakeSign, FakeEpay } from '../fakes/epay.js';
import { closeStaleOrders } from '../../src/db/repos/orders.js';

type Row = Record<string, any>;

/**
 * Online top-up through Epay, end to end over HTTP: the console creates the order, the browser posts the
 * signed form to the aggregator fake, the fake notifies the listening server with a signed query string.
 */
describe.each(testDialects())('Epay top-up on %s', (dialect) => {
  const fake = new FakeEpay();
  let f: ConsoleFixture;
  let admin: TestUser;
  let alice: TestUser;
  let base = '';
  let gw: Row;
  let peer: Row;
  const KEY = `k${Math.random().toString(36).slice(2)}`;
  const PEER_KEY = `p${Math.random().toString(36).slice(2)}`;
  const setOption = async (key: string, value: string) => expect((await f.root.put('/api/option/', { key, value })).body.success).toBe(true);
  const quota = async (u: TestUser) => (await u.client.get('/api/user/self')).body.data.quota as number;
  const topupLogs = async (u: TestUser) => ((await u.client.get('/api/log/self?log_type=1&size=100')).body.data.data as Row[]).filter((l) => l.content.startsWith('在线充值成功'));
  const order = async (tradeNo: string) => (await admin.client.get(`/api/payment/order?trade_no=${tradeNo}`)).body.data.data[0] as Row;
  const notifyUrl = (g: Row) => `${base}/api/payment/notify/${g.uuid}`;
  const gateway = (name: string, config: Row) => ({ type: 'epay', name, icon: 'i', currency: 'CNY', config: JSON.stringify(config) });

  /** Creates an order as the user and posts its form to the aggregator, as the top-up screen does. */
  async function checkout(u: TestUser, g: Row, amount: number): Promise<{ tradeNo: string; res: Row }> {
    const res = (await u.client.post('/api/user/order', { uuid: g.uuid, amount })).body;
    expect(res.success).toBe(true);
    const { url, method, params } = res.data.data;
    expect([url, method]).toEqual([`${fake.url}/submit.php`, 'POST']);
    const page = await fetch(url, { method, body: new URLSearchParams(params) });
    expect(page.status).toBe(200);
    return { tradeNo: res.data.trade_no, res: res.data };
  }

  beforeAll(async () => {
    await fake.start();
    fake.merchants.set('1001', KEY);
    fake.merchants.set('2002', PEER_KEY);
    // Both nodes of the concurrency test share Redis when CI has it, as a multi-node deployment does.
    f = await consoleFixture(dialect, { redis: redisAvailable() });
    base = await f.server.listen();
    await setOption('ServerAddress', base);
    await setOption('PaymentUSDRate', '7.2');
    await setOption('RechargeDiscount', '{"10":0.9}');
    [admin, alice] = [await f.newUser({ admin: true }), await f.newUser()];
    gw = (await admin.client.post('/api/payment/', { ...gateway('Epay', { pay_domain: `${fake.url}/`, partner_id: '1001', key: KEY, pay_type: 'wxpay' }), percent_fee: 0.05 })).body.data;
    peer = (await admin.client.post('/api/payment/', gateway('Peer', { pay_domain: fake.url, partner_id: '2002', key: PEER_KEY, pay_type: '' }))).body.data;
  });
  afterAll(async () => {
    await f?.close();
    await fake.close();
  });

  it('pays an order at the aggregator: signed form, signed notify, quota credited once with a log row', async () => {
    const before = await quota(alice);
    const { tradeNo, res } = await checkout(alice, gw, 10);
    // 10 × 0.9 = 9 USD + 5 % = 9.45 USD × 7.2 = 68.04 CNY
    expect(res.order).toMatchObject({ order_amount: 68.04, order_currency: 'CNY', status: 'pending' });
    expect(res.data.params).toMatchObject({ pid: '1001', type: 'wxpay', out_trade_no: tradeNo, name: tradeNo, money: '68.04', notify_url: notifyUrl(gw), return_url: `${base}/panel/log`, sign_type: 'MD5' });
    expect(fake.orders.get(tradeNo)).toMatchObject({ money: '68.04', notify_url: notifyUrl(gw) });
    expect((await alice.client.get(`/api/user/order/status?trade_no=${tradeNo}`)).body.success).toBe(false);

    // The buyer presses "pay" on the checkout page: notify, then back to the return URL.
    const paid = await fetch(`${fake.url}/pay/${tradeNo}`, { redirect: 'manual' });
    expect([paid.status, paid.headers.get('location')]).toEqual([302, `${base}/panel/log`]);
    expect(await quota(alice)).toBe(before + 5_000_000);
    expect(await order(tradeNo)).toMatchObject({ status: 'success', gateway_no: fake.orders.get(tradeNo)!.trade_no, fail_reason: '' });
    expect((await alice.client.get(`/api/user/order/status?trade_no=${tradeNo}`)).body).toMatchObject({ success: true, data: { status: 'success' } });
    const logs = await topupLogs(alice);
    expect(logs.map((l) => l.content)).toEqual(['在线充值成功，充值积分: 5000000，支付金额：68.04 CNY']);

    // A replay is acknowledged and credits nothing.
    expect(await fake.pay(tradeNo)).toEqual({ status: 200, text: 'success' });
    expect(await quota(alice)).toBe(before + 5_000_000);
    expect(await topupLogs(alice)).toHaveLength(1);
  });

  it('sends the empty pay_type as no type (the aggregator checkout page) and refuses a gateway without a key', async () => {
    const { res } = await checkout(alice, peer, 3);
    expect(res.data.params).not.toHaveProperty('type');
    expect(res.order).toMatchObject({ order_amount: 21.6, order_currency: 'CNY' });
    const keyless = (await admin.client.post('/api/payment/', gateway('Keyless', { pay_domain: fake.url, partner_id: '3003', key: '' }))).body.data;
    const refused = await alice.client.post('/api/user/order', { uuid: keyless.uuid, amount: 5 });
    expect([refused.status, refused.body.message]).toEqual([502, '创建支付失败，请稍后再试']);
    // With no key nothing can be verified: a notify signed with the empty key is refused.
    const params: Record<string, string> = { pid: '3003', trade_no: 'X1', out_trade_no: '1', type: 'alipay', name: '1', money: '1.00', trade_status: 'TRADE_SUCCESS' };
    expect(await fake.notify(notifyUrl(keyless), { ...params, sign: epayFakeSign(params, ''), sign_type: 'MD5' })).toEqual({ status: 200, text: 'fail' });
  });

  it('refuses forged and tampered notifies, fails an order whose paid amount differs, ignores unpaid states', async () => {
    const bob = await f.newUser();
    const { tradeNo } = await checkout(bob, gw, 5);
    const forged = { ...fake.notifyParams(tradeNo) };
    forged.sign = epayFakeSign(forged, 'guessed-key');
    expect(await fake.notify(notifyUrl(gw), forged)).toEqual({ status: 200, text: 'fail' });
    expect(await fake.notify(notifyUrl(gw), fake.notifyParams(tradeNo, { money: '0.01' }, false))).toEqual({ status: 200, text: 'fail' });
    expect(await fake.notify(notifyUrl(gw), { ...fake.notifyParams(tradeNo), pid: '2002' })).toEqual({ status: 200, text: 'fail' });
    expect(await fake.notify(notifyUrl(gw), fake.notifyParams(tradeNo, { trade_status: 'WAIT_BUYER_PAY' }))).toEqual({ status: 200, text: 'success' });
    expect(await quota(bob)).toBe(0);
    expect((await order(tradeNo)).status).toBe('pending');

    // Correctly signed but for another amount: logged, the order fails with the reason, nothing credited.
    expect((await fake.notify(notifyUrl(gw), fake.notifyParams(tradeNo, { money: '0.01' }))).text).toBe('success');
    expect(await order(tradeNo)).toMatchObject({ status: 'failed', fail_reason: 'paid 0.01 CNY, order is 37.80 CNY' });
    expect(await fake.pay(tradeNo)).toEqual({ status: 200, text: 'success' });
    expect(await quota(bob)).toBe(0);
    expect(await topupLogs(bob)).toHaveLength(0);
  });

  it("credits nothing for another gateway's order, even when that gateway signs it", async () => {
    const carol = await f.newUser();
    const { tradeNo } = await checkout(carol, gw, 5);
    const order = fake.orders.get(tradeNo)!;
    const params: Record<string, string> = { pid: '2002', trade_no: 'EPX', out_trade_no: tradeNo, type: 'alipay', name: tradeNo, money: order.money, trade_status: 'TRADE_SUCCESS' };
    expect((await fake.notify(notifyUrl(peer), { ...params, sign: epayFakeSign(params, PEER_KEY), sign_type: 'MD5' })).status).toBe(200);
    expect(await quota(carol)).toBe(0);
    expect((await f.server.ctx.db.selectFrom('orders').select('status').where('trade_no', '=', tradeNo).executeTakeFirst())?.status).toBe('pending');
  });

  it('credits once under 20 concurrent duplicate notifies spread over two nodes', async () => {
    const dave = await f.newUser();
    const { tradeNo } = await checkout(dave, gw, 10);
    const second: TestServer = await startTestServer(dialect, { reuse: f.server });
    try {
      const otherBase = await second.listen();
      const params = fake.notifyParams(tradeNo);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => fake.notify(`${i % 2 ? otherBase : base}/api/payment/notify/${gw.uuid}`, params)),
      );
      expect(answers.every((a) => a.status === 200 && a.text === 'success')).toBe(true);
    } finally {
      await second.close();
    }
    expect(await quota(dave)).toBe(5_000_000);
    expect(await topupLogs(dave)).toHaveLength(1);
  });

  it('closes orders left pending for 3 hours, yet credits one that was really paid, and pays the inviter on the first top-up', async () => {
    await setOption('QuotaForInviter', '777');
    const host = await f.newUser();
    const aff = (await host.client.get('/api/user/aff')).body.data;
    const anon = new ApiClient(f.server.app);
    const username = `inv${Math.random().toString(36).slice(2, 8)}`;
    expect((await anon.post('/api/user/register', { username, password: 'password123', aff_code: aff })).body.success).toBe(true);
    const guestClient = new ApiClient(f.server.app);
    const guest: TestUser = { id: (await guestClient.login(username, 'password123')).id, username, client: guestClient };
    const start = await quota(guest);

    const { tradeNo } = await checkout(guest, gw, 10);
    const now = Math.floor(Date.now() / 1000);
    await f.server.ctx.db.updateTable('orders').set({ created_at: now - 3 * 3600 - 5 }).where('trade_no', '=', tradeNo).execute();
    expect(await closeStaleOrders(f.server.ctx.db, now - 3 * 3600, now)).toBeGreaterThanOrEqual(1);
    expect((await order(tradeNo)).status).toBe('closed');

    expect(await fake.pay(tradeNo)).toEqual({ status: 200, text: 'success' });
    expect(await order(tradeNo)).toMatchObject({ status: 'success' });
    expect(await quota(guest)).toBe(start + 5_000_000);
    expect(await quota(host)).toBe(777);
    // A second top-up pays the inviter nothing more.
    const next = await checkout(guest, gw, 10);
    await fake.pay(next.tradeNo);
    expect(await quota(guest)).toBe(start + 10_000_000);
    expect(await quota(host)).toBe(777);
  });
});
