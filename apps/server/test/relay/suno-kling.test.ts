import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeSuno } from '../fakes/suno.js';
import { FakeKling } from '../fakes/kling.js';
import { addPrices, balances, logsLike, pollers, readStreamedWhileHeld, until } from './task-fixture.js';
import { taskPollers } from '../../src/relay/tasks/registry.js';
import { relayState } from '../../src/relay/state.js';
import { findChannelById } from '../../src/db/repos/channels.js';
import { signLink } from '../../src/relay/tasks/facts.js';

type User = Awaited<ReturnType<RelayFixture['newUser']>>;

describe.each(testDialects())('Suno and Kling tasks on %s', (dialect) => {
  let f: RelayFixture;
  let suno: FakeSuno;
  let kling: FakeKling;
  let sunoA: number;
  let alice: User;
  let bob: User;
  let musicId = '';
  let restarted: TestServer | undefined;

  const call = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    f.server.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    suno = new FakeSuno();
    kling = new FakeKling();
    await Promise.all([suno.start(), kling.start()]);
    f = await relayFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000', KLING_BASE_URL: kling.url });
    suno.behave('suno-a', {});
    sunoA = await f.addChannel({ type: 41, key: 'suno-a', base_url: suno.url, models: 'chirp-v3-0,chirp-v3-5,suno_lyrics' });
    kling.account('ak-1', 'sk-1');
    await f.addChannel({ type: 53, key: 'ak-1|sk-1', base_url: '', models: 'kling-video_kling-v1_std_5,kling-video_kling-v1_pro_10' });
    await addPrices(f, { 'chirp-v3-0': 0.5, 'chirp-v3-5': 0.5, suno_lyrics: 0.1, 'kling-video_kling-v1_std_5': 2, 'kling-video_kling-v1_pro_10': 8 });
    alice = await f.newUser({ quota: 100_000, token: { unlimited_quota: false, remain_quota: 50_000 } });
    bob = await f.newUser({ quota: 100_000 });
  });
  afterAll(async () => {
    if (restarted) {
      await restarted.destroy();
      await f.fake.close();
    } else await f?.close();
    await Promise.all([suno?.close(), kling?.close()]);
  });

  it('submits Suno music, polls it to SUCCESS and answers only its owner, without upstream user ids', async () => {
    const res = await call(alice.key, 'POST', '/suno/submit/music', { prompt: 'a song', tags: 'pop' });
    expect(res.json()).toMatchObject({ code: 'success', data: expect.stringMatching(/^suno-/) });
    const id = res.json().data;
    musicId = id;
    expect(suno.received.at(-1)!.body).toMatchObject({ mv: 'chirp-v3-0', prompt: 'a song' });
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: 99_500, tokenRemain: 49_500 });
    expect(await pollers(f).suno.runNow()).toMatchObject({ tasks: 1, upstreamCalls: 1, pending: 1 });
    expect((await call(alice.key, 'GET', `/suno/fetch/${id}`)).json().data).toMatchObject({ status: 'IN_PROGRESS', progress: '40%' });
    await pollers(f).suno.runNow();
    const done = (await call(alice.key, 'GET', `/suno/fetch/${id}`)).json();
    expect(done).toMatchObject({ code: 'success', data: { task_id: id, action: 'MUSIC', status: 'SUCCESS', progress: '100%' } });
    expect(JSON.stringify(done)).not.toContain('user_id');
    expect(done.data.data[0].audio_url).toMatch(/\/task\/result\/\d+\/0\?expires=\d+&sig=/);
    expect((await call(bob.key, 'GET', `/suno/fetch/${id}`)).statusCode).toBe(404);
    expect((await call(bob.key, 'POST', '/suno/fetch', { ids: [id] })).json()).toEqual({ code: 'success', message: '', data: [] });
    expect((await call(alice.key, 'POST', '/suno/fetch', { ids: [id] })).json().data).toHaveLength(1);
    expect((await call(alice.key, 'POST', '/suno/fetch', { ids: Array.from({ length: 101 }, (_, i) => `x${i}`) })).statusCode).toBe(400);

    // A continuation names the caller's own earlier task and stays on its channel.
    suno.behave('suno-b', {});
    const other = await f.addChannel({ type: 41, key: 'suno-b', base_url: suno.url, models: 'chirp-v3-0', priority: 10 });
    expect((await call(alice.key, 'POST', '/suno/submit/music', { prompt: 'more', continue_clip_id: `clip-${id}` })).statusCode).toBe(400);
    expect((await call(bob.key, 'POST', '/suno/submit/music', { prompt: 'more', continue_clip_id: `clip-${id}`, task_id: id })).statusCode).toBe(400);
    const cont = await call(alice.key, 'POST', '/suno/submit/music', { prompt: 'more', continue_clip_id: `clip-${id}`, task_id: id });
    expect(cont.json().code).toBe('success');
    expect(suno.received.at(-1)!.key).toBe('suno-a');
    await f.root.delete(`/api/channel/${other}`);
    await relayState(f.server.ctx).selector.reload();
    await pollers(f).suno.runNow();
    await pollers(f).suno.runNow();
  });

  it('serves Suno result files only through the gateway: by signed link, to the owner, and in the console', async () => {
    const done = (await call(alice.key, 'GET', `/suno/fetch/${musicId}`)).json();
    const listed = (await call(alice.key, 'POST', '/suno/fetch', { ids: [musicId] })).json();
    for (const answer of [done, listed]) expect(JSON.stringify(answer)).not.toContain(new URL(suno.url).host);
    const audio = new URL(done.data.data[0].audio_url);
    const cover = new URL(done.data.data[0].image_url);
    expect(cover.pathname).toBe(audio.pathname.replace(/0$/, '1'));
    const get = (url: string, headers: Record<string, string> = {}) => f.server.app.inject({ method: 'GET', url, headers });
    const served = await get(audio.pathname + audio.search);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('audio/mpeg');
    expect(served.body).toBe(`AUDIO-${musicId}`);
    expect((await get(cover.pathname + cover.search)).body).toBe(`IMAGES-${musicId}`);
    // A forged, moved or expired link is refused; so is anyone's token but the owner's.
    const sig = audio.searchParams.get('sig')!;
    const expires = Number(audio.searchParams.get('expires'));
    expect((await get(`${audio.pathname}?expires=${expires}&sig=${sig.slice(1)}x`)).statusCode).toBe(403);
    expect((await get(`${cover.pathname}?expires=${expires}&sig=${sig}`)).statusCode).toBe(403);
    expect((await get(`${audio.pathname}?expires=${expires + 1}&sig=${sig}`)).statusCode).toBe(403);
    const channel = (await findChannelById(f.server.ctx.db, sunoA))!;
    const rowId = Number(audio.pathname.split('/')[3]);
    const past = Math.floor(Date.now() / 1000) - 1;
    expect((await get(`${audio.pathname}?expires=${past}&sig=${signLink(channel, `task:${rowId}:0`, past)}`)).statusCode).toBe(403);
    expect((await get(audio.pathname, { authorization: `Bearer ${alice.key}` })).body).toBe(`AUDIO-${musicId}`);
    expect((await get(audio.pathname, { authorization: `Bearer ${bob.key}` })).statusCode).toBe(404);
    expect((await get(audio.pathname)).statusCode).toBe(401);

    // The console lists the same result under its own path, streamed to the owner (and admins) only.
    const mine = (await alice.client.get('/api/task/self?platform=suno')).body.data.data.find((t: { task_id: string }) => t.task_id === musicId);
    expect(mine.data[0].audio_url).toBe(`/api/task/${rowId}/result/0`);
    expect(JSON.stringify(mine)).not.toContain(new URL(suno.url).host);
    expect((await alice.client.get(`/api/task/${rowId}/result/0`)).raw.body).toBe(`AUDIO-${musicId}`);
    expect((await bob.client.get(`/api/task/${rowId}/result/0`)).status).toBe(404);
    expect((await f.root.get(`/api/task/${rowId}/result/1`)).raw.body).toBe(`IMAGES-${musicId}`);
    expect((await alice.client.get(`/api/task/${rowId}/result/9`)).status).toBe(404);
    expect((await alice.client.get(`/api/task/${rowId}/result/first`)).status).toBe(400);
    expect((await get(`/task/result/x/0?expires=${expires}&sig=${sig}`)).statusCode).toBe(400);
  });

  it('refuses a bad request before holding anything and refunds a failed task once to user and token', async () => {
    const before = await balances(f, alice.userId, alice.tokenId);
    expect((await call(alice.key, 'POST', '/suno/submit/lyrics', {})).statusCode).toBe(400);
    expect((await call(alice.key, 'POST', '/suno/submit/video', { prompt: 'x' })).statusCode).toBe(404);
    suno.behave('suno-a', { failWith: 'content policy' });
    const id = (await call(alice.key, 'POST', '/suno/submit/lyrics', { prompt: 'words' })).json().data;
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: before.quota - 100, tokenRemain: before.tokenRemain - 100 });
    await pollers(f).suno.runNow();
    await pollers(f).suno.runNow();
    await pollers(f).suno.runNow();
    expect((await call(alice.key, 'GET', `/suno/fetch/${id}`)).json().data).toMatchObject({ status: 'FAILURE', fail_reason: 'content policy', progress: '100%' });
    expect(await balances(f, alice.userId, alice.tokenId)).toEqual(before);
    expect((await logsLike(f, alice.userId, '异步任务执行失败%')).map((l) => l.quota)).toEqual([100]);
    suno.behave('suno-a', {});
  });

  it('retries another channel after an upstream 500 and returns that answer, charged once', async () => {
    suno.behave('suno-broken', { refuse: 500 });
    await f.root.put('/api/channel/', { id: sunoA, priority: 0 });
    const broken = await f.addChannel({ type: 41, key: 'suno-broken', base_url: suno.url, models: 'suno_lyrics', priority: 5 });
    await f.setOption('RetryTimes', 1);
    const carl = await f.newUser({ quota: 10_000 });
    const res = await call(carl.key, 'POST', '/suno/submit/lyrics', { prompt: 'again' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'success', data: expect.stringMatching(/^suno-/) });
    expect(suno.received.slice(-2).map((r) => r.key)).toEqual(['suno-broken', 'suno-a']);
    expect(await balances(f, carl.userId, carl.tokenId)).toMatchObject({ quota: 9_900, used: 100 });
    await f.setOption('RetryTimes', 0);
    const refused = await call(carl.key, 'POST', '/suno/submit/lyrics', { prompt: 'no retry' });
    // The upstream's 500 is told as the status class and a generic reason (egress/failure.ts).
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({ code: 'upstream_error', message: expect.stringMatching(/^upstream error \(request id: \w+\)$/), data: null });
    expect(await balances(f, carl.userId, carl.tokenId)).toMatchObject({ quota: 9_900 });
    await f.root.delete(`/api/channel/${broken}`);
    await relayState(f.server.ctx).selector.reload();
  });

  it('submits Kling videos with a JWT from accessKey|secretKey, prices by model, mode and duration, and refunds failures', async () => {
    const res = await call(alice.key, 'POST', '/kling/v1/videos/text2video', { prompt: 'a wave', callback_url: 'http://attacker.example' });
    expect(res.json()).toMatchObject({ code: 0, data: { task_id: 'kl-1', task_status: 'submitted' } });
    expect(kling.received.at(-1)!.body).toEqual({ prompt: 'a wave', model_name: 'kling-v1', mode: 'std', duration: '5' });
    const before = await balances(f, bob.userId, bob.tokenId);
    expect((await call(bob.key, 'POST', '/kling/v1/videos/text2video', { prompt: 'x', duration: 7 })).statusCode).toBe(400);
    expect((await call(bob.key, 'POST', '/kling/v1/images/generations', { prompt: 'x' })).statusCode).toBe(400);
    const pro = await call(bob.key, 'POST', '/kling/v1/videos/image2video', { image: 'https://img.example/a.png', mode: 'pro', duration: '10' });
    expect(pro.json().data.task_id).toBe('kl-2');
    expect(await balances(f, bob.userId, bob.tokenId)).toMatchObject({ quota: before.quota - 8_000 });
    const round = await pollers(f).kling.runNow();
    expect(round).toMatchObject({ tasks: 2, upstreamCalls: 2, pending: 2 });
    await pollers(f).kling.runNow();
    const done = (await call(alice.key, 'GET', '/kling/v1/videos/text2video/kl-1')).json();
    expect(done).toMatchObject({ code: 0, data: { task_id: 'kl-1', task_status: 'succeed', task_result: { videos: [{ duration: '5' }] } } });
    expect((await call(bob.key, 'GET', '/kling/v1/videos/text2video/kl-1')).statusCode).toBe(404);
    expect((await call(alice.key, 'GET', '/kling/v1/videos/image2video/kl-1')).statusCode).toBe(404);
    const row = await f.server.ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', 'kl-1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ platform: 'kling', status: 'SUCCESS', progress: 100, quota: 2_000 });

    kling.account('ak-2', 'sk-2', { failWith: 'risk control' });
    await f.root.put('/api/channel/', { id: row.channel_id, status: 2 });
    const failing = await f.addChannel({ type: 53, key: 'ak-2|sk-2', base_url: kling.url, models: 'kling-video_kling-v1_std_5' });
    const dan = await f.newUser({ quota: 10_000 });
    const id = (await call(dan.key, 'POST', '/kling/v1/videos/text2video', { prompt: 'bad' })).json().data.task_id;
    await pollers(f).kling.runNow();
    await pollers(f).kling.runNow();
    await pollers(f).kling.runNow();
    expect((await call(dan.key, 'GET', `/kling/v1/videos/text2video/${id}`)).json().data).toMatchObject({ task_status: 'failed', task_status_msg: 'risk control' });
    expect(await balances(f, dan.userId, dan.tokenId)).toMatchObject({ quota: 10_000, used: 0 });

    // A wrong secret is refused by Kling: nothing is charged and the caller sees an outage, not a statement about their key.
    await f.root.put('/api/channel/', { id: failing, key: 'ak-2|wrong' });
    await relayState(f.server.ctx).selector.reload();
    const refused = await call(dan.key, 'POST', '/kling/v1/videos/text2video', { prompt: 'x' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'upstream_unavailable', message: expect.stringMatching(/\(request id: \w+\)$/), data: null });
    expect(await balances(f, dan.userId, dan.tokenId)).toMatchObject({ quota: 10_000 });
  });
  it('streams a Kling video through its signed link as upstream sends it, passes Range on, and hides the upstream host', async () => {
    const answer = (await call(alice.key, 'GET', '/kling/v1/videos/text2video/kl-1')).json();
    expect(JSON.stringify(answer)).not.toContain(new URL(kling.url).host);
    const link = new URL(answer.data.task_result.videos[0].url);
    expect(link.pathname).toMatch(/^\/task\/result\/\d+\/0$/);
    const { res, tail } = await readStreamedWhileHeld(kling, () => fetch(`${f.url}${link.pathname}${link.search}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(tail).toBe('END-kl-1');
    const part = await fetch(`${f.url}${link.pathname}${link.search}`, { headers: { range: 'bytes=65536-65540' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 65536-65540/${64 * 1024 + 8}`);
    expect(await part.text()).toBe('END-k');
    expect((await fetch(`${f.url}${link.pathname}`, { headers: { authorization: `Bearer ${bob.key}` } })).status).toBe(404);
  });
  it('serves 20 concurrent Suno submissions on a token worth 3 at most 3 times, and charges exactly those', async () => {
    const fay = await f.newUser({ quota: 100_000, token: { unlimited_quota: false, remain_quota: 300 } });
    const before = suno.forKey('suno-a').length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(fay.key, 'POST', '/suno/submit/lyrics', { prompt: `burst ${i}` })));
    const served = answers.filter((a) => a.statusCode === 200).length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(3);
    expect(answers.filter((a) => a.statusCode !== 200).every((a) => a.statusCode === 403)).toBe(true);
    expect(suno.forKey('suno-a').length - before).toBe(served);
    expect(await balances(f, fay.userId, fay.tokenId)).toMatchObject({ quota: 100_000 - served * 100, tokenRemain: 300 - served * 100 });
    const rows = await f.server.ctx.db.selectFrom('tasks').select('quota').where('user_id', '=', fay.userId).execute();
    expect(rows.map((r) => r.quota)).toEqual(Array(served).fill(100));
  });

  it('fails and refunds once a task upstream has not finished within TASK_TIMEOUT_SECONDS', async () => {
    const gus = await f.newUser({ quota: 10_000 });
    const id = (await call(gus.key, 'POST', '/suno/submit/lyrics', { prompt: 'slow' })).json().data;
    const db = f.server.ctx.db;
    await db.updateTable('tasks').set({ submit_time: Math.floor(Date.now() / 1000) - 3601 }).where('task_id', '=', id).execute();
    await pollers(f).suno.runNow();
    expect((await call(gus.key, 'GET', `/suno/fetch/${id}`)).json().data).toMatchObject({ status: 'FAILURE', fail_reason: '上游任务超时（超过 3600 秒）', progress: '100%' });
    await pollers(f).suno.runNow();
    expect(await balances(f, gus.userId, gus.tokenId)).toMatchObject({ quota: 10_000, used: 0 });
    expect((await logsLike(f, gus.userId, '异步任务执行失败%')).map((l) => l.quota)).toEqual([100]);
  });

  it('refunds once, after a restart, a task charged before it and failing upstream after it; finishes the others', async () => {
    suno.behave('suno-doomed', { failWith: 'lost in the restart' });
    await f.addChannel({ type: 41, key: 'suno-doomed', base_url: suno.url, models: 'suno_lyrics', priority: 90 });
    const erin = await f.newUser({ quota: 10_000, token: { unlimited_quota: false, remain_quota: 5_000 } });
    const doomed = (await call(erin.key, 'POST', '/suno/submit/lyrics', { prompt: 'doomed' })).json().data;
    const fine = (await call(erin.key, 'POST', '/suno/submit/music', { prompt: 'fine' })).json().data;
    expect(await balances(f, erin.userId, erin.tokenId)).toMatchObject({ quota: 10_000 - 100 - 500, tokenRemain: 5_000 - 100 - 500 });
    await f.server.close();
    restarted = await startTestServer(dialect, { reuse: f.server, env: { TASK_POLL_INTERVAL_MS: '50', KLING_BASE_URL: kling.url } });
    const poller = taskPollers(relayState(restarted.ctx)).suno;
    await until(async () => poller.rounds > 0 && poller.last.pending === 0, 'the rounds after restart');
    const db = restarted.ctx.db;
    const rows = await db.selectFrom('tasks').select(['task_id', 'status', 'progress']).where('task_id', 'in', [doomed, fine]).orderBy('id').execute();
    expect(rows).toEqual([
      { task_id: doomed, status: 'FAILURE', progress: 100 },
      { task_id: fine, status: 'SUCCESS', progress: 100 },
    ]);
    await relayState(restarted.ctx).recorder.flush();
    const user = await db.selectFrom('users').select(['quota']).where('id', '=', erin.userId).executeTakeFirstOrThrow();
    const token = await db.selectFrom('tokens').select(['remain_quota']).where('id', '=', erin.tokenId).executeTakeFirstOrThrow();
    expect([user.quota, token.remain_quota]).toEqual([10_000 - 500, 5_000 - 500]);
    const refunds = await db.selectFrom('logs').select('quota').where('user_id', '=', erin.userId).where('content', 'like', '异步任务执行失败%').execute();
    expect(refunds.map((l) => l.quota)).toEqual([100]);
    // Further rounds change nothing: the refund is not given twice.
    await poller.runNow();
    expect((await db.selectFrom('users').select('quota').where('id', '=', erin.userId).executeTakeFirstOrThrow()).quota).toBe(10_000 - 500);
  });
});
