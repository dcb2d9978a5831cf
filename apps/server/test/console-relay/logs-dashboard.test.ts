import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { at, consoleFixture, daysAgo, today, type ConsoleFixture, type TestUser } from './setup.js';

describe.each(testDialects())('logs, dashboard and analytics on %s', (dialect) => {
  let f: ConsoleFixture;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: number;
  const day = '2024-02-10';

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    alice = await f.newUser();
    bob = await f.newUser();
    await f.root.post('/api/channel/', { type: 1, name: 'logged-channel', key: 'k', models: 'gpt-4o', group: 'default' });
    channelId = (await f.root.get('/api/channel/?order=-id')).body.data.data[0].id;
    const consume = { type: 2, token_name: 'tk', channel_id: channelId, prompt_tokens: 3, completion_tokens: 4, is_stream: 0 };
    await f.addLogs([
      { ...consume, created_at: at(day, 10), user_id: alice.id, username: alice.username, model_name: 'gpt-4o', quota: 100, source_ip: '10.0.0.1' },
      { ...consume, created_at: at(day, 20), user_id: alice.id, username: alice.username, model_name: 'claude', quota: 50, token_name: 'other', source_ip: '10.0.0.2' },
      { ...consume, created_at: at(day, 30), user_id: bob.id, username: bob.username, model_name: 'gpt-4o', quota: 7, channel_id: 999 },
      { ...consume, created_at: at('2024-02-12'), user_id: alice.id, username: alice.username, model_name: 'gpt-4o', quota: 1000, is_stream: 1 },
      { type: 3, created_at: at(day, 5), user_id: alice.id, username: alice.username, content: 'manage' },
      { type: 1, created_at: at(day, 6), user_id: alice.id, username: alice.username, content: 'top-up', quota: 500 },
    ]);
  });
  afterAll(async () => f?.close());

  const total = (res: { body: { data: { total_count: number } } }) => res.body.data.total_count;

  it('filters the admin log list by every filter and shows the channel name', async () => {
    const range = `start_timestamp=${at(day)}&end_timestamp=${at(day, 86399)}`;
    expect(total(await f.root.get(`/api/log/?${range}`))).toBe(5);
    expect(total(await f.root.get(`/api/log/?${range}&log_type=2`))).toBe(3);
    expect(total(await f.root.get(`/api/log/?log_type=2&model_name=gpt-4o`))).toBe(3);
    expect(total(await f.root.get(`/api/log/?log_type=2&username=${bob.username}`))).toBe(1);
    expect(total(await f.root.get(`/api/log/?token_name=other`))).toBe(1);
    expect(total(await f.root.get(`/api/log/?channel_id=${channelId}`))).toBe(3);
    expect(total(await f.root.get(`/api/log/?source_ip=10.0.0.2`))).toBe(1);
    expect(total(await f.root.get(`/api/log/?end_timestamp=${at(day, 10)}`))).toBe(3); // end is inclusive
    const rows = (await f.root.get(`/api/log/?log_type=2&order=quota`)).body.data.data;
    expect(rows.map((r: { quota: number }) => r.quota)).toEqual([7, 50, 100, 1000]);
    expect(rows[2]).toMatchObject({ channel: { id: channelId, name: 'logged-channel' }, username: alice.username });
    expect(rows[2].id).toBeGreaterThan(0);
    expect(rows[0].channel).toBeNull(); // channel 999 does not exist
    expect((await f.root.get('/api/log/?order=-content')).status).toBe(400);
    expect((await f.root.get('/api/log/?size=101')).status).toBe(400);
    expect((await f.root.get('/api/log/?log_type=abc')).status).toBe(400);
  });

  it('shows users their own rows only, without ids or channel objects, ignoring admin-only filters', async () => {
    const own = await alice.client.get(`/api/log/self?log_type=2&username=${bob.username}&channel_id=999&order=created_at`);
    expect(total(own)).toBe(3);
    expect(own.body.data.data.map((r: { quota: number }) => r.quota)).toEqual([100, 50, 1000]);
    for (const r of own.body.data.data) expect(r).toMatchObject({ id: 0, channel: null, channel_id: channelId, user_id: alice.id });
    expect(own.body.data.data[2].is_stream).toBe(true);
    expect(total(await bob.client.get('/api/log/self'))).toBe(1);
    expect((await alice.client.get('/api/log/')).status).toBe(403);
  });

  it("keys a user's rows by an opaque key: distinct, stable, and not the hidden id", async () => {
    const keys = async () => (await alice.client.get('/api/log/self?order=created_at')).body.data.data.map((r: { key: string }) => r.key);
    const first = await keys();
    expect(first).toHaveLength(5);
    expect(new Set(first).size).toBe(5);
    expect(await keys()).toEqual(first);
    const ids = (await f.root.get(`/api/log/?username=${alice.username}&order=created_at`)).body.data.data.map((r: { id: number; key: string }) => {
      expect(r.key).toBe(String(r.id)); // administrators see ids anyway
      return String(r.id);
    });
    for (const key of first) {
      expect(key).toMatch(/^[\w-]{16}$/);
      expect(ids).not.toContain(key);
    }
    expect((await alice.client.get('/api/log/stat')).status).toBe(403);
    expect((await alice.client.delete(`/api/log/?target_timestamp=${at(day)}`)).status).toBe(403);
  });

  it('sums consumption quota under the filters', async () => {
    expect((await f.root.get('/api/log/stat')).body.data).toEqual({ quota: 1157 });
    expect((await f.root.get(`/api/log/stat?username=${alice.username}&model_name=gpt-4o`)).body.data.quota).toBe(1100);
    expect((await f.root.get(`/api/log/stat?channel=${channelId}&end_timestamp=${at(day, 86399)}`)).body.data.quota).toBe(150);
    expect((await alice.client.get('/api/log/self/stat')).body.data.quota).toBe(1150);
    expect((await alice.client.get(`/api/log/self/stat?token_name=other`)).body.data.quota).toBe(50);
    expect((await bob.client.get(`/api/log/self/stat?username=${alice.username}`)).body.data.quota).toBe(7);
  });

  it('deletes only consumption rows older than the target', async () => {
    expect((await f.root.delete('/api/log/')).body).toMatchObject({ success: false, message: expect.stringContaining('target timestamp is required') });
    const deleted = await f.root.delete(`/api/log/?target_timestamp=${at('2024-02-11')}`);
    expect(deleted.body).toMatchObject({ success: true, data: 3 });
    expect(total(await f.root.get('/api/log/'))).toBeGreaterThanOrEqual(3);
    expect(total(await f.root.get('/api/log/?log_type=2'))).toBe(1);
    expect(total(await f.root.get(`/api/log/?log_type=3&username=${alice.username}`))).toBe(1);
  });

  it('answers the dashboard with seven days, missing days as zero rows, own usage only', async () => {
    await f.addStatistics([
      { date: today(), user_id: alice.id, model_name: 'gpt-4o', request_count: 3, quota: 30, prompt_tokens: 5, completion_tokens: 6, request_time: 700 },
      { date: today(), user_id: alice.id, channel_id: 2, model_name: 'gpt-4o', request_count: 1, quota: 10 },
      { date: daysAgo(2), user_id: alice.id, model_name: 'claude', request_count: 2, quota: 20 },
      { date: daysAgo(2), user_id: bob.id, model_name: 'secret-model', request_count: 9, quota: 90 },
      { date: daysAgo(9), user_id: alice.id, model_name: 'too-old', request_count: 1 },
    ]);
    const rows = (await alice.client.get('/api/user/dashboard')).body.data as Array<Record<string, unknown>>;
    const days = [...new Set(rows.map((r) => r.Date))];
    expect(days).toEqual([6, 5, 4, 3, 2, 1, 0].map(daysAgo));
    expect(rows).toHaveLength(7);
    expect(rows.find((r) => r.Date === today())).toEqual({ Date: today(), ModelName: 'gpt-4o', RequestCount: 4, Quota: 40, PromptTokens: 5, CompletionTokens: 6, RequestTime: 700 });
    expect(rows.find((r) => r.Date === daysAgo(2))).toMatchObject({ ModelName: 'claude', RequestCount: 2 });
    expect(rows.find((r) => r.Date === daysAgo(1))).toEqual({ Date: daysAgo(1), ModelName: '', RequestCount: 0, Quota: 0, PromptTokens: 0, CompletionTokens: 0, RequestTime: 0 });
    expect(JSON.stringify(rows)).not.toContain('secret-model');
    expect((await new ApiClient(f.server.app).get('/api/user/dashboard')).status).toBe(401);
  });

  it('answers the per-minute rate without failing for a user whose group is gone', async () => {
    const rate = (await alice.client.get('/api/user/dashboard/rate')).body.data;
    expect(rate).toEqual({ rpm: 0, maxRPM: 600, usageRpmRate: 0, tpm: 0, maxTPM: 0, usageTpmRate: 0 });
    await f.server.ctx.db.updateTable('users').set({ group: 'vanished' }).where('id', '=', bob.id).execute();
    const res = await bob.client.get('/api/user/dashboard/rate');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ maxRPM: 0, usageRpmRate: 0 });
  });

  it('serves admin analytics totals and per-day series', async () => {
    const totals = (await f.root.get('/api/analytics/statistics')).body.data;
    expect(totals.user_statistics.total_user).toBe(3);
    expect(totals.channel_statistics).toEqual([{ status: 1, total_channels: 1 }]);
    expect(totals.redemption_statistic).toEqual([]);
    const from = Math.floor(Date.now() / 1000) - 3 * 86400;
    const to = Math.floor(Date.now() / 1000);
    const byModel = (await f.root.get(`/api/analytics/period?start_timestamp=${from}&end_timestamp=${to}&group_type=model`)).body.data;
    expect(byModel.channel_statistics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Date: today(), Channel: 'gpt-4o', RequestCount: 4, Quota: 40 }),
        expect.objectContaining({ Date: daysAgo(2), Channel: 'secret-model', RequestCount: 9 }),
      ]),
    );
    expect(byModel.user_statistics.reduce((n: number, d: { user_count: number }) => n + d.user_count, 0)).toBe(3);
    expect(byModel).toMatchObject({ redemption_statistics: [], order_statistics: [] });
    const onlyBob = (await f.root.get(`/api/analytics/period?start_timestamp=${from}&end_timestamp=${to}&group_type=model&user_id=${bob.id}`)).body.data;
    expect(onlyBob.channel_statistics.map((s: { Channel: string }) => s.Channel)).toEqual(['secret-model']);
    const byChannel = (await f.root.get(`/api/analytics/period?start_timestamp=${from}&end_timestamp=${to}`)).body.data;
    expect(byChannel.channel_statistics.find((s: { Date: string; Channel: string }) => s.Date === today() && s.Channel === '#0')).toMatchObject({ RequestCount: 3 });
    expect((await f.root.get(`/api/analytics/period?start_timestamp=${to}&end_timestamp=${from}`)).status).toBe(400);
    expect((await f.root.get(`/api/analytics/period?start_timestamp=1&end_timestamp=2&group_type=planet`)).status).toBe(400);
    expect((await alice.client.get('/api/analytics/statistics')).status).toBe(403);
  });

  it('sums every analytics grouping to the same totals, models without an owner as "other"', async () => {
    const from = Math.floor(Date.now() / 1000) - 3 * 86400;
    const to = Math.floor(Date.now() / 1000);
    const series = async (group: string) =>
      (await f.root.get(`/api/analytics/period?start_timestamp=${from}&end_timestamp=${to}&group_type=${group}`)).body.data.channel_statistics as Array<{ Channel: string; RequestCount: number; Quota: number }>;
    const sum = (rows: Array<{ RequestCount: number; Quota: number }>) => rows.reduce((a, r) => [a[0] + r.RequestCount, a[1] + r.Quota], [0, 0]);
    const byType = await series('model_type');
    expect(sum(byType)).toEqual([15, 150]);
    expect(sum(await series('model'))).toEqual(sum(byType));
    expect(sum(await series('channel'))).toEqual(sum(byType));
    // secret-model has no price row, so no owner: it is counted under "other" (''), not dropped
    expect(byType.filter((r) => r.Channel === '').reduce((n, r) => n + r.RequestCount, 0)).toBeGreaterThanOrEqual(9);
    const dashboards = [alice, bob].map(async (u) => sum((await u.client.get('/api/user/dashboard')).body.data));
    const [a, b] = await Promise.all(dashboards);
    expect([a[0] + b[0], a[1] + b[1]]).toEqual(sum(byType));
  });

  it('compares several users over a day range, as JSON and CSV', async () => {
    const q = `usernames=${alice.username}, ${bob.username},nobody&start_time=${daysAgo(3)}&end_time=${today()}`;
    const res = (await f.root.get(`/api/analytics/multi_user_stats?${q}`)).body;
    expect(res.success).toBe(true);
    expect(res.data).toEqual([
      { username: alice.username, request_count: 6, quota: 60, prompt_tokens: 5, completion_tokens: 6, request_time: 700 },
      { username: bob.username, request_count: 9, quota: 90, prompt_tokens: 0, completion_tokens: 0, request_time: 0 },
    ].sort((a, b) => a.username.localeCompare(b.username)));
    expect(res.model_usage.filter((m: { username: string }) => m.username === alice.username)).toEqual([
      { username: alice.username, model_name: 'gpt-4o', request_count: 4 },
      { username: alice.username, model_name: 'claude', request_count: 2 },
    ]);
    const csv = await f.root.get(`/api/analytics/multi_user_stats/export?${q}`);
    expect(csv.raw.headers['content-type']).toContain('text/csv');
    expect(csv.raw.headers['content-disposition']).toBe(`attachment; filename=multi_user_stats_${daysAgo(3)}_${today()}.csv`);
    expect(csv.raw.body.split('\r\n')[0]).toBe('Username,Request Count,Quota,Prompt Tokens,Completion Tokens,Request Time (ms)');
    expect(csv.raw.body).toContain(`${alice.username},6,60,5,6,700`);
    expect((await f.root.get(`/api/analytics/multi_user_stats?usernames=a&start_time=2024-13-45&end_time=2024-01-01`)).body.message).toContain('start_time');
    expect((await f.root.get(`/api/analytics/multi_user_stats?start_time=2024-01-01&end_time=2024-01-02`)).status).toBe(400);
  });
});
