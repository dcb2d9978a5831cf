import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeOpenAIVideos } from '../fakes/openai-videos.js';
import { addPrices, balances, logsLike, pollers, readStreamedWhileHeld } from './task-fixture.js';

type User = Awaited<ReturnType<RelayFixture['newUser']>>;

// The task rows and refunds these share are covered on every dialect by suno-kling.test.ts; SQLite keeps CI short.
describe.each(testDialects().slice(0, 1))('OpenAI videos on %s', (dialect) => {
  let f: RelayFixture;
  let fake: FakeOpenAIVideos;
  let alice: User;
  let bob: User;
  const round = () => pollers(f).videos.runNow();

  beforeAll(async () => {
    fake = new FakeOpenAIVideos();
    await fake.start();
    f = await relayFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    fake.behave('sk-video', {});
    fake.behave('azure-key', {});
    await f.addChannel({ type: 1, key: 'sk-video', base_url: fake.url, models: 'sora-2' });
    await f.addChannel({ type: 3, key: 'azure-key', base_url: fake.url, models: 'sora-2-pro', other: '2025-04-01-preview' });
    await addPrices(f, { 'sora-2': 0.1, 'sora-2-pro': 0.3, 'sora-2-pro_1792x1024': 0.5 });
    alice = await f.newUser({ quota: 100_000, token: { unlimited_quota: false, remain_quota: 50_000 } });
    bob = await f.newUser({ quota: 100_000 });
  });
  afterAll(async () => {
    await f?.close();
    await fake?.close();
  });

  it('creates a video from a multipart request with an input reference, charges per second and polls it to completion', async () => {
    const openai = f.openai(alice.key);
    const video = await openai.videos.create({ model: 'sora-2', prompt: 'a fox', seconds: '4', input_reference: await toFile(Buffer.from('REFERENCE-IMAGE'), 'ref.png', { type: 'image/png' }) });
    expect(video).toMatchObject({ id: 'video_1', object: 'video', status: 'queued', seconds: '4' });
    expect(fake.videos.get('video_1')!.reference).toBe('REFERENCE-IMAGE');
    expect(fake.received.at(-1)!.headers.authorization).toBe('Bearer sk-video');
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: 99_600, tokenRemain: 49_600 });
    expect(await round()).toMatchObject({ tasks: 1, upstreamCalls: 1, pending: 1 });
    expect(await openai.videos.retrieve('video_1')).toMatchObject({ status: 'in_progress', progress: 50 });
    await round();
    expect(await openai.videos.retrieve('video_1')).toMatchObject({ status: 'completed', progress: 100 });
    const page = await openai.videos.list();
    expect(page.data.map((v) => v.id)).toEqual(['video_1']);
    expect((await f.openai(bob.key).videos.list()).data).toEqual([]);
    for (const attempt of [
      () => f.openai(bob.key).videos.retrieve('video_1'),
      () => f.openai(bob.key).videos.downloadContent('video_1'),
      () => f.openai(bob.key).videos.delete('video_1'),
      () => f.openai(bob.key).videos.remix('video_1', { prompt: 'mine now' }),
    ]) {
      expect(await attempt().catch((e) => e.status)).toBe(404);
    }
  });

  it('streams the content as upstream sends it', async () => {
    const { res, tail } = await readStreamedWhileHeld(fake, () => fetch(`${f.url}/v1/videos/video_1/content`, { headers: { authorization: `Bearer ${alice.key}` } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(tail).toBe('END-video_1');
    // The console plays the same file from the server, to the owner and admins only.
    const row = await f.server.ctx.db.selectFrom('tasks').select('id').where('task_id', '=', 'video_1').executeTakeFirstOrThrow();
    const shown = await alice.client.get(`/api/task/${row.id}/content`);
    expect(shown.status).toBe(200);
    expect(shown.raw.headers['content-type']).toBe('video/mp4');
    expect(shown.raw.body.endsWith('END-video_1')).toBe(true);
    expect((await f.root.get(`/api/task/${row.id}/content`)).status).toBe(200);
    expect((await bob.client.get(`/api/task/${row.id}/content`)).status).toBe(404);
    const listed = (await alice.client.get('/api/task/self?platform=videos')).body.data.data;
    expect(JSON.stringify(listed)).not.toContain(new URL(fake.url).host);
  });

  it('sends Azure jobs to /openai/v1 with api-key, prices by model and size, remixes on the same channel and deletes', async () => {
    const created = await f.server.app.inject({ method: 'POST', url: '/v1/videos', headers: { authorization: `Bearer ${bob.key}` }, payload: { model: 'sora-2-pro', prompt: 'a wide shot', seconds: '12', size: '1792x1024' } });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    expect(fake.received.at(-1)).toMatchObject({ path: '/openai/v1/videos', key: 'azure-key' });
    expect(await balances(f, bob.userId, bob.tokenId)).toMatchObject({ quota: 100_000 - 6_000 });
    await round();
    await round();
    const remixed = await f.openai(bob.key).videos.remix(id, { prompt: 'at night' });
    expect(remixed).toMatchObject({ remixed_from_video_id: id, status: 'queued' });
    expect(fake.received.at(-1)).toMatchObject({ path: `/openai/v1/videos/${id}/remix`, key: 'azure-key' });
    expect(await balances(f, bob.userId, bob.tokenId)).toMatchObject({ quota: 100_000 - 12_000 });
    expect(await f.openai(bob.key).videos.delete(remixed.id)).toMatchObject({ deleted: true });
    expect(await round()).toMatchObject({ tasks: 0 });
    const refused = await f.server.app.inject({ method: 'POST', url: '/v1/videos', headers: { authorization: `Bearer ${bob.key}` }, payload: { model: 'sora-2', prompt: 'x', seconds: '5' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/^Invalid video request \(request id: \w+\)$/);
    expect(await balances(f, bob.userId, bob.tokenId)).toMatchObject({ quota: 100_000 - 12_000 });
    expect((await f.server.app.inject({ method: 'POST', url: '/v1/videos', headers: { authorization: `Bearer ${bob.key}` }, payload: { seconds: '4' } })).statusCode).toBe(400);
  });

  it('refunds a failed video once, to the user and the token', async () => {
    fake.behave('sk-video', { failWith: 'blocked by moderation' });
    const before = await balances(f, alice.userId, alice.tokenId);
    const v = await f.openai(alice.key).videos.create({ model: 'sora-2', prompt: 'bad', seconds: '8' });
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: before.quota - 800, tokenRemain: before.tokenRemain - 800 });
    await round();
    await round();
    await round();
    expect(await f.openai(alice.key).videos.retrieve(v.id)).toMatchObject({ status: 'failed', error: { message: 'blocked by moderation' } });
    expect(await balances(f, alice.userId, alice.tokenId)).toEqual(before);
    expect((await logsLike(f, alice.userId, '异步任务执行失败%')).map((l) => l.quota)).toEqual([800]);
  });
});
