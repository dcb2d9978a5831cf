import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

describe.each(testDialects())('logs and dashboard on %s', (dialect) => {
  let f: RelayFixture;
  let user: { userId: number; key: string; client: ApiClient };
  let channelId: number;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    channelId = await f.addChannel({ key: 'log-key', models: 'test-model,other-model' });
    user = await f.newUser({ quota: 10_000_000 });
    for (const model of ['test-model', 'test-model', 'other-model']) {
      await f.openai(user.key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    }
    await f.flush();
  });
  afterAll(async () => f?.close());

  it('shows a user their own consumption rows without ids or channel details', async () => {
    const res = await user.client.get('/api/log/self?log_type=2&order=-created_at');
    expect(res.body.data.total_count).toBe(3);
    const row = res.body.data.data[0];
    expect(row).toMatchObject({ id: 0, channel: null, channel_id: channelId, type: 2, is_stream: false });
    const filtered = await user.client.get('/api/log/self?model_name=other-model');
    expect(filtered.body.data.total_count).toBe(1);
    const stat = await user.client.get('/api/log/self/stat');
    expect(stat.body.data.quota).toBeGreaterThan(0);
  });

  it('shows admins every row with the channel name, and deletes old consumption rows only', async () => {
    const res = await f.root.get(`/api/log/?username=${encodeURIComponent((await user.client.get('/api/user/self')).body.data.username)}&log_type=2`);
    expect(res.body.data.total_count).toBe(3);
    expect(res.body.data.data[0].channel).toMatchObject({ id: channelId });
    expect((await user.client.get('/api/log/')).status).toBe(403);
    expect((await f.root.delete('/api/log/')).status).toBe(400);
    const deleted = await f.root.delete(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) + 10}`);
    expect(deleted.body.data).toBeGreaterThanOrEqual(3);
    const left = await f.root.get('/api/log/?log_type=3');
    expect(left.body.data.total_count).toBeGreaterThan(0); // manage rows survive
  });

  it('serves admin analytics: totals and per-day series by channel or model', async () => {
    const totals = (await f.root.get('/api/analytics/statistics')).body.data;
    expect(totals.user_statistics.total_user).toBeGreaterThanOrEqual(2);
    expect(totals.channel_statistics).toContainEqual({ status: 1, total_channels: 1 });
    const now = Math.floor(Date.now() / 1000);
    const byModel = (await f.root.get(`/api/analytics/period?start_timestamp=${now - 86400}&end_timestamp=${now}&group_type=model`)).body.data;
    expect(byModel.channel_statistics.find((s: { Channel: string }) => s.Channel === 'test-model')).toMatchObject({ RequestCount: 2 });
    expect(byModel.user_statistics.reduce((n: number, d: { user_count: number }) => n + d.user_count, 0)).toBeGreaterThanOrEqual(1);
    expect((await user.client.get('/api/analytics/statistics')).status).toBe(403);
    expect((await f.root.get('/api/analytics/period?start_timestamp=10&end_timestamp=5')).status).toBe(400);
  });

  it('serves the dashboard from the daily roll-up', async () => {
    const res = await user.client.get('/api/user/dashboard');
    const rows = res.body.data as Array<{ Date: string; ModelName: string; RequestCount: number; Quota: number }>;
    const today = new Date().toISOString().slice(0, 10);
    expect(rows.find((r) => r.ModelName === 'test-model')).toMatchObject({ Date: today, RequestCount: 2 });
    expect(rows.find((r) => r.ModelName === 'other-model')).toMatchObject({ RequestCount: 1 });
  });
});
