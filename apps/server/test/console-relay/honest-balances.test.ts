import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { FakeSmtp } from '../accounts/fake-smtp.js';
import { checkQuotaAlerts } from '../../src/notify/user-alerts.js';
import { relayState } from '../../src/relay/state.js';

const THRESHOLD = 2_500;
// Slices stay where they were taken for the whole test: the balance column is lowered by them throughout.
const ENV = { QUOTA_LEASE_IDLE_SECONDS: '3600' };

const ask = (client: OpenAI, maxTokens: number) =>
  client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: maxTokens }).then(
    () => 'served',
    (e: { status?: number }) => String(e.status),
  );

/** SMTP options, a user with a balance, a bound e-mail and a low-balance alert. */
async function alertedUser(f: RelayFixture, smtpPort: number, quota: number) {
  for (const [key, value] of [
    ['SMTPServer', '127.0.0.1'],
    ['SMTPPort', String(smtpPort)],
    ['SMTPFrom', 'hub@example.com'],
    ['DisplayInCurrencyEnabled', 'false'],
  ]) {
    await f.setOption(key, value);
  }
  const u = await f.newUser({ quota });
  const self = (await u.client.get('/api/user/self')).body.data;
  const email = `${self.username}@example.com`;
  expect((await f.root.put('/api/user/', { id: u.userId, username: self.username, email })).body.success).toBe(true);
  expect((await u.client.put('/api/user/alert', { threshold: THRESHOLD, channel: 'email' })).body.success).toBe(true);
  return { ...u, email };
}

