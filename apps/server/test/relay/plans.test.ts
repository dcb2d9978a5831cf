import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeEpay } from '../fakes/epay.js';
import { relayState } from '../../src/relay/state.js';
import { logsOf, plan, resetIso } from './plan-fixture.js';

type Row = Record<string, any>;
const ask = (model: string) => ({ model, max_tokens: 10, messages: [{ role: 'user' as const, content: 'hello there' }] });
const status = (p: Promise<unknown>) => p.then(() => 200, (e: { status?: number }) => e.status);

/** The hold of one `ask` (prompt estimate + max_tokens at 1 quota a token), read from a probe's log row. */
async function holdOfAsk(f: RelayFixture): Promise<number> {
  const { key, userId } = await f.newUser({ quota: 1_000_000 });
  await f.openai(key).chat.completions.create(ask('test-model'));
  return (await logsOf(f, userId)).at(-1)!.meta.reserved;
}

describe.each(testDialects())('subscription plans on %s', (dialect) => {
  const epay = new FakeEpay();
  let f: RelayFixture;
  let H = 0;
  let clock = Date.now();
  let gateway: Row;
  const setClock = (ms: number) => {
    clock = ms;
    relayState(f.server.ctx).plans.now = () => clock;
  };

  beforeAll(async () => {
    await epay.start();
    epay.merchants.set('1001', 'plan-key');
    f = await relayFixture(dialect);
    setClock(Date.now());
    await f.setOption('ServerAddress', f.url);
    await f.setOption('PreConsumedQuota', 0);
    await f.server.ctx.db.insertInto('prices').values({ model: 'plan-model', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    await f.addChannel({ key: 'plan', models: 'test-model,plan-model' });
    H = await holdOfAsk(f);
    // Every plan request costs exactly its hold.
    f.fake.behave('plan', { usage: { prompt: H - 10, completion: 10 } });
    const res = await f.root.post('/api/payment/', { type: 'epay', name: 'Epay', icon: 'i', currency: 'USD', config: JSON.stringify({ pay_domain: epay.url, partner_id: '1001', key: 'plan-key', pay_type: 'alipay' }) });
    gateway = res.body.data;
  });
  afterAll(async () => {
    await f?.close();
    await epay.close();
  });

  async function createPlan(over: Row = {}): Promise<Row> {
    const res = await f.root.post('/api/plan/', plan(over));
    expect(res.body.success).toBe(true);
    return res.body.data;
  }

  it('lets an admin create, edit and delete plans (validated, audited); common users only see public ones', async () => {
    expect((await f.root.post('/api/plan/', plan({ window_kind: 'hour' }))).status).toBe(400);
    expect((await f.root.post('/api/plan/', plan({ price: 1.234 }))).body.message).toContain('price');
    const p = await createPlan({ name: 'Audit me', public: false });
    expect(p).toMatchObject({ name: 'Audit me', price: 9.9, window_kind: '5h', models: ['plan-model'], groups: [], public: false, enabled: true });
    const edited = await f.root.put('/api/plan/', { id: p.id, window_quota: 777 });
    // Only the fields sent change.
    expect(edited.body.data).toMatchObject({ window_quota: 777, public: false, models: ['plan-model'], price: 9.9 });
    const { client } = await f.newUser();
    expect((await client.get('/api/plan/')).status).toBe(403);
    expect((await client.post('/api/plan/', plan())).status).toBe(403);
    expect(((await client.get('/api/plan/public')).body.data as Row[]).some((x) => x.id === p.id)).toBe(false);
    expect((await f.root.delete(`/api/plan/${p.id}`)).body.success).toBe(true);
    expect((await f.root.get(`/api/plan/${p.id}`)).status).toBe(404);
    const audit = (await f.root.get('/api/audit/?target_kind=plan&size=50')).body.data.data as Row[];
    const mine = audit.filter((a) => a.target_id === String(p.id));
    expect(mine.map((a) => a.action).sort()).toEqual(['delete', 'update']);
    expect(audit.filter((a) => a.action === 'create' && JSON.stringify(a.diff).includes('Audit me'))).toHaveLength(1);
    expect(JSON.stringify(mine.find((a) => a.action === 'update')!.diff)).toContain('777');
  });

  it('sells a plan through Epay: the paid notice starts the subscription once, credits no quota', async () => {
    const p = await createPlan({ window_quota: 5 * H });
    const { client, userId } = await f.newUser();
    const res = (await client.post('/api/plan/buy', { plan_id: p.id, uuid: gateway.uuid })).body;
    expect(res.success).toBe(true);
    expect(res.data.order).toMatchObject({ order_amount: 9.9, order_currency: 'USD', quota: 0 });
    const { url, method, params } = res.data.data;
    expect((await fetch(url, { method, body: new URLSearchParams(params) })).status).toBe(200);
    const paid = await fetch(`${epay.url}/pay/${res.data.trade_no}`, { redirect: 'manual' });
    expect(paid.headers.get('location')).toBe(`${f.url}/panel/subscription`);
    expect(await epay.pay(res.data.trade_no)).toEqual({ status: 200, text: 'success' }); // a replay starts nothing more
    const mine = (await client.get('/api/plan/self')).body.data;
    expect(mine.fallback).toBe(false);
    expect(mine.subscriptions).toHaveLength(1);
    expect(mine.subscriptions[0]).toMatchObject({ plan_id: p.id, status: 'active', source: 'order', window_quota: 5 * H, window_used: 0 });
    expect((await client.get('/api/user/self')).body.data.quota).toBe(0);
    // A plan that does not renew cannot be bought again while it runs.
    expect((await client.post('/api/plan/buy', { plan_id: p.id, uuid: gateway.uuid })).status).toBe(409);
    void userId;
  });

  it('charges a yuan plan on a yuan gateway its own price to the fen (99 CNY at 7.3 is 99, not 98.99)', async () => {
    await f.setOption('PaymentUSDRate', 7.3);
    const res = await f.root.post('/api/payment/', { type: 'epay', name: 'Epay CNY', icon: 'i', currency: 'CNY', config: JSON.stringify({ pay_domain: epay.url, partner_id: '1001', key: 'plan-key', pay_type: 'alipay' }) });
    const yuan = res.body.data as Row;
    const p = await createPlan({ price: 99, currency: 'CNY' });
    const { client } = await f.newUser();
    const bought = (await client.post('/api/plan/buy', { plan_id: p.id, uuid: yuan.uuid })).body;
    expect(bought.success, JSON.stringify(bought)).toBe(true);
    expect(bought.data.order).toMatchObject({ order_amount: 99, order_currency: 'CNY' });
    expect(bought.data.data.params.money).toBe('99.00');
    expect((await f.root.delete(`/api/payment/${yuan.id}`)).body.success).toBe(true);
  });

  it('sells a plan that does not renew once: ten parallel buys make one order; a payment landing while it runs is credited as balance (issue 35 defect 12)', async () => {
    const p = await createPlan();
    const { client, userId } = await f.newUser();
    const buy = () => client.post('/api/plan/buy', { plan_id: p.id, uuid: gateway.uuid });
    const answers = await Promise.all(Array.from({ length: 10 }, buy));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({ success: false, message: expect.stringContaining('already waiting for payment') });
    // One after another: still refused while the first waits for payment.
    expect((await buy()).status).toBe(409);
    const orders = await f.server.ctx.db.selectFrom('orders').select('trade_no').where('user_id', '=', userId).execute();
    expect(orders).toHaveLength(1);

    // An admin grants the plan meanwhile; the order's payment then lands: no second subscription, the price as balance.
    expect((await f.root.post('/api/plan/grant', { user_id: userId, plan_id: p.id })).body.success).toBe(true);
    const order = answers.find((a) => a.status === 200)!.body.data;
    const { url, method, params } = order.data;
    expect((await fetch(url, { method, body: new URLSearchParams(params) })).status).toBe(200);
    expect((await fetch(`${epay.url}/pay/${order.trade_no}`, { redirect: 'manual' })).status).toBe(302);
    const subs = (await client.get('/api/plan/self')).body.data.subscriptions as Row[];
    expect(subs.map((s) => s.source)).toEqual(['admin']);
    const credited = Math.round(9.9 * 500_000);
    expect((await client.get('/api/user/self')).body.data.quota).toBe(credited);
    const rows = await f.server.ctx.db.selectFrom('logs').select(['quota', 'content']).where('user_id', '=', userId).where('type', '=', 1).execute();
    expect(rows).toEqual([{ quota: credited, content: expect.stringContaining('已在生效中且不续订') }]);
    expect((await buy()).body.message).toContain('already hold this plan');
  });

  it('spends the plan window first (balance untouched, logs marked), then refuses with the reset time; a new window admits again', async () => {
    const p = await createPlan({ window_quota: 3 * H });
    const { key, userId, client } = await f.newUser({ quota: 1_000_000 });
    expect((await f.root.post('/api/plan/grant', { user_id: userId, plan_id: p.id })).body.success).toBe(true);
    setClock(Date.now()); // not before the subscription's start
    const sdk = f.openai(key);
    await sdk.chat.completions.create(ask('plan-model'));
    // A stream settles on the plan the same way.
    const stream = await sdk.chat.completions.create({ ...ask('plan-model'), stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) void chunk;
    await sdk.chat.completions.create(ask('plan-model'));
    const err = await sdk.chat.completions.create(ask('plan-model')).catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.error).toMatchObject({ code: 'plan_window_spent', type: 'one_hub_error' });
    const sub = (await client.get('/api/plan/self')).body.data.subscriptions[0];
    expect(sub).toMatchObject({ source: 'admin', window_used: 3 * H, window_end: sub.window_start + 5 * 3600 });
    expect(err.error.message).toContain(`resets at ${resetIso(sub.window_end)}`);
    expect(Number(err.headers.get('retry-after'))).toBe(sub.window_end - Math.floor(clock / 1000));
    // Models the plan does not cover still pay from the balance.
    expect(await status(sdk.chat.completions.create(ask('test-model')))).toBe(200);
    const logs = await logsOf(f, userId);
    const planned = logs.filter((l) => l.meta.plan_id === p.id);
    expect(planned).toHaveLength(3);
    expect(planned.every((l) => l.quota === 0 && l.meta.plan_quota === H && l.meta.subscription_id === sub.id)).toBe(true);
    expect(logs.at(-1)!.meta.plan_id).toBeUndefined();
    expect((await client.get('/api/user/self')).body.data.quota).toBe(1_000_000 - logs.at(-1)!.quota);
    // The settled spend is written behind to plan_usage.
    await relayState(f.server.ctx).plans.flush();
    const usage = await f.server.ctx.db.selectFrom('plan_usage').selectAll().where('subscription_id', '=', sub.id).execute();
    expect(usage.map((u) => Number(u.used))).toEqual([3 * H]);

    // A request whose worst case no window could ever hold is told so, not asked to wait.
    const huge = await sdk.chat.completions.create({ ...ask('plan-model'), max_tokens: 100_000 }).catch((e) => e);
    expect([huge.status, huge.error.code]).toEqual([400, 'plan_window_too_small']);
    expect(huge.error.message).toContain('more than your plan\'s window includes');

    setClock((sub.window_end + 1) * 1000);
    // Deleting the plan ends its sale, not the running subscription.
    expect((await f.root.delete(`/api/plan/${p.id}`)).body.success).toBe(true);
    expect(await status(sdk.chat.completions.create(ask('plan-model')))).toBe(200);
    expect((await logsOf(f, userId)).at(-1)!.meta.plan_id).toBe(p.id);
  });

  it('falls back to the balance when the window is spent and the user allows it', async () => {
    const p = await createPlan({ window_quota: H, window_kind: 'day' });
    const { key, userId, client } = await f.newUser({ quota: 1_000_000 });
    await f.root.post('/api/plan/grant', { user_id: userId, plan_id: p.id });
    setClock(Date.now());
    const sdk = f.openai(key);
    await sdk.chat.completions.create(ask('plan-model'));
    expect(await status(sdk.chat.completions.create(ask('plan-model')))).toBe(429);
    expect((await client.put('/api/plan/self/fallback', { enabled: 'yes' })).status).toBe(400);
    expect((await client.put('/api/plan/self/fallback', { enabled: true })).body.success).toBe(true);
    expect((await client.get('/api/plan/self')).body.data.fallback).toBe(true);
    await sdk.chat.completions.create(ask('plan-model'));
    const [first, second] = await logsOf(f, userId);
    expect(first.meta.plan_id).toBe(p.id);
    expect(second.meta.plan_id).toBeUndefined();
    expect(second.quota).toBe(H);
    expect((await client.get('/api/user/self')).body.data.quota).toBe(1_000_000 - H);
  });

  it('grants plans by a "plan" redemption code, by an admin and as the default plan of new users', async () => {
    const p = await createPlan({ renews: true, duration_kind: 'day', duration_count: 30 });
    const keys = (await f.root.post('/api/redemption/', { name: 'plan code', quota: 0, plan_id: p.id, count: 1 })).body.data as string[];
    expect((await f.root.post('/api/redemption/', { name: 'bad', quota: 0, plan_id: 99999, count: 1 })).status).toBe(404);
    const { client, userId } = await f.newUser();
    expect((await client.post('/api/user/topup', { key: keys[0] })).body.success).toBe(true);
    expect((await client.post('/api/user/topup', { key: keys[0] })).body.success).toBe(false);
    let subs = (await client.get('/api/plan/self')).body.data.subscriptions as Row[];
    expect(subs).toMatchObject([{ plan_id: p.id, source: 'redemption', status: 'active' }]);
    expect(subs[0].end_at - subs[0].start_at).toBe(30 * 86_400);
    expect((await client.get('/api/user/self')).body.data.quota).toBe(0);
    // A second period of a renewing plan is queued after the first.
    expect((await f.root.post('/api/plan/grant', { user_id: userId, plan_id: p.id })).body.success).toBe(true);
    subs = (await client.get('/api/plan/self')).body.data.subscriptions;
    expect(subs.map((s) => [s.source, s.status])).toEqual([['redemption', 'active'], ['admin', 'pending']]);
    expect(subs[1].start_at).toBe(subs[0].end_at);
    expect((await f.root.post('/api/plan/grant', { user_id: userId, plan_id: 99999 })).status).toBe(404);
    const granted = (await f.root.get(`/api/plan/subscription?user_id=${userId}`)).body.data as Row[];
    expect(granted).toHaveLength(2);
    // The admin list names the subscriber; the user's own list does not need to.
    const { username } = (await client.get('/api/user/self')).body.data;
    expect(granted.map((g) => (g as Row & { username?: string }).username)).toEqual([username, username]);
    expect((await client.get('/api/plan/self')).body.data.subscriptions[0].username).toBeUndefined();
    expect((await f.root.delete(`/api/plan/subscription/${granted[0].id}`)).body.success).toBe(true);
    expect((await client.get('/api/plan/self')).body.data.subscriptions).toHaveLength(1);

    await f.setOption('DefaultPlanId', p.id);
    const fresh = await f.newUser();
    expect((await fresh.client.get('/api/plan/self')).body.data.subscriptions).toMatchObject([{ plan_id: p.id, source: 'default' }]);
    await f.setOption('DefaultPlanId', 0);
  });
});

describe.skipIf(!redisAvailable())('plan windows across two nodes sharing Redis', () => {
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  beforeAll(async () => {
    a = await relayFixture('sqlite', { REDIS_CONN_STRING: process.env.TEST_REDIS_CONN_STRING!, REDIS_KEY_PREFIX: `plans:${Date.now()}:` });
    b = await startTestServer('sqlite', { reuse: a.server });
    bUrl = await b.listen();
    await a.setOption('PreConsumedQuota', 0);
    await a.server.ctx.db.insertInto('prices').values({ model: 'plan-model', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await a.server.ctx.store.publish('prices:changed', '');
    await a.addChannel({ key: 'two', models: 'test-model,plan-model' });
    await relayState(b.ctx).selector.reload();
    await relayState(b.ctx).prices.load();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('50 concurrent requests against a window worth 5 spend at most 5 across both nodes', async () => {
    const H = await holdOfAsk(a);
    a.fake.behave('two', { usage: { prompt: H - 10, completion: 10 }, delayMs: 50 });
    const p = (await a.root.post('/api/plan/', plan({ window_quota: 5 * H }))).body.data;
    const { key, userId, client } = await a.newUser();
    await a.root.post('/api/plan/grant', { user_id: userId, plan_id: p.id });
    await relayState(b.ctx).plans.load();
    const onB = new OpenAI({ apiKey: key, baseURL: `${bUrl}/v1`, maxRetries: 0 });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => status((i % 2 ? onB : a.openai(key)).chat.completions.create(ask('plan-model')))));
    const ok = results.filter((s) => s === 200).length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(5);
    expect(results.filter((s) => s === 429)).toHaveLength(50 - ok);
    await relayState(b.ctx).recorder.flush();
    const logs = await logsOf(a, userId);
    const spent = logs.reduce((sum, l) => sum + (l.meta.plan_quota ?? 0), 0);
    expect(spent).toBe(ok * H);
    expect(spent).toBeLessThanOrEqual(5 * H);
    expect((await client.get('/api/plan/self')).body.data.subscriptions[0].window_used).toBe(spent);
  });
});
