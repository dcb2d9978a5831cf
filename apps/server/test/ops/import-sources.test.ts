import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { ApiClient, testDialects } from '../harness.js';
import { importDatabase } from '../../src/import/run.js';
import { openSource } from '../../src/import/source.js';
import { loadConfig } from '../../src/config/env.js';
import { createServer } from '../../src/bootstrap.js';
import { relayState } from '../../src/relay/state.js';
import { EVENTS } from '../../src/cache/events.js';
import { originalDb, type Flavour, type OriginalDb } from './original-db.js';

const DAY = 86_400;
const KEY = 'Zy4xWv7uTs0rQp3oNm6lKj9iHg2fEd5cBa8zYx1wVu4tSr7q'; // a 48-character key, stored without sk-
const now = Math.floor(Date.now() / 1000);
const hash = bcrypt.hashSync('old-password1', 10);

/**
 * new-api top-ups of every status and provider (model/topup.go): Epay rows hold dollars in `amount`
 * and the yuan paid in `money`; Stripe rows the dollars credited in `money`; older rows have no
 * payment_provider. One trade number is too long for ours.
 */
const topUp = (id: number, status: string, trade_no: string, more: Record<string, unknown> = {}) => ({
  id, user_id: 2, amount: 10, money: 73, trade_no, payment_method: 'alipay', payment_provider: 'epay', create_time: now - id * DAY, complete_time: 0, status, ...more,
});
const TOP_UPS = [
  topUp(1, 'success', 'USR2NOa1B2c31764000000', { complete_time: now - DAY + 60 }),
  topUp(2, 'pending', 'USR2NOd4E5f61764000001', { amount: 5, money: 36.5, payment_method: 'wxpay' }),
  topUp(3, 'expired', `ref_${'ab12'.repeat(10)}`, { amount: 20, money: 24, payment_method: 'stripe', payment_provider: '' }),
  topUp(4, 'failed', 'USR2NOg7H8i91764000003', { amount: 3, money: 21.9, payment_provider: '' }),
  topUp(5, 'refunded', 'USR2NOj1K2l31764000004'),
  topUp(6, 'success', `USR2NO${'x'.repeat(60)}`),
];