async function column(server: TestServer, userId: number): Promise<number> {
  return Number((await server.ctx.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);
}

/** Issue 35 defect 11: balances and alerts judge the balance the user has, not the column leases lower. */
describe.each(testDialects())('honest balances with leased slices (%s)', (dialect) => {
  const smtp = new FakeSmtp();
  let f: RelayFixture;
  let user: Awaited<ReturnType<typeof alertedUser>>;
  const mails = () => smtp.mails.filter((m) => m.to.some((t) => t.includes(user.email))).length;
  const round = () => checkQuotaAlerts(f.server.ctx);

  beforeAll(async () => {
    const port = await smtp.start();
    f = await relayFixture(dialect, ENV);
    await f.addChannel({ key: 'honest-key' });
    user = await alertedUser(f, port, 5_000);
  });
  afterAll(async () => {
    await f?.close();
    await smtp.close();
  });

  it('shows and judges the column plus the unused part of a slice; tells once per crossing', async () => {
    // Costs 20 (10 + 10 at 1 quota a token); the hold of ≈1 000 makes the node lease four times that.
    f.fake.behave('honest-key', { usage: { prompt: 10, completion: 10 } });
    expect(await ask(f.openai(user.key), 1_000)).toBe('served');
    await relayState(f.server.ctx).recorder.flush();
    expect(await column(f.server, user.userId)).toBeLessThan(THRESHOLD);

    expect((await user.client.get('/api/user/self')).body.data.quota).toBe(4_980);
    expect((await f.root.get(`/api/user/${user.userId}`)).body.data.quota).toBe(4_980);
    const listed = (await f.root.get(`/api/user/?keyword=${user.email.split('@')[0]}`)).body.data.data;
    expect(listed.find((u: { id: number }) => u.id === user.userId).quota).toBe(4_980);
    const billing = await new ApiClient(f.server.app).get('/v1/dashboard/billing/subscription', { authorization: `Bearer ${user.key}` });
    expect(billing.body.hard_limit_usd).toBe(5_000); // balance plus used
    const columns = await f.server.ctx.db.selectFrom('users').select('quota').where('deleted_at', 'is', null).execute();
    const totals = (await f.root.get('/api/analytics/statistics')).body.data.user_statistics;
    expect(totals.total_quota - columns.reduce((n, r) => n + Number(r.quota), 0)).toBe(4_980 - (await column(f.server, user.userId)));
    await round();
    await round();
    expect(mails()).toBe(0);

    // A real crossing: 3 000 spent takes the balance to 1 980.
    f.fake.behave('honest-key', { usage: { prompt: 10, completion: 2_990 } });
    expect(await ask(f.openai(user.key), 3_000)).toBe('served');
    await relayState(f.server.ctx).recorder.flush();
    expect((await user.client.get('/api/user/self')).body.data.quota).toBe(1_980);
    await Promise.all([round(), round(), round()]);
    expect(mails()).toBe(1);
    // Slices given back and taken again move quota between column and lease: no new crossing.
    await relayState(f.server.ctx).leases.settleUp();
    await round();
    f.fake.behave('honest-key', { usage: { prompt: 10, completion: 10 } });
    expect(await ask(f.openai(user.key), 300)).toBe('served');
    await relayState(f.server.ctx).recorder.flush();
    await round();
    expect(mails()).toBe(1);
    expect((await user.client.get('/api/user/self')).body.data.quota).toBe(1_960);
  });

  it("shows a limited token's remaining quota with its slice, and an unchanged edit keeps it", async () => {
    f.fake.behave('honest-key', { usage: { prompt: 10, completion: 10 } });
    const t = await f.newUser({ quota: 100_000, token: { unlimited_quota: false, remain_quota: 5_000 } });
    expect(await ask(f.openai(t.key), 1_000)).toBe('served');
    await relayState(f.server.ctx).recorder.flush();
    const remainColumn = async () => Number((await f.server.ctx.db.selectFrom('tokens').select('remain_quota').where('id', '=', t.tokenId).executeTakeFirstOrThrow()).remain_quota);
    expect(await remainColumn()).toBeLessThan(2_000);
    const listed = (await t.client.get('/api/token/')).body.data.data[0];
    expect(listed.remain_quota).toBe(4_980);
    expect((await t.client.get(`/api/token/${t.tokenId}`)).body.data.remain_quota).toBe(4_980);
    const billing = await new ApiClient(f.server.app).get('/v1/dashboard/billing/subscription', { authorization: `Bearer ${t.key}` });
    expect(billing.body.hard_limit_usd).toBe(5_000);
    const edited = await t.client.put('/api/token/', { ...listed, name: 'renamed' });
    expect(edited.body.data).toMatchObject({ name: 'renamed', remain_quota: 4_980 });
    await relayState(f.server.ctx).leases.settleUp();
    expect(await remainColumn()).toBe(4_980);
  });
});

/** Two nodes on one database: each node's slices are in the lease rows, and both judge the same balance. */
describe.skipIf(!redisAvailable() || !testDialects().includes('postgres'))('honest balances across two nodes (postgres + redis)', () => {
  const smtp = new FakeSmtp();
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  let user: Awaited<ReturnType<typeof alertedUser>>;
  const mails = () => smtp.mails.filter((m) => m.to.some((t) => t.includes(user.email))).length;
  const rounds = () => Promise.all([checkQuotaAlerts(a.server.ctx), checkQuotaAlerts(b.ctx)]);

  beforeAll(async () => {
    const port = await smtp.start();
    a = await relayFixture('postgres', { ...ENV, REDIS_CONN_STRING: process.env.TEST_REDIS_CONN_STRING!, REDIS_KEY_PREFIX: `honest:${Date.now()}:` });
    await a.addChannel({ key: 'two-node-honest' });
    user = await alertedUser(a, port, 10_000);
    b = await startTestServer('postgres', { reuse: a.server, env: { BATCH_FLUSH_MS: '60000', ...ENV } });
    bUrl = await b.listen();
    await relayState(b.ctx).selector.reload();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await smtp.close();
  });

  it('tells once for one crossing while both nodes hold slices and requests run', async () => {
    const clients = [a.openai(user.key), new OpenAI({ apiKey: user.key, baseURL: `${bUrl}/v1`, maxRetries: 0 })];
    const flushBoth = () => Promise.all([a.server, b].map((s) => relayState(s.ctx).recorder.flush()));
    a.fake.behave('two-node-honest', { usage: { prompt: 10, completion: 10 } });
    expect(await Promise.all(clients.map((c) => ask(c, 1_000)))).toEqual(['served', 'served']);
    await flushBoth();
    expect(await column(a.server, user.userId)).toBeLessThan(THRESHOLD);
    await rounds();
    expect(mails()).toBe(0);
    expect((await user.client.get('/api/user/self')).body.data.quota).toBe(9_960);

    // 8 000 spent in parallel on both nodes while both run alert rounds: one crossing, one mail.
    a.fake.behave('two-node-honest', { usage: { prompt: 10, completion: 990 }, delayMs: 50 });
    const asks = Promise.all(Array.from({ length: 8 }, (_, i) => ask(clients[i % 2], 1_000)));
    const during = (async () => {
      for (let i = 0; i < 5; i++) await Promise.all([rounds(), flushBoth()]);
    })();
    expect(await asks).toEqual(Array(8).fill('served'));
    await during;
    await flushBoth();
    await rounds();
    await Promise.all([a.server, b].map((s) => relayState(s.ctx).leases.settleUp()));
    await rounds();
    expect((await user.client.get('/api/user/self')).body.data.quota).toBe(1_960);
    expect(mails()).toBe(1);
  });
});
