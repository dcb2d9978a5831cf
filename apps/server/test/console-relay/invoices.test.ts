import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';
import { billLastMonth } from '../../src/console/dashboard/invoice-service.js';

const SUBMITTED = '账单任务提交成功，后台将自动执行指定月份的账单生成任务';
const usage = (request_count: number, quota: number) => ({ request_count, quota, prompt_tokens: quota * 2, completion_tokens: quota * 3, request_time: quota * 10 });

describe.each(testDialects())('monthly bills on %s', (dialect) => {
  let f: ConsoleFixture;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    alice = await f.newUser();
    bob = await f.newUser();
    await f.addStatistics([
      { date: '2023-12-31', user_id: alice.id, model_name: 'gpt-4o', ...usage(1, 1000) },
      { date: '2024-01-01', user_id: alice.id, channel_id: 1, model_name: 'gpt-4o', ...usage(2, 10) },
      { date: '2024-01-20', user_id: alice.id, channel_id: 2, model_name: 'gpt-4o', ...usage(3, 20) },
      { date: '2024-01-31', user_id: alice.id, channel_id: 1, model_name: 'claude', ...usage(1, 5) },
      { date: '2024-01-15', user_id: bob.id, model_name: 'gpt-4o', ...usage(9, 99) },
      { date: '2024-02-01', user_id: alice.id, model_name: 'gpt-4o', ...usage(4, 40) },
    ]);
  });
  afterAll(async () => f?.close());

  it('lets only root generate a past month, once, from any day of it', async () => {
    expect((await alice.client.post('/api/option/invoice/gen/2024-01-15')).status).toBe(403);
    expect(await f.root.post('/api/option/invoice/gen/2024-01-15')).toMatchObject({ status: 200, body: { success: true, message: SUBMITTED } });
    expect(await f.root.post('/api/option/invoice/gen/2024-01-02')).toMatchObject({ status: 409, body: { success: false, message: 'invoice the month data already generated' } });
    for (const bad of ['abc', '2024-02-30', '2024-1-15']) {
      expect(await f.root.post(`/api/option/invoice/gen/${bad}`)).toMatchObject({ status: 400, body: { message: expect.stringContaining('invalid time format') } });
    }
    const thisMonth = new Date().toISOString().slice(0, 10);
    expect((await f.root.post(`/api/option/invoice/update/${thisMonth}`)).body.message).toBe('invoice time cannot be later than or equal to current month');
    expect((await f.root.post('/api/option/invoice/gen/2999-01-01')).status).toBe(400);
  });

  it('shows each user their own months, newest first, with per-model lines', async () => {
    await f.root.post('/api/option/invoice/gen/2024-02-29');
    const list = await alice.client.get('/api/user/invoice');
    expect(list.body.data).toMatchObject({ page: 1, size: 10, total_count: 2 });
    expect(list.body.data.data).toEqual([
      { date: '2024-02-01', ...usage(4, 40) },
      { date: '2024-01-01', ...usage(6, 35) },
    ]);
    expect((await alice.client.get('/api/user/invoice?order=quota')).body.data.data.map((r: { quota: number }) => r.quota)).toEqual([35, 40]);
    expect((await alice.client.get('/api/user/invoice?order=model_name')).status).toBe(400);
    const detail = await alice.client.get('/api/user/invoice/detail?date=2024-01-31');
    expect(detail.body.data).toEqual([
      { date: '2024-01-01', model_name: 'claude', ...usage(1, 5) },
      { date: '2024-01-01', model_name: 'gpt-4o', ...usage(5, 30) },
    ]);
    expect((await bob.client.get('/api/user/invoice')).body.data.data).toEqual([{ date: '2024-01-01', ...usage(9, 99) }]);
    expect((await bob.client.get('/api/user/invoice/detail?date=2024-02-01')).body.data).toEqual([]);
    expect(await alice.client.get('/api/user/invoice/detail?date=2024-13-01')).toMatchObject({ status: 400, body: { message: expect.stringContaining('无效的日期格式') } });
    expect((await alice.client.get('/api/user/invoice/detail')).status).toBe(400);
  });

  it('rebuilds a billed month on update instead of adding to it', async () => {
    await f.addStatistics([{ date: '2024-01-25', user_id: alice.id, model_name: 'claude', ...usage(1, 5) }]);
    expect((await f.root.post('/api/option/invoice/update/2024-01-01')).body.success).toBe(true);
    const detail = await alice.client.get('/api/user/invoice/detail?date=2024-01-01');
    expect(detail.body.data[0]).toEqual({ date: '2024-01-01', model_name: 'claude', ...usage(2, 10) });
    const history = await f.server.ctx.db.selectFrom('statistics_month_generated_histories').selectAll().where('date', '=', '2024-01-01').execute();
    expect(history.map((h) => h.count)).toEqual([3, 3]);
  });

  it('bills last month once from the daily job', async () => {
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    await f.addStatistics([{ date: lastMonth, user_id: bob.id, model_name: 'job-model', ...usage(7, 70) }]);
    await billLastMonth(f.server.ctx);
    await billLastMonth(f.server.ctx);
    const runs = await f.server.ctx.db.selectFrom('statistics_month_generated_histories').selectAll().where('date', '=', lastMonth).execute();
    expect(runs).toHaveLength(1);
    expect((await bob.client.get(`/api/user/invoice/detail?date=${lastMonth}`)).body.data).toEqual([{ date: lastMonth, model_name: 'job-model', ...usage(7, 70) }]);
  });

  it('bills last month at start-up when USER_INVOICE_MONTH is on', async () => {
    const first = await startTestServer(dialect);
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    await first.ctx.db.insertInto('statistics').values({ date: lastMonth, user_id: 1, channel_id: 0, model_name: 'boot-model', request_count: 2, quota: 9, prompt_tokens: 1, completion_tokens: 1, request_time: 5 }).execute();
    await first.close();
    const second = await startTestServer(dialect, { reuse: first, env: { USER_INVOICE_MONTH: 'true' } });
    try {
      let rows: unknown[] = [];
      for (let i = 0; i < 100 && !rows.length; i++) {
        rows = await second.ctx.db.selectFrom('statistics_months').selectAll().where('model_name', '=', 'boot-model').execute();
        if (!rows.length) await new Promise((r) => setTimeout(r, 20));
      }
      expect(rows).toEqual([expect.objectContaining({ date: lastMonth, user_id: 1, quota: 9, request_count: 2 })]);
    } finally {
      await second.destroy();
    }
  });
});