/** The same people, keys and traffic in either original's layout. */
async function fill(src: OriginalDb, flavour: Flavour, upstream: string, logRows: number) {
  await src.insert('users', [
    { id: 1, username: 'root', password: hash, display_name: 'Root User', role: 100, status: 1, access_token: '0123456789abcdef0123456789abcdef', quota: 100000000, group: 'default' },
    { id: 2, username: 'alice', password: hash, display_name: 'Alice', role: 1, status: 1, access_token: 'fedcba9876543210fedcba9876543210', quota: 5000000, group: 'vip', aff_code: 'aL1c' },
  ]);
  await src.insert('users', [{ id: 3, username: 'gone', password: 'x', deleted_at: new Date('2025-01-01T10:00:00Z') }]);
  const channel = { id: 4, type: 1, key: 'sk-upstream-imported', name: 'imported', base_url: upstream, models: 'imported-model,per-call-model', group: 'default,vip', test_model: 'imported-model' };
  if (flavour === 'one-hub') {
    await src.insert('tokens', [{ id: 7, user_id: 2, key: KEY, name: 'old key', created_time: now, accessed_time: now, unlimited_quota: true, setting: '{"heartbeat":{"enabled":false}}', chat_cache: false }]);
    await src.insert('channels', [{ ...channel, config: '{}' }]);
    await src.insert('prices', [{ model: 'imported-model', type: 'tokens', channel_type: 1, input: 1, output: 2 }]);
    await src.insert('user_groups', [
      { id: 1, symbol: 'default', name: '默认分组', ratio: 1, api_rate: 600, public: true, enable: true },
      { id: 2, symbol: 'vip', name: 'vip分组', ratio: 0.8, api_rate: 600, public: false, enable: true },
    ]);
    await src.insert('options', [{ key: 'SystemName', value: 'Moved Hub' }]);
  } else {
    await src.insert('tokens', [{ id: 7, user_id: 2, key: KEY, name: 'old key', created_time: now, accessed_time: now, unlimited_quota: true, model_limits_enabled: false, model_limits: '', allow_ips: '', group: '', cross_group_retry: false }]);
    await src.insert('channels', [{ ...channel, weight: 1, auto_ban: 1, tag: 'imported', setting: '{}' }]);
    await src.insert('options', [
      { key: 'SystemName', value: 'Moved Hub' },
      { key: 'ModelRatio', value: '{"imported-model":1}' },
      { key: 'CompletionRatio', value: '{"imported-model":2}' },
      { key: 'ModelPrice', value: '{"per-call-model":0.02}' },
      { key: 'GroupRatio', value: '{"default":1,"vip":0.8,"team":0.5}' },
    ]);
    await src.insert('top_ups', TOP_UPS);
  }
  await src.insert('redemptions', [{ id: 1, user_id: 1, key: 'c0de0000c0de0000c0de0000c0de0000', name: 'gift', quota: 1000, created_time: now }]);
  const log = (i: number) => ({
    user_id: 2, created_at: now - (i % 2 ? 40 : 1) * DAY, type: 2, content: `row ${i}`, username: 'alice', model_name: 'imported-model', quota: 3, prompt_tokens: 1,
    completion_tokens: 1, channel_id: 4, is_stream: false, ...(flavour === 'new-api' ? { use_time: 2, ip: '203.0.113.9', token_id: 7, group: 'vip' } : { request_time: 2000 }),
  });
  await src.insert('logs', Array.from({ length: logRows }, (_, i) => log(i)));
  // The top-up log both originals write when a payment lands (a user's top-up history). Its
  // channel_id, is_stream and group are NULL, as gorm leaves a column added after the row was written.
  await src.insert('logs', [{ user_id: 2, created_at: now - DAY + 60, type: 1, content: '使用在线充值成功，充值金额: $10.000000，支付金额：73.000000', username: 'alice', quota: 5_000_000 }]);
}

const cases = testDialects().flatMap((dialect) => (['one-hub', 'new-api'] as const).map((flavour) => [dialect, flavour] as const));

