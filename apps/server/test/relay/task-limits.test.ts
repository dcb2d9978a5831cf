import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeMidjourney } from '../fakes/midjourney.js';
import { FakeSuno } from '../fakes/suno.js';
import { addPrices, balances } from './task-fixture.js';
import { relayState } from '../../src/relay/state.js';

// Mid-minute and mid-day (UTC), so each window's edge is exactly 30 s or 12 h away.
const T = Date.UTC(2026, 5, 10, 12, 0, 30);
const limited = (rules: Record<string, number>) => ({ setting: { limits: { request_limits: rules } } });

describe.each(testDialects())('task submissions under request limits and backup groups on %s', (dialect) => {
  let f: RelayFixture;
  let mj: FakeMidjourney;
  let suno: FakeSuno;
  let mjChannel: number;
  let spareSuno: number;

  const sunoCall = (key: string, path: string, payload: object) => f.server.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${key}` }, payload });
  const mjCall = (key: string, path: string, payload: object) => f.server.app.inject({ method: 'POST', url: path, headers: { 'mj-api-secret': key }, payload });

  beforeAll(async () => {
    mj = new FakeMidjourney();
    suno = new FakeSuno();
    await Promise.all([mj.start(), suno.start()]);
    f = await relayFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    relayState(f.server.ctx).limits.now = () => T;
    // A public group at twice the price, holding the only Midjourney channel and one Suno model.
    expect((await f.root.post('/api/user_group/', { symbol: 'spare', name: 'spare lane', ratio: 2, public: true, api_rate: 600 })).body.success).toBe(true);
    mj.behave('mj-spare', {});
    suno.behave('suno-main', {});
    suno.behave('suno-spare', {});
    mjChannel = await f.addChannel({ type: 34, key: 'mj-spare', base_url: mj.url, models: 'mj_imagine', group: 'spare' });
    await f.addChannel({ type: 41, key: 'suno-main', base_url: suno.url, models: 'suno_lyrics,chirp-v3-0' });
    spareSuno = await f.addChannel({ type: 41, key: 'suno-spare', base_url: suno.url, models: 'chirp-v3-5', group: 'spare' });
    await addPrices(f, { mj_imagine: 2.5, suno_lyrics: 0.1, 'chirp-v3-0': 0.5, 'chirp-v3-5': 0.5 });
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([mj?.close(), suno?.close()]);
  });

  it('refuses a Suno submission past the token RPM with a 429 in the Suno shape and Retry-After, before any upstream call', async () => {
    const { key } = await f.newUser({ quota: 100_000, token: limited({ rpm: 2 }) });
    for (let i = 0; i < 2; i++) expect((await sunoCall(key, '/suno/submit/lyrics', { prompt: `words ${i}` })).statusCode).toBe(200);
    const calls = suno.forKey('suno-main').length;
    const refused = await sunoCall(key, '/suno/submit/lyrics', { prompt: 'one too many' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json()).toMatchObject({ code: 'rpm_limit_exceeded', data: null, message: expect.stringContaining('token limit reached: 2 requests per minute (RPM)') });
    expect(suno.forKey('suno-main').length).toBe(calls);
    // Kling and video submissions share the path; reads are not counted.
    expect((await f.server.app.inject({ method: 'POST', url: '/suno/fetch', headers: { authorization: `Bearer ${key}` }, payload: { ids: [] } })).statusCode).toBe(200);
  });

  it('refuses a Midjourney submission once the user\'s daily spending cap is reached, in Midjourney-Proxy shape with Retry-After', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000, token: { backup_group: 'spare' } });
    expect((await f.root.put(`/api/limits/user/${userId}`, { daily_quota: 1 })).body.success).toBe(true);
    expect((await mjCall(key, '/mj/submit/imagine', { prompt: 'first' })).json()).toMatchObject({ code: 1 });
    await expect.poll(async () => (await mjCall(key, '/mj/submit/imagine', { prompt: 'again' })).statusCode).toBe(429);
    const refused = await mjCall(key, '/mj/submit/imagine', { prompt: 'again' });
    expect(refused.headers['retry-after']).toBe(String(12 * 3600 - 30));
    expect(refused.json()).toMatchObject({ type: 'one_hub_error', description: expect.stringContaining('user limit reached: daily spending cap 1') });
    expect(mj.forKey('mj-spare').filter((r) => r.path === '/mj/submit/imagine')).toHaveLength(1);
  });

  it('routes a task to the token\'s backup group when its group has no channel, at the backup group\'s ratio', async () => {
    const { key, userId, tokenId } = await f.newUser({ quota: 100_000, token: { group: 'default', backup_group: 'spare' } });
    const imagine = await mjCall(key, '/mj/submit/imagine', { prompt: 'via backup' });
    expect(imagine.json()).toMatchObject({ code: 1 });
    const row = await f.server.ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', imagine.json().result).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ channel_id: mjChannel, quota: 5_000 });
    const music = await sunoCall(key, '/suno/submit/music', { prompt: 'a song', mv: 'chirp-v3-5' });
    expect(music.json()).toMatchObject({ code: 'success' });
    expect(suno.received.at(-1)!.key).toBe('suno-spare');
    const task = await f.server.ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', music.json().data).executeTakeFirstOrThrow();
    expect(task).toMatchObject({ channel_id: spareSuno, quota: 1_000 });
    // The group's own channel is preferred while it has one; the group ratio stays 1 there.
    expect((await sunoCall(key, '/suno/submit/lyrics', { prompt: 'home' })).json()).toMatchObject({ code: 'success' });
    expect(suno.received.at(-1)!.key).toBe('suno-main');
    expect(await balances(f, userId, tokenId)).toMatchObject({ quota: 100_000 - 5_000 - 1_000 - 100 });
    const consume = await f.server.ctx.db.selectFrom('logs').select(['model_name', 'quota']).where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
    expect(consume.map((l) => [l.model_name, l.quota])).toEqual([['mj_imagine', 5_000], ['chirp-v3-5', 1_000], ['suno_lyrics', 100]]);

    // Without a backup group the task is refused with the group named; with one that has no channel either, the backup is named.
    const plain = await f.newUser({ quota: 100_000 });
    const none = await mjCall(plain.key, '/mj/submit/imagine', { prompt: 'nowhere' });
    expect(none.statusCode).toBe(503);
    expect(none.json().description).toContain('当前分组 default 下对于模型 mj_imagine 无可用渠道');
    await f.root.post('/api/user_group/', { symbol: 'empty', name: 'empty lane', ratio: 1, public: true });
    const other = await f.newUser({ quota: 100_000, token: { group: 'default', backup_group: 'empty' } });
    expect((await sunoCall(other.key, '/suno/submit/music', { prompt: 'x', mv: 'chirp-v3-5' })).json().message).toContain('当前分组 empty 下对于模型 chirp-v3-5 无可用渠道');
  });
});
