import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';
import { FakeStripe, stripeSignature } from '../fakes/stripe.js';
import { stripe as stripeProvider } from '../../src/console/payment/providers/stripe/index.js';
import { findPaymentById } from '../../src/db/repos/payments.js';

type Row = Record<string, any>;

/** Online top-up through Stripe Checkout, end to end: webhook provisioning, session, signed webhooks. */
describe.each(testDialects())('Stripe top-up on %s', (dialect) => {
  const fake = new FakeStripe();
  let f: ConsoleFixture;
  let admin: TestUser;
  let base = '';
  let gw: Row;
  let secret = '';
  const quota = async (u: TestUser) => (await u.client.get('/api/user/self')).body.data.quota as number;
  const order = async (tradeNo: string) => (await admin.client.get(`/api/payment/order?trade_no=${tradeNo}`)).body.data.data[0] as Row;
  const storedConfig = async (id: number) => JSON.parse((await findPaymentById(f.server.ctx.db, id))!.config ?? '{}');
  const endpoint = () => ({ url: `${base}/api/payment/notify/${gw.uuid}`, secret });
  const checkout = async (u: TestUser, amount: number) => {
    const res = (await u.client.post('/api/user/order', { uuid: gw.uuid, amount })).body;
    expect(res.success).toBe(true);
    return { tradeNo: res.data.trade_no as string, session: fake.sessions.get(res.data.data.params.linkId)!, res: res.data };
  };

  beforeAll(async () => {
    await fake.start();
    f = await consoleFixture(dialect, { env: { STRIPE_BASE_URL: fake.url } });
    base = await f.server.listen();
    await f.root.put('/api/option/', { key: 'ServerAddress', value: base });
    await f.root.put('/api/option/', { key: 'SystemName', value: 'Hub' });
    admin = await f.newUser({ admin: true });
    const res = await admin.client.post('/api/payment/', { type: 'stripe', name: 'Card', icon: 'i', currency: 'USD', fixed_fee: 0.3, config: JSON.stringify({ secret_key: fake.secretKey }) });
    expect(res.status).toBe(201);
    gw = res.body.data;
    secret = (await storedConfig(gw.id)).webhook_secret;
  });
  afterAll(async () => {
    await f?.close();
    await fake.close();
  });

  it('provisions the webhook endpoint at gateway creation and keeps its secret; a bad key creates nothing', async () => {
    expect(fake.endpoints.map((e) => [e.url, e.enabled_events])).toEqual([[endpoint().url, ['checkout.session.completed']]]);
    expect(fake.requests.find((r) => r.path === '/v1/webhook_endpoints' && r.method === 'POST')!.form.api_version).toMatch(/^\d{4}-\d\d-\d\d\./);
    expect(secret).toBe(fake.endpoints[0].secret);
    const bad = await admin.client.post('/api/payment/', { type: 'stripe', name: 'Bad', icon: 'i', currency: 'USD', config: JSON.stringify({ secret_key: 'sk_test_wrong' }) });
    expect(bad.status).toBe(502);
    expect(bad.body.message).toMatch(/Invalid API Key/);
    expect((await admin.client.get('/api/payment/?name=Bad')).body.data.total_count).toBe(0);
    expect(fake.endpoints).toHaveLength(1);
  });

  it('reuses an existing endpoint only with a stored secret, else makes a new one: never an empty secret', async () => {
    const row = (await findPaymentById(f.server.ctx.db, gw.id))!;
    const env = { config: f.server.ctx.config };
    expect(await stripeProvider.setup!(row, endpoint().url, env)).toEqual({ webhook_secret: secret });
    expect(fake.endpoints).toHaveLength(1);
    const fresh = await stripeProvider.setup!({ ...row, config: JSON.stringify({ secret_key: fake.secretKey }) }, endpoint().url, env);
    expect(fresh.webhook_secret).toMatch(/^whsec_/);
    expect(fresh.webhook_secret).not.toBe(secret);
    expect(fake.endpoints).toHaveLength(2);
    fake.endpoints.pop();
  });

  it('opens a Checkout Session and credits the paid session once, with a log row', async () => {
    const user = await f.newUser();
    await f.root.put('/api/user/', { id: user.id, email: 'payer@example.com' });
    const { tradeNo, session, res } = await checkout(user, 10);
    expect(res).toMatchObject({ type: 1, data: { url: session.url, params: { tradeNo, linkId: session.id } }, order: { order_amount: 10.3, order_currency: 'USD' } });
    expect(session).toMatchObject({ amount_total: 1030, currency: 'usd', client_reference_id: tradeNo, customer_email: 'payer@example.com', metadata: { user_id: String(user.id) }, success_url: `${base}/panel/log` });
    expect(fake.requests.at(-1)!.form['line_items[0][price_data][product_data][name]']).toBe('Hub-Token充值:10');

    expect(await fake.pay(session.id)).toEqual([{ status: 200, text: '' }]);
    expect(await quota(user)).toBe(5_000_000);
    expect(await order(tradeNo)).toMatchObject({ status: 'success', gateway_no: session.payment_intent });
    const logs = (await user.client.get('/api/log/self?log_type=1')).body.data.data as Row[];
    expect(logs.map((l) => l.content)).toEqual(['在线充值成功，充值积分: 5000000，支付金额：10.30 USD']);

    const replay = fake.event('checkout.session.completed', session);
    expect((await fake.deliver(endpoint(), replay)).status).toBe(200);
    expect(await quota(user)).toBe(5_000_000);
  });

  it('credits once under 20 concurrent duplicate webhooks, and accepts several v1 signatures', async () => {
    const user = await f.newUser();
    const { session } = await checkout(user, 2);
    Object.assign(session, { payment_status: 'paid', payment_intent: 'pi_dup' });
    const payload = fake.event('checkout.session.completed', session);
    const header = stripeSignature(payload, ['whsec_rotated_old', secret]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => fake.deliver(endpoint(), payload, header)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await quota(user)).toBe(1_000_000);
  });

  it('refuses forged, stale and altered webhooks, fails a session paid for another amount, ignores other events', async () => {
    const user = await f.newUser();
    const { tradeNo, session } = await checkout(user, 5);
    const paid = { ...session, payment_status: 'paid', payment_intent: 'pi_x' };
    const payload = fake.event('checkout.session.completed', paid);
    expect(await fake.deliver(endpoint(), payload, stripeSignature(payload, ['whsec_guess']))).toEqual({ status: 400, text: 'invalid signature' });
    expect((await fake.deliver(endpoint(), payload, stripeSignature(payload, [secret], Math.floor(Date.now() / 1000) - 301))).status).toBe(400);
    expect((await fake.deliver(endpoint(), payload.replace('"amount_total": 530', '"amount_total": 1'), stripeSignature(payload, [secret]))).status).toBe(400);
    expect((await fake.deliver(endpoint(), payload, '')).status).toBe(400);
    expect((await fake.deliver(endpoint(), fake.event('payment_intent.created', { id: 'pi_y', object: 'payment_intent' }))).status).toBe(200);
    expect((await fake.deliver(endpoint(), fake.event('checkout.session.completed', session))).status).toBe(200); // unpaid
    expect((await fake.deliver(endpoint(), 'not json')).status).toBe(400);
    expect(await quota(user)).toBe(0);
    expect((await order(tradeNo)).status).toBe('pending');

    expect((await fake.deliver(endpoint(), fake.event('checkout.session.completed', { ...paid, amount_total: 1 }))).status).toBe(200);
    expect(await order(tradeNo)).toMatchObject({ status: 'failed', fail_reason: 'paid 0.01 USD, order is 5.30 USD' });
    expect((await fake.deliver(endpoint(), payload)).status).toBe(200);
    expect(await quota(user)).toBe(0);
  });

  it("never credits another gateway's order from a signed Stripe webhook, and refuses all without a secret", async () => {
    const user = await f.newUser();
    const epay = (await admin.client.post('/api/payment/', { type: 'epay', name: 'E', icon: 'i', currency: 'USD', config: JSON.stringify({ pay_domain: 'https://epay.example', partner_id: '1', key: 'k' }) })).body.data;
    const epayOrder = (await user.client.post('/api/user/order', { uuid: epay.uuid, amount: 5 })).body.data;
    const forged = { id: 'cs_forged', object: 'checkout.session', client_reference_id: epayOrder.trade_no, payment_status: 'paid', amount_total: 500, currency: 'usd', payment_intent: 'pi_forged' };
    expect((await fake.deliver(endpoint(), fake.event('checkout.session.completed', forged))).status).toBe(200);
    expect(await quota(user)).toBe(0);
    expect((await order(epayOrder.trade_no)).status).toBe('pending');

    const { session } = await checkout(user, 5);
    await f.server.ctx.db.updateTable('payments').set({ config: JSON.stringify({ secret_key: fake.secretKey, webhook_secret: '' }) }).where('id', '=', gw.id).execute();
    try {
      const payload = fake.event('checkout.session.completed', { ...session, payment_status: 'paid', payment_intent: 'pi_z' });
      expect(await fake.deliver(endpoint(), payload, stripeSignature(payload, ['']))).toEqual({ status: 400, text: 'webhook secret is not set' });
      expect(await quota(user)).toBe(0);
    } finally {
      await f.server.ctx.db.updateTable('payments').set({ config: JSON.stringify({ secret_key: fake.secretKey, webhook_secret: secret }) }).where('id', '=', gw.id).execute();
    }
  });
});