describe.each(cases)('moving in from a %s database of %s', (dialect, flavour) => {
  let f: RelayFixture;
  let src: OriginalDb;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    src = await originalDb(dialect, flavour);
    await fill(src, flavour, f.fake.url, 1200);
  });
  afterAll(async () => {
    await f?.close();
    await src?.drop();
  });

  const run = (dryRun: boolean) => importDatabase(src.dsn, f.server.ctx.db, f.server.ctx.dialect, { dryRun, batch: 500, logDays: 30 });

  it('a dry run reports what would change, and what it cannot map, writing nothing', async () => {
    const by = Object.fromEntries((await run(true)).map((c) => [c.table, c]));
    expect(by.users).toMatchObject({ read: 3, inserted: 1, updated: 1, skipped: 1 });
    expect(by.tokens).toMatchObject({ inserted: 1 });
    expect(by.logs).toMatchObject({ read: 601, inserted: 601 });
    if (flavour === 'new-api') {
      expect(by.tokens.unmapped).toEqual(expect.arrayContaining(['model_limits_enabled', 'allow_ips']));
      expect(by.logs.unmapped).toEqual(['other']);
      expect(by['prices (from ModelRatio/ModelPrice)']).toMatchObject({ read: 2, inserted: 2 });
      expect(by['user_groups (from GroupRatio)']).toMatchObject({ read: 3, inserted: 1 });
      expect(by.top_ups).toBeUndefined();
      expect(by['orders (from top_ups)']).toMatchObject({ read: 6, inserted: 5, updated: 0, rejected: [expect.stringMatching(/^top-up 6: trade_no/)] });
      expect(by.abilities).toMatchObject({ notCopied: true, read: 0 });
    } else {
      expect(by.tokens.unmapped).toEqual(['chat_cache']);
      expect(by.prices).toMatchObject({ inserted: 1 });
    }
    expect(await f.server.ctx.db.selectFrom('users').select('id').where('username', '=', 'alice').execute()).toHaveLength(0);
    expect(await f.server.ctx.db.selectFrom('prices').select('model').where('model', '=', 'imported-model').execute()).toHaveLength(0);
    expect(await f.server.ctx.db.selectFrom('orders').select('id').execute()).toHaveLength(0);
  });

  it('imports; the old password signs in, the old key relays a chat, and a second run changes nothing', async () => {
    const by = Object.fromEntries((await run(false)).map((c) => [c.table, c]));
    expect(by.logs).toMatchObject({ read: 601, inserted: 601 });
    const again = await run(false);
    for (const c of again.filter((c) => !c.missing && !c.notCopied)) expect([c.table, c.inserted, c.updated]).toEqual([c.table, 0, 0]);
    // Balances are the source's: importing top-ups as orders credits nothing.
    const balances = await f.server.ctx.db.selectFrom('users').select(['id', 'quota']).where('id', 'in', [1, 2]).orderBy('id').execute();
    expect(balances.map((u) => [u.id, Number(u.quota)])).toEqual([[1, 100000000], [2, 5000000]]);

    await f.server.ctx.options.load();
    await relayState(f.server.ctx).selector.reload();
    await relayState(f.server.ctx).groups.load();
    await f.server.ctx.store.publish(EVENTS.tokens, '');

    expect(await new ApiClient(f.server.app).login('alice', 'old-password1')).toMatchObject({ id: 2, username: 'alice' });
    const answer = await f.openai(`sk-${KEY}`).chat.completions.create({ model: 'imported-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBeTruthy();
    expect(f.fake.forKey('sk-upstream-imported')).toHaveLength(1);
    expect((await new ApiClient(f.server.app).get('/api/status')).body.data.system_name).toBe('Moved Hub');

    // The buyer's top-up history (logs of type Recharge) came with the logs.
    const buyer = new ApiClient(f.server.app);
    await buyer.login('alice', 'old-password1');
    const topups = (await buyer.get('/api/log/self?log_type=1')).body.data.data;
    expect(topups.map((l: { content: string; quota: number }) => [l.content, Number(l.quota)])).toEqual([['使用在线充值成功，充值金额: $10.000000，支付金额：73.000000', 5_000_000]]);

    const price = async (model: string) => {
      const p = await f.server.ctx.db.selectFrom('prices').selectAll().where('model', '=', model).executeTakeFirstOrThrow();
      return [p.type, Number(p.input), Number(p.output)];
    };
    const logRow = await f.server.ctx.db.selectFrom('logs').selectAll().where('content', '=', 'row 0').executeTakeFirstOrThrow();
    if (flavour === 'new-api') {
      // ModelRatio 1 with CompletionRatio 2; ModelPrice $0.02 a call = 10 ratio units (1 = $0.002).
      expect(await price('imported-model')).toEqual(['tokens', 1, 2]);
      expect(await price('per-call-model')).toEqual(['times', 10, 0]);
      const team = await f.server.ctx.db.selectFrom('user_groups').selectAll().where("symbol", "=", "team").executeTakeFirstOrThrow();
      expect([team.name, Number(team.ratio), team.public]).toEqual(["team", 0.5, 0]);
      expect(Number((await f.server.ctx.db.selectFrom('user_groups').select('ratio').where('symbol', '=', 'vip').executeTakeFirstOrThrow()).ratio)).toBe(0.8);
      expect([Number(logRow.request_time), logRow.source_ip, Number(logRow.token_id), logRow.group]).toEqual([2000, '203.0.113.9', 7, 'vip']);

      // The top-ups are orders: the admin's order list and the buyer's order status show them.
      const admin = new ApiClient(f.server.app);
      await admin.login('root', 'old-password1');
      const list = (await admin.get('/api/payment/order?user_id=2&size=10&order=created_at')).body.data;
      expect(list.total_count).toBe(5);
      const orders = list.data.map((o: Record<string, unknown>) => [o.trade_no, o.gateway_id, o.amount, o.order_amount, o.order_currency, o.quota, o.status, o.fail_reason, o.created_at]);
      expect(orders).toEqual([
        [TOP_UPS[4].trade_no, 0, 10, 73, 'CNY', 5_000_000, 'failed', 'new-api status: refunded', now - 5 * DAY],
        [TOP_UPS[3].trade_no, 0, 3, 21.9, 'CNY', 1_500_000, 'failed', '', now - 4 * DAY],
        [TOP_UPS[2].trade_no, 0, 24, 24, 'USD', 12_000_000, 'closed', '', now - 3 * DAY],
        [TOP_UPS[1].trade_no, 0, 5, 36.5, 'CNY', 2_500_000, 'pending', '', now - 2 * DAY],
        [TOP_UPS[0].trade_no, 0, 10, 73, 'CNY', 5_000_000, 'success', '', now - DAY],
      ]);
      const alice = new ApiClient(f.server.app);
      await alice.login('alice', 'old-password1');
      expect((await alice.get(`/api/user/order/status?trade_no=${TOP_UPS[0].trade_no}`)).body).toMatchObject({ success: true });
      expect((await alice.get(`/api/user/order/status?trade_no=${TOP_UPS[1].trade_no}`)).body).toMatchObject({ success: false, data: { status: 'pending' } });

      // An order of this install (it has a gateway) is never overwritten by a top-up with its trade number.
      await f.server.ctx.db.insertInto('orders').values({ user_id: 1, gateway_id: 9, trade_no: 'HERE-1', amount: 1, quota: 500_000, status: 'pending', created_at: now }).execute();
      await src.insert('top_ups', [topUp(7, 'success', 'HERE-1')]);
      const third = Object.fromEntries((await run(false)).map((c) => [c.table, c]));
      expect(third['orders (from top_ups)']).toMatchObject({ inserted: 0, updated: 0, rejected: expect.arrayContaining(['HERE-1: an order of this install has that trade number']) });
      const here = await f.server.ctx.db.selectFrom('orders').selectAll().where('trade_no', '=', 'HERE-1').executeTakeFirstOrThrow();
      expect([here.user_id, here.gateway_id, here.status, Number(here.quota)]).toEqual([1, 9, 'pending', 500_000]);
    } else {
      expect(await price('imported-model')).toEqual(['tokens', 1, 2]);
      expect(Number(logRow.request_time)).toBe(2000);
    }
  });
});

describe.each(testDialects())('a server whose SQL_DSN points at the original database on %s', (dialect) => {
  it.each(['one-hub', 'new-api'] as const)('refuses to start on a %s database, naming the importer, and creates nothing there', async (flavour) => {
    const src = await originalDb(dialect, flavour);
    try {
      await fill(src, flavour, 'http://127.0.0.1:9', 1);
      const source = await openSource(src.dsn);
      const before = source.tables().sort();
      await source.close();
      const dir = mkdtempSync(join(tmpdir(), 'one-hub-adopt-'));
      const env = dialect === 'sqlite' ? { SQLITE_PATH: src.dsn } : { SQL_DSN: src.dsn };
      const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dir, SQLITE_PATH: join(dir, 'x.db'), ...env });
      await expect(createServer(config, {})).rejects.toThrow(/npm run import -- --from/);
      const after = await openSource(src.dsn);
      expect(after.tables().sort()).toEqual(before);
      expect(await after.count('users')).toBe(3);
      await after.close();
      rmSync(dir, { recursive: true, force: true });
    } finally {
      await src.drop();
    }
  });
});
