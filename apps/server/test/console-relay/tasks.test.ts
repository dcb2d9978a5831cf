import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';

type Row = Record<string, any>;

describe.each(testDialects())('midjourney and async task lists on %s', (dialect) => {
  let f: ConsoleFixture;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  const t0 = 1_760_000_000;

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    [alice, bob, admin] = [await f.newUser(), await f.newUser(), await f.newUser({ admin: true })];
    const db = f.server.ctx.db;
    // One row per insert: a multi-row insert fills missing columns with NULL on SQLite.
    const mjRows: Row[] = [
        { user_id: alice.id, code: 1, action: 'IMAGINE', mj_id: 'mj-a1', prompt: 'a cat', prompt_en: 'a cat', submit_time: t0 * 1000, start_time: t0 * 1000 + 500, finish_time: t0 * 1000 + 70_500, image_url: 'https://cdn.example/a1.png', status: 'SUCCESS', progress: '100%', channel_id: 7, quota: 50_000, buttons: '[]', properties: '{}', mode: 'fast', token_id: 3 },
        { user_id: alice.id, code: 21, action: 'UPSCALE', mj_id: 'mj-a2', submit_time: (t0 + 100) * 1000, status: 'IN_PROGRESS', progress: '40%', channel_id: 8 },
        { user_id: bob.id, code: 1, action: 'DESCRIBE', mj_id: 'mj-b1', submit_time: (t0 + 200) * 1000, status: 'FAILURE', progress: '0%', fail_reason: 'banned prompt', channel_id: 7 },
    ];
    for (const row of mjRows) await db.insertInto('midjourneys').values(row as never).execute();
    const suno = { clips: [{ id: 'c1', title: 'Song', user_id: 'suno-account-42', metadata: { prompt: 'la la', user_id: 'x' } }], user_id: 'suno-account-42' };
    const taskRows: Row[] = [
        { user_id: alice.id, task_id: 'suno-1', platform: 'suno', action: 'MUSIC', status: 'SUCCESS', channel_id: 9, quota: 1000, submit_time: t0, start_time: t0 + 1, finish_time: t0 + 90, progress: 100, properties: '{"prompt":"la la"}', data: JSON.stringify(suno), notify_hook: 'https://hook.example/x', created_at: t0, updated_at: t0 + 90 },
        { user_id: alice.id, task_id: 'kling-1', platform: 'kling', action: 'text2video', status: 'IN_PROGRESS', channel_id: 10, submit_time: t0 + 500, progress: 30, data: '{"task_status":"processing"}', created_at: t0 + 500, updated_at: t0 + 500 },
        { user_id: bob.id, task_id: 'kling-2', platform: 'kling', action: 'image2video', status: 'FAILURE', fail_reason: 'quota', channel_id: 10, submit_time: t0 + 1000, created_at: t0 + 1000, updated_at: t0 + 1000 },
    ];
    for (const row of taskRows) await db.insertInto('tasks').values(row as never).execute();
  });
  afterAll(async () => f?.close());

  it('lists every Midjourney task to admins with the channel, filtered by channel, id and time in ms', async () => {
    const all = (await admin.client.get('/api/mj/?order=submit_time')).body.data;
    expect(all.total_count).toBe(3);
    expect(all.data.map((t: Row) => t.mj_id)).toEqual(['mj-a1', 'mj-a2', 'mj-b1']);
    expect(all.data[0]).toMatchObject({ user_id: alice.id, code: 1, action: 'IMAGINE', channel_id: 7, quota: 50_000, progress: '100%', buttons: '[]', mode: 'fast', token_id: 3, submit_time: t0 * 1000 });
    // The image is shown through the gateway; the upstream URL stays on the server.
    expect(all.data[0].image_url).toBe(`/api/mj/image/${all.data[0].id}`);
    expect(all.data[1]).not.toHaveProperty('mode');
    expect((await admin.client.get('/api/mj/?channel_id=7')).body.data.total_count).toBe(2);
    expect((await admin.client.get(`/api/mj/?user_id=${bob.id}`)).body.data.data.map((t: Row) => t.mj_id)).toEqual(['mj-b1']);
    expect((await admin.client.get('/api/mj/?status=IN_PROGRESS')).body.data.data.map((t: Row) => t.mj_id)).toEqual(['mj-a2']);
    expect((await admin.client.get('/api/mj/?mj_id=mj-b1')).body.data.data[0].fail_reason).toBe('banned prompt');
    const window = `start_timestamp=${(t0 + 50) * 1000}&end_timestamp=${(t0 + 150) * 1000}`;
    expect((await admin.client.get(`/api/mj/?${window}`)).body.data.data.map((t: Row) => t.mj_id)).toEqual(['mj-a2']);
  });

  it('shows users only their own Midjourney tasks, without the channel', async () => {
    const mine = (await alice.client.get('/api/mj/self?order=-submit_time&channel_id=8')).body.data;
    expect(mine.data.map((t: Row) => t.mj_id)).toEqual(['mj-a2', 'mj-a1']);
    expect(mine.data.every((t: Row) => t.channel_id === 0 && t.user_id === alice.id)).toBe(true);
    expect((await bob.client.get('/api/mj/self?mj_id=mj-a1')).body.data.total_count).toBe(0);
    expect((await alice.client.get('/api/mj/self?token_id=3')).body.data.total_count).toBe(1);
    expect((await alice.client.get('/api/mj/')).status).toBe(403);
  });

  it('lists async tasks to admins with every filter', async () => {
    const all = (await admin.client.get('/api/task/?order=submit_time')).body.data;
    expect(all.data.map((t: Row) => t.task_id)).toEqual(['suno-1', 'kling-1', 'kling-2']);
    expect(all.data[0]).toMatchObject({ platform: 'suno', action: 'MUSIC', status: 'SUCCESS', channel_id: 9, progress: 100, properties: { prompt: 'la la' }, notify_hook: 'https://hook.example/x' });
    expect(all.data[0].data.user_id).toBe('suno-account-42');
    const ids = async (q: string) => (await admin.client.get(`/api/task/?order=id&${q}`)).body.data.data.map((t: Row) => t.task_id);
    expect(await ids('platform=kling')).toEqual(['kling-1', 'kling-2']);
    expect(await ids(`user_id=${bob.id}`)).toEqual(['kling-2']);
    expect(await ids(`user_ids=${bob.id}&user_ids=${alice.id}`)).toEqual(['suno-1', 'kling-1', 'kling-2']);
    expect(await ids('channel_id=10&status=FAILURE')).toEqual(['kling-2']);
    expect(await ids('action=text2video')).toEqual(['kling-1']);
    expect(await ids('task_id=suno-1')).toEqual(['suno-1']);
    expect(await ids(`start_timestamp=${t0 + 1}&end_timestamp=${t0 + 999}`)).toEqual(['kling-1']);
    const sorted = async (order: string) => (await admin.client.get(`/api/task/?order=${order}`)).body.data.data.map((t: Row) => t.task_id);
    expect(await sorted('status,id')).toEqual(['kling-2', 'kling-1', 'suno-1']);
    expect(await sorted('-task_id')).toEqual(['suno-1', 'kling-2', 'kling-1']);
  });

  it('shows users their own async tasks without channel, hook or the Suno account id', async () => {
    const mine = (await alice.client.get(`/api/task/self?order=id&user_id=${bob.id}&channel_id=10`)).body.data.data as Row[];
    expect(mine.map((t) => t.task_id)).toEqual(['suno-1', 'kling-1']);
    expect(mine.every((t) => t.channel_id === 0 && t.notify_hook === '')).toBe(true);
    expect(JSON.stringify(mine[0].data)).not.toContain('suno-account-42');
    expect(mine[0].data.clips[0]).toEqual({ id: 'c1', title: 'Song', metadata: { prompt: 'la la' } });
    expect((await bob.client.get('/api/task/self')).body.data.data.map((t: Row) => t.task_id)).toEqual(['kling-2']);
    expect((await bob.client.get('/api/task/')).status).toBe(403);
  });

  it('refuses bad list input with 400', async () => {
    expect((await admin.client.get('/api/task/?order=data')).status).toBe(400);
    expect((await admin.client.get('/api/task/?start_timestamp=yesterday')).status).toBe(400);
    expect((await admin.client.get('/api/mj/?order=prompt')).status).toBe(400);
    expect((await alice.client.get('/api/mj/self?size=500')).status).toBe(400);
    expect((await admin.client.get('/api/task/?user_ids=abc')).status).toBe(400);
  });
});
