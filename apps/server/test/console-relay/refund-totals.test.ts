import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { FakeSuno } from '../fakes/suno.js';
import { addPrices, balances, logsLike, pollers, until } from '../relay/task-fixture.js';

/** What one Suno submission costs (0.1 per call in the default group). */
const SONG = 100;
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Issue 38 point 5: a task billed and then refunded (it failed upstream) leaves every money sum
 * net of the refund — the user's dashboard, the admin's period charts and the per-user CSV —
 * agreeing with the balance counters ("Total user spending").
 */
describe.each(testDialects())('totals net of task refunds on %s', (dialect) => {
  let f: RelayFixture;
  let suno: FakeSuno;

  beforeAll(async () => {
    suno = new FakeSuno();
    await suno.start();
    f = await relayFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    suno.behave('suno-ok', {});
    suno.behave('suno-bad', { failWith: 'content policy' });
    await f.addChannel({ type: 41, key: 'suno-ok', base_url: suno.url, models: 'suno_lyrics' });
    await f.addChannel({ type: 41, key: 'suno-bad', base_url: suno.url, models: 'chirp-bad' });
    await addPrices(f, { suno_lyrics: 0.1, 'chirp-bad': 0.1 });
  });
  afterAll(async () => {
    await f?.close();
    await suno?.close();
  });

  it('sums the dashboard, the analytics period and the CSV export net of a refunded task', async () => {
    const { key, userId, tokenId, client } = await f.newUser({ quota: 100_000 });
    const submit = (url: string, payload: object) => f.server.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}` }, payload });
    expect((await submit('/suno/submit/lyrics', { prompt: 'words' })).json()).toMatchObject({ code: 'success' });
    expect((await submit('/suno/submit/music', { prompt: 'a song', mv: 'chirp-bad' })).json()).toMatchObject({ code: 'success' });
    await f.flush();
    const rows = () => f.server.ctx.db.selectFrom('tasks').select(['action', 'status', 'charge_stat']).where('user_id', '=', userId).orderBy('id').execute();
    expect((await rows()).map((r) => JSON.parse(r.charge_stat!))).toEqual([
      { date: today(), model_name: 'suno_lyrics' },
      { date: today(), model_name: 'chirp-bad' },
    ]);

    await until(async () => {
      await pollers(f).suno.runNow();
      return (await rows()).find((r) => r.action === 'MUSIC')?.status === 'FAILURE';
    }, 'the music task to fail');
    expect((await logsLike(f, userId, '异步任务执行失败%')).map((l) => l.quota)).toEqual([SONG]);
    expect(await balances(f, userId, tokenId)).toMatchObject({ quota: 100_000 - SONG, used: SONG });

    // The user's own dashboard: one SONG spent, the refunded model at 0 (its request still counted).
    const dash = (await client.get('/api/user/dashboard')).body.data as Array<{ ModelName: string; Quota: number; RequestCount: number }>;
    const spent = dash.filter((d) => d.ModelName);
    expect(spent.reduce((s, d) => s + d.Quota, 0)).toBe(SONG);
    expect(spent.find((d) => d.ModelName === 'chirp-bad')).toMatchObject({ Quota: 0, RequestCount: 1 });

    // The admin's period charts, over all users and for this user, by model and by channel.
    const day = Math.floor(Date.now() / 1000);
    for (const query of ['group_type=model', 'group_type=channel', `group_type=model&user_id=${userId}`]) {
      const period = (await f.root.get(`/api/analytics/period?start_timestamp=${day - 86_400}&end_timestamp=${day + 86_400}&${query}`)).body.data;
      const series = period.channel_statistics as Array<{ Quota: number }>;
      expect(series.reduce((s, r) => s + r.Quota, 0), query).toBe(SONG);
    }

    // The per-user statistics and their CSV export.
    const username = (await client.get('/api/user/self')).body.data.username as string;
    const q = `usernames=${username}&start_time=${today()}&end_time=${today()}`;
    const stats = (await f.root.get(`/api/analytics/multi_user_stats?${q}`)).body;
    expect(stats.data).toEqual([expect.objectContaining({ username, quota: SONG, request_count: 2 })]);
    const csv = (await f.root.get(`/api/analytics/multi_user_stats/export?${q}`)).raw;
    expect(csv.body.trim().split('\n')[1].split(',').slice(0, 3)).toEqual([username, '2', String(SONG)]);
  });
});
