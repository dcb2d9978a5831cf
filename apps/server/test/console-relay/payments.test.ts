import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';
import { registerPayProvider } from '../../src/console/payment/providers.js';
import { completeOrder } from '../../src/console/payment/complete-order.js';

type Row = Record<string, any>;

describe.each(testDialects())('payment gateways and orders on %s', (dialect) => {
  let f: ConsoleFixture;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  const epay = { type: 'epay', name: 'Epay', icon: 'https://pay.example/icon.png', currency: 'CNY', percent_fee: 0.05, config: JSON.stringify({ pay_domain: 'https://pay.example', partner_id: '1001', key: 'SECRET-KEY', pay_type: 'alipay' }) };
  const setOption = async (key: string, value: string) => expect((await f.root.put('/api/option/', { key, value })).body.success).toBe(true);
  const gateways = async (q = ''): Promise<Row[]> => (await admin.client.get(`/api/payment/?size=100&${q}`)).body.data.data;

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    [alice, bob, admin] = [await f.newUser(), await f.newUser(), await f.newUser({ admin: true })];
  });
  afterAll(async () => f?.close());

  it('creates a gateway with a server-set uuid and answers 201', async () => {
    const res = await admin.client.post('/api/payment/', { ...epay, uuid: 'chosen-by-client', sort: 5 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Payment added successfully' });
    expect(res.body.data).toMatchObject({ type: 'epay', name: 'Epay', currency: 'CNY', percent_fee: 0.05, fixed_fee: 0, sort: 5, enable: true, notify_domain: '' });
    expect(res.body.data.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(res.body.data.config)).toEqual({ pay_domain: 'https://pay.example', partner_id: '1001', key: '********', pay_type: 'alipay' });
    expect((await admin.client.get(`/api/payment/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('refuses bad gateway input with a 400 naming the field', async () => {
    const bad = async (body: Row) => admin.client.post('/api/payment/', body);
    expect((await bad({ ...epay, type: 'paypal' })).body.message).toMatch(/^type:/);
    expect((await bad({ ...epay, name: '  ' })).body.message).toMatch(/^name:/);
    expect((await bad({ ...epay, icon: '' })).status).toBe(400);
    expect((await bad({ ...epay, currency: 'EUR' })).status).toBe(400);
    expect((await bad({ ...epay, percent_fee: -0.1 })).body.message).toMatch(/^percent_fee:/);
    expect((await bad({ ...epay, fixed_fee: 'abc' })).status).toBe(400);
    expect((await bad({ ...epay, config: '{not json' })).body.message).toMatch(/^config:/);
    expect((await bad({ ...epay, config: '[1]' })).status).toBe(400);
    expect((await admin.client.put('/api/payment/', { id: 1, sort: -1 })).status).toBe(400);
    expect((await admin.client.get('/api/payment/abc')).status).toBe(400);
    expect((await admin.client.get('/api/payment/?order=config')).status).toBe(400);
  });

  it('updates only the fields sent, never the uuid, and soft-deletes', async () => {
    const created = (await admin.client.post('/api/payment/', { ...epay, name: 'Alipay', type: 'alipay', currency: 'USD', config: '' })).body.data;
    expect((await admin.client.put('/api/payment/', { id: created.id, sort: 0 })).body.data).toMatchObject({ sort: 0, name: 'Alipay', enable: true });
    expect((await admin.client.put('/api/payment/', { id: created.id, enable: false })).body.data).toMatchObject({ sort: 0, enable: false });
    const full = await admin.client.put('/api/payment/', { ...created, uuid: 'ffffffffffffffffffffffffffffffff', name: 'Alipay EU', fixed_fee: 0.3, percent_fee: 0 });
    expect(full.body.data).toMatchObject({ uuid: created.uuid, name: 'Alipay EU', fixed_fee: 0.3, created_at: created.created_at });
    expect((await admin.client.put('/api/payment/', { id: 999999, sort: 2 })).status).toBe(404);

    expect((await gateways('name=Alip')).map((g) => g.name)).toEqual(['Alipay EU']);
    expect((await gateways('type=alipay&currency=USD')).map((g) => g.id)).toEqual([created.id]);
    expect((await gateways(`uuid=${created.uuid}`)).map((g) => g.id)).toEqual([created.id]);
    expect((await gateways('name=%25')).length).toBe(0);

    expect((await admin.client.delete(`/api/payment/${created.id}`)).body.success).toBe(true);
    expect((await admin.client.get(`/api/payment/${created.id}`)).status).toBe(404);
    expect((await admin.client.delete(`/api/payment/${created.id}`)).status).toBe(404);
    expect((await gateways()).map((g) => g.id)).not.toContain(created.id);
  });

  it('keeps secrets write-only: lists and gets show a placeholder, a blank or placeholder on update keeps the stored one', async () => {
    const config = { secret_key: 'sk_live_TOPSECRET', webhook_secret: 'whsec_TOPSECRET' };
    // Stripe's setup would call Stripe; a stand-in without one keeps this about the console API.
    const remove = registerPayProvider('stripe', { createPayment: async () => ({ type: 0, data: null }) });
    try {
      const created = (await admin.client.post('/api/payment/', { ...epay, type: 'stripe', name: 'Secretive', config: JSON.stringify(config) })).body.data;
      const stored = async () => JSON.parse((await f.server.ctx.db.selectFrom('payments').select('config').where('id', '=', created.id).executeTakeFirstOrThrow()).config ?? '');
      const seen = JSON.stringify([created, (await admin.client.get(`/api/payment/${created.id}`)).body, (await admin.client.get('/api/payment/?size=100')).body]);
      expect(seen).not.toContain('TOPSECRET');
      expect(JSON.parse(created.config)).toEqual({ secret_key: '********', webhook_secret: '********' });

      const put = async (cfg: Record<string, string>) => (await admin.client.put('/api/payment/', { id: created.id, config: JSON.stringify(cfg) })).body;
      expect(JSON.stringify(await put({ secret_key: '********', webhook_secret: '' }))).not.toContain('TOPSECRET');
      expect(await stored()).toEqual(config);
      await put({ secret_key: 'sk_live_NEW' });
      expect(await stored()).toEqual({ secret_key: 'sk_live_NEW', webhook_secret: 'whsec_TOPSECRET' });
      await admin.client.put('/api/payment/', { ...created, name: 'Secretive 2' }); // the whole object sent back as read
      expect(await stored()).toEqual({ secret_key: 'sk_live_NEW', webhook_secret: 'whsec_TOPSECRET' });
      await admin.client.delete(`/api/payment/${created.id}`);
    } finally {
      remove();
    }
  });

  it('keeps gateway administration and order lists to admins, and secrets out of the user list', async () => {
    expect((await alice.client.get('/api/payment/')).status).toBe(403);
    expect((await alice.client.get('/api/payment/order')).status).toBe(403);
    expect((await alice.client.post('/api/payment/', epay)).status).toBe(403);
    expect((await alice.client.put('/api/payment/', { id: 1, enable: false })).status).toBe(403);
    expect((await alice.client.delete('/api/payment/1')).status).toBe(403);
    const offered = (await alice.client.get('/api/user/payment')).body.data as Row[];
    expect(offered.length).toBeGreaterThan(0);
    for (const g of offered) expect(Object.keys(g).sort()).toEqual(['currency', 'fixed_fee', 'icon', 'name', 'percent_fee', 'sort', 'uuid']);
    expect(JSON.stringify(offered)).not.toContain('SECRET-KEY');
  });

  it('offers enabled gateways by sort, highest first', async () => {
    await admin.client.post('/api/payment/', { ...epay, name: 'Low', sort: 1 });
    await admin.client.post('/api/payment/', { ...epay, name: 'High', sort: 50 });
    await admin.client.post('/api/payment/', { ...epay, name: 'Off', sort: 99, enable: false });
    const names = ((await bob.client.get('/api/user/payment')).body.data as Row[]).map((g) => g.name);
    expect(names[0]).toBe('High');
    expect(names).toContain('Low');
    expect(names).not.toContain('Off');
  });

  it('creates a pending order with the quoted amounts and the pay request', async () => {
    await setOption('RechargeDiscount', '{"10":0.9,"100":0.8}');
    await setOption('PaymentUSDRate', '7.2');
    const gw = (await gateways('name=Epay'))[0];
    const res = await alice.client.post('/api/user/order', { uuid: gw.uuid, amount: 10 });
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('');
    expect(res.body.data).toMatchObject({ type: 1, data: { url: 'https://pay.example/submit.php', method: 'POST' } });
    // 10 × 0.9 = 9; fee 5 % = 0.45; 9.45 USD × 7.2 = 68.04 CNY; list 10.5 × 7.2 = 75.6; saved 7.56
    expect(res.body.data.order).toEqual({ amount: 10, order_amount: 68.04, order_currency: 'CNY', fee: 0.45, discount: 7.56, quota: 5_000_000, status: 'pending' });
    const tradeNo = res.body.data.trade_no as string;
    expect(tradeNo).toMatch(/^\d{19}$/);

    const listed = (await admin.client.get(`/api/payment/order?trade_no=${tradeNo}`)).body.data;
    expect(listed.total_count).toBe(1);
    expect(listed.data[0]).toMatchObject({ user_id: alice.id, gateway_id: gw.id, amount: 10, order_amount: 68.04, fee: 0.45, discount: 7.56, status: 'pending', gateway_no: '' });

    const status = await alice.client.get(`/api/user/order/status?trade_no=${tradeNo}`);
    expect(status.body).toMatchObject({ success: false, message: 'pending', data: { status: 'pending' } });
    // Another user's trade number is not theirs to poll.
    expect((await bob.client.get(`/api/user/order/status?trade_no=${tradeNo}`)).status).toBe(404);
    expect((await alice.client.get('/api/user/order/status')).status).toBe(400);
  });

  it('refuses bad orders: unknown or disabled gateway, amounts below the minimum or not whole', async () => {
    await setOption('PaymentMinAmount', '5');
    const gw = (await gateways('name=Epay'))[0];
    const off = (await gateways('name=Off'))[0];
    const order = (body: Row) => alice.client.post('/api/user/order', body);
    expect((await order({ uuid: gw.uuid, amount: 4 })).body).toMatchObject({ success: false, message: '金额必须大于等于 5' });
    expect((await order({ uuid: gw.uuid, amount: 4 })).status).toBe(400);
    expect((await order({ uuid: gw.uuid, amount: 5.5 })).status).toBe(400);
    expect((await order({ uuid: gw.uuid, amount: -10 })).status).toBe(400);
    expect((await order({ uuid: gw.uuid, amount: 1_000_001 })).status).toBe(400);
    expect((await order({ uuid: gw.uuid })).body.message).toMatch(/invalid request/);
    expect((await order({ uuid: 'nope', amount: 10 })).status).toBe(404);
    expect((await order({ uuid: off.uuid, amount: 10 })).status).toBe(404);
    expect((await new ApiClient(f.server.app).post('/api/user/order', { uuid: gw.uuid, amount: 10 })).status).toBe(401);
    await setOption('PaymentMinAmount', '1');
  });

  it('hands the order to the gateway provider with notify and return URLs, and closes stale orders', async () => {
    const seen: Row[] = [];
    registerPayProvider('wxpay', {
      async createPayment(gateway, order) {
        seen.push({ gateway: gateway.uuid, ...order });
        return { type: 2, data: { url: `weixin://wxpay/bizpayurl?pr=${order.tradeNo}`, method: 'GET' } };
      },
    });
    await setOption('ServerAddress', 'https://hub.example/');
    const wx = (await admin.client.post('/api/payment/', { ...epay, type: 'wxpay', name: 'WeChat', currency: 'USD', percent_fee: 0, fixed_fee: 0.5, notify_domain: 'https://cb.example/' })).body.data;
    const stale = (await alice.client.post('/api/user/order', { uuid: wx.uuid, amount: 100 })).body.data.trade_no;
    await f.server.ctx.db.updateTable('orders').set({ created_at: Math.floor(Date.now() / 1000) - 4 * 3600 }).where('trade_no', '=', stale).execute();

    const res = await alice.client.post('/api/user/order', { uuid: wx.uuid, amount: 100 });
    expect(res.body).toMatchObject({ success: true, message: '', data: { type: 2, data: { url: expect.stringMatching(/^weixin:/), method: 'GET' } } });
    // 100 × 0.8 = 80 + fixed fee 0.5 = 80.5 USD; list price 100, so 19.5 saved
    expect(res.body.data.order).toMatchObject({ order_amount: 80.5, order_currency: 'USD', fee: 0.5, discount: 19.5, quota: 50_000_000 });
    expect(seen.at(-1)).toMatchObject({
      gateway: wx.uuid,
      tradeNo: res.body.data.trade_no,
      pay: 80.5,
      amount: 100,
      userId: alice.id,
      notifyUrl: `https://cb.example/api/payment/notify/${wx.uuid}`,
      returnUrl: 'https://hub.example/panel/log',
    });
    await new Promise((r) => setTimeout(r, 50)); // stale orders are closed off the request path
    const rows = (await admin.client.get(`/api/payment/order?gateway_id=${wx.id}&order=created_at`)).body.data.data as Row[];
    expect(rows.map((o) => o.status)).toEqual(['closed', 'pending']);
    expect((await admin.client.get(`/api/payment/order?gateway_id=${wx.id}&status=closed`)).body.data.total_count).toBe(1);
  });

  it('filters orders by user, time and status, and pages them', async () => {
    const now = Math.floor(Date.now() / 1000);
    const all = (await admin.client.get(`/api/payment/order?user_id=${alice.id}&size=100`)).body.data;
    expect(all.total_count).toBeGreaterThanOrEqual(3);
    expect((await admin.client.get(`/api/payment/order?user_id=${bob.id}`)).body.data.total_count).toBe(0);
    expect((await admin.client.get(`/api/payment/order?start_timestamp=${now + 3600}`)).body.data.total_count).toBe(0);
    const paged = (await admin.client.get(`/api/payment/order?user_id=${alice.id}&size=1&page=2&order=-id`)).body.data;
    expect(paged).toMatchObject({ page: 2, size: 1, total_count: all.total_count });
    expect(paged.data[0].id).toBe(all.data[1].id);
    expect((await admin.client.get('/api/payment/order?size=101')).status).toBe(400);
    expect((await admin.client.get('/api/payment/order?order=trade_no')).status).toBe(400);
  });

  it('completes a paid order once: checks gateway and amount, credits the quota, logs it, ignores replays', async () => {
    const gw = (await gateways('name=Epay'))[0];
    const other = (await gateways('name=High'))[0];
    const { trade_no: tradeNo } = (await bob.client.post('/api/user/order', { uuid: gw.uuid, amount: 10 })).body.data;
    const quota = async () => (await bob.client.get('/api/user/self')).body.data.quota as number;
    const before = await quota();
    const ctx = f.server.ctx;
    expect(await completeOrder(ctx, { gatewayId: gw.id, tradeNo: 'nope', gatewayNo: 'g', paid: { amount: 68.04, currency: 'CNY' } })).toBe('unknown_order');
    expect(await completeOrder(ctx, { gatewayId: other.id, tradeNo, gatewayNo: 'g', paid: { amount: 68.04, currency: 'CNY' } })).toBe('wrong_gateway');
    // A mismatch fails its order for good, with the reason.
    const newOrder = async () => (await bob.client.post('/api/user/order', { uuid: gw.uuid, amount: 10 })).body.data.trade_no as string;
    const [cheap, dollars] = [await newOrder(), await newOrder()];
    expect(await completeOrder(ctx, { gatewayId: gw.id, tradeNo: cheap, gatewayNo: 'g', paid: { amount: 68.03, currency: 'CNY' } })).toBe('amount_mismatch');
    expect(await completeOrder(ctx, { gatewayId: gw.id, tradeNo: dollars, gatewayNo: 'g', paid: { amount: 68.04, currency: 'USD' } })).toBe('amount_mismatch');
    expect(await completeOrder(ctx, { gatewayId: gw.id, tradeNo: cheap, gatewayNo: 'g', paid: { amount: 68.04, currency: 'CNY' } })).toBe('already_done');
    expect((await admin.client.get(`/api/payment/order?trade_no=${dollars}`)).body.data.data[0]).toMatchObject({ status: 'failed', fail_reason: 'paid 68.04 USD, order is 68.04 CNY' });
    expect(await quota()).toBe(before);

    // Replayed notices race: exactly one credits.
    const results = await Promise.all(Array.from({ length: 4 }, () => completeOrder(ctx, { gatewayId: gw.id, tradeNo, gatewayNo: 'GW-123', paid: { amount: 68.04, currency: 'cny' }, ip: '10.0.0.9' })));
    expect(results.filter((r) => r === 'credited')).toHaveLength(1);
    expect(results.filter((r) => r === 'already_done')).toHaveLength(3);
    expect(await quota()).toBe(before + 5_000_000);
    expect((await bob.client.get(`/api/user/order/status?trade_no=${tradeNo}`)).body).toMatchObject({ success: true, data: { status: 'success' } });
    expect((await admin.client.get(`/api/payment/order?trade_no=${tradeNo}`)).body.data.data[0]).toMatchObject({ status: 'success', gateway_no: 'GW-123' });
    const logs = (await bob.client.get('/api/log/self?log_type=1')).body.data.data as Row[];
    expect(logs.map((l) => l.content)).toContain('在线充值成功，充值积分: 5000000，支付金额：68.04 CNY');
    expect(await completeOrder(ctx, { gatewayId: gw.id, tradeNo, gatewayNo: 'GW-123', paid: { amount: 68.04, currency: 'CNY' } })).toBe('already_done');
    expect(await quota()).toBe(before + 5_000_000);
  });

  it('routes gateway callbacks to the provider with the raw body, credits once, and acknowledges after', async () => {
    // A stand-in provider that signs like a real one: HMAC-SHA256 over the exact bytes received.
    const remove = registerPayProvider('stripe', {
      createPayment: async (_g, order) => ({ type: 1, data: { url: `https://checkout.example/${order.tradeNo}` } }),
      handleNotify: async (gateway, req) => {
        const raw = req.body as Buffer;
        const secret = JSON.parse(gateway.config ?? '{}').webhook_secret as string;
        const good = Buffer.isBuffer(raw) && req.headers['x-signature'] === createHmac('sha256', secret).update(raw).digest('hex');
        if (!good) return { notice: null, ack: { status: 400, body: 'fail' } };
        const event = JSON.parse(raw.toString('utf8'));
        return { notice: { tradeNo: event.trade_no, gatewayNo: event.id, paid: { amount: event.amount, currency: event.currency } }, ack: { status: 200, body: '', contentType: 'text/plain' } };
      },
    });
    try {
      const gw = (await admin.client.post('/api/payment/', { ...epay, type: 'stripe', name: 'Stripe live', currency: 'USD', percent_fee: 0, config: JSON.stringify({ secret_key: 'sk', webhook_secret: 'whsec_test' }) })).body.data;
      const { trade_no: tradeNo, order } = (await bob.client.post('/api/user/order', { uuid: gw.uuid, amount: 100 })).body.data;
      expect(order).toMatchObject({ order_amount: 80, order_currency: 'USD' });
      const quota = async () => (await bob.client.get('/api/user/self')).body.data.quota as number;
      const before = await quota();
      // Spacing a JSON parser would not keep: the signature only holds over these exact bytes.
      const body = `{"id":"pi_1",  "trade_no":"${tradeNo}", "amount":80, "currency":"usd"}`;
      const sign = (b: string) => createHmac('sha256', 'whsec_test').update(b).digest('hex');
      const notify = (payload: string, sig: string, uuid = gw.uuid) =>
        f.server.app.inject({ method: 'POST', url: `/api/payment/notify/${uuid}`, payload, headers: { 'content-type': 'application/json', 'x-signature': sig } });

      const forged = await notify(body, sign('{}'));
      expect([forged.statusCode, forged.body]).toEqual([400, 'fail']);
      expect(await quota()).toBe(before);
      const first = await notify(body, sign(body));
      expect(first.statusCode).toBe(200);
      expect(await quota()).toBe(before + 50_000_000);
      expect((await notify(body, sign(body))).statusCode).toBe(200); // a replay is acknowledged, not credited
      expect(await quota()).toBe(before + 50_000_000);
      expect((await admin.client.get(`/api/payment/order?trade_no=${tradeNo}`)).body.data.data[0]).toMatchObject({ status: 'success', gateway_no: 'pi_1' });

      // §23.4: an unknown gateway is a 200 with {success:false}, and nothing is credited
      for (const uuid of ['f'.repeat(32), 'not-a-uuid']) {
        const unknown = await notify(body, sign(body), uuid);
        expect([unknown.statusCode, unknown.json()]).toEqual([200, { success: false, message: 'payment not found' }]);
      }
      const epayGw = (await gateways('name=Epay'))[0];
      const unsigned = await f.server.app.inject({ method: 'GET', url: `/api/payment/notify/${epayGw.uuid}?trade_status=TRADE_SUCCESS` });
      expect([unsigned.statusCode, unsigned.body]).toEqual([200, 'fail']);
      await admin.client.put('/api/payment/', { id: gw.id, enable: false });
      expect((await notify(body, sign(body))).json()).toEqual({ success: false, message: 'payment not found' });
      expect(await quota()).toBe(before + 50_000_000);
    } finally {
      remove();
    }
  });
});
