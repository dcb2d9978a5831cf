import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeMidjourney } from '../fakes/midjourney.js';
import { addPrices, balances, logsLike, pollers, until } from './task-fixture.js';
import { relayState } from '../../src/relay/state.js';
import { taskPollers } from '../../src/relay/tasks/registry.js';

type User = Awaited<ReturnType<RelayFixture['newUser']>>;

describe.each(testDialects())('Midjourney tasks on %s', (dialect) => {
  let f: RelayFixture;
  let mj: FakeMidjourney;
  let channelA: number;
  let alice: User;
  let bob: User;
  let restarted: TestServer | undefined;

  const submit = (key: string, path: string, body: object) =>
    f.server.app.inject({ method: 'POST', url: path, headers: { 'mj-api-secret': key }, payload: body });
  const get = (key: string, path: string) => f.server.app.inject({ method: 'GET', url: path, headers: key ? { 'mj-api-secret': key } : {} });
  const round = () => pollers(f).midjourney.runNow();

  beforeAll(async () => {
    mj = new FakeMidjourney();
    await mj.start();
    // Rounds are run by hand (runNow) so each poll is one step of the fake; the timer stays out of the way.
    f = await relayFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    mj.behave('secret-a', {});
    channelA = await f.addChannel({ type: 34, key: 'secret-a', base_url: mj.url, models: 'mj_imagine,mj_upscale,mj_relax_imagine,mj_inpaint,mj_upload,mj_swap_face' });
    await addPrices(f, { mj_imagine: 2.5, mj_relax_imagine: 1, mj_upscale: 1, mj_inpaint: 1, mj_upload: 0.1, mj_swap_face: 1 });
    alice = await f.newUser({ quota: 100_000 });
    bob = await f.newUser({ quota: 100_000 });
  });
  afterAll(async () => {
    if (restarted) await restarted.destroy();
    else await f?.server.destroy();
    await mj?.close();
  });

  it('submits an imagine, settles its charge, polls it to SUCCESS and serves its image by a signed link', async () => {
    const res = await submit(alice.key, '/mj/submit/imagine', { prompt: 'a cat --fast', notifyHook: 'http://attacker.example/hook', accountFilter: { instanceId: 'x' } });
    expect(res.statusCode).toBe(200);
    const id = res.json().result as string;
    expect(res.json()).toMatchObject({ code: 1, result: id });
    const sent = mj.received.at(-1)!;
    expect(sent.path).toBe('/mj/submit/imagine');
    expect(sent.body).toEqual({ prompt: 'a cat', accountFilter: { modes: ['FAST'] } });
    expect(await balances(f, alice.userId, alice.tokenId)).toMatchObject({ quota: 97_500, used: 2_500 });

    const first = await round();
    expect(first).toMatchObject({ tasks: 1, upstreamCalls: 1, pending: 1 });
    expect((await get(alice.key, `/mj/task/${id}/fetch`)).json()).toMatchObject({ id, status: 'IN_PROGRESS', progress: '50%', action: 'IMAGINE' });
    await round();
    const done = (await get(alice.key, `/mj/task/${id}/fetch`)).json();
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', prompt: 'a cat' });
    expect(done.buttons).toHaveLength(4);
    expect(done.imageUrl).not.toContain(mj.url);
    const link = new URL(done.imageUrl);
    expect(link.pathname).toBe(`/mj/image/${id}`);
    const img = await get('', link.pathname + link.search);
    expect(img.statusCode).toBe(200);
    expect(img.body).toBe(`PNG-${id}.png`);
    expect((await get('', `${link.pathname}?expires=${link.searchParams.get('expires')}&sig=forged`)).statusCode).toBe(403);
    expect((await get('', `${link.pathname}?expires=1&sig=${link.searchParams.get('sig')}`)).statusCode).toBe(403);
    expect((await get(alice.key, `/mj/image/${id}`)).statusCode).toBe(200);
    // Nothing pending: the round finds nothing and asks upstream nothing.
    expect(await round()).toEqual({ tasks: 0, upstreamCalls: 0, pending: 0 });
    const consumed = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', alice.userId).where('model_name', '=', 'mj_imagine').execute();
    expect(consumed.map((l) => l.quota)).toEqual([2_500]);
  });

  it('refuses every read of another user\'s task', async () => {
    const id = (await submit(alice.key, '/mj/submit/imagine', { prompt: 'mine' })).json().result;
    await round();
    await round();
    expect((await get(bob.key, `/mj/task/${id}/fetch`)).statusCode).toBe(404);
    expect((await get(bob.key, `/mj/task/${id}/image-seed`)).statusCode).toBe(404);
    expect((await get(bob.key, `/mj/image/${id}`)).statusCode).toBe(404);
    expect((await get('', `/mj/image/${id}`)).statusCode).toBe(401);
    const listed = await f.server.app.inject({ method: 'POST', url: '/mj/task/list-by-condition', headers: { 'mj-api-secret': bob.key }, payload: { ids: [id] } });
    expect(listed.json()).toEqual([]);
    const own = await f.server.app.inject({ method: 'POST', url: '/mj/task/list-by-condition', headers: { 'mj-api-secret': alice.key }, payload: { ids: [id] } });
    expect(own.json().map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await get(alice.key, `/mj/task/${id}/image-seed`)).json()).toMatchObject({ code: 1, result: `seed-${id}` });
    // The console shows the image through the gateway, to its owner only.
    const mine = (await alice.client.get(`/api/mj/self?mj_id=${id}`)).body.data.data[0];
    expect(mine.image_url).toMatch(/^\/api\/mj\/image\/\d+$/);
    const shown = await alice.client.get(mine.image_url);
    expect(shown.status).toBe(200);
    expect(shown.raw.body).toBe(`PNG-${id}.png`);
    expect((await bob.client.get(mine.image_url)).status).toBe(404);
    // Bob cannot act on Alice's task either.
    expect((await submit(bob.key, '/mj/submit/change', { taskId: id, action: 'UPSCALE', index: 1 })).statusCode).toBe(404);
  });

  it('pins follow-ups to the original channel and mode, resolves customId and parses simple-change', async () => {
    mj.behave('secret-b', {});
    const other = await f.addChannel({ type: 34, key: 'secret-b', base_url: mj.url, models: 'mj_imagine,mj_upscale', priority: 10 });
    const id = (await submit(alice.key, '/mj-relax/mj/submit/imagine', { prompt: 'relaxed', accountFilter: { channelId: 'x' } })).json().result;
    expect(mj.tasks.get(id)!.key).toBe('secret-a'); // only channel A serves mj_relax_imagine
    expect(mj.received.at(-1)!.body.accountFilter).toEqual({ modes: ['RELAX'] });
    await round();
    await round();
    const task = (await get(alice.key, `/mj/task/${id}/fetch`)).json();
    const up = await submit(alice.key, '/mj/submit/action', { customId: task.buttons[1].customId, taskId: id });
    expect(up.json().code).toBe(1);
    const sentUp = mj.received.at(-1)!;
    expect(sentUp).toMatchObject({ path: '/mj/submit/action', key: 'secret-a' });
    expect(sentUp.body.accountFilter).toEqual({ modes: ['RELAX'] });
    const simple = await submit(alice.key, '/mj/submit/simple-change', { content: `${id} V3` });
    expect(simple.json().code).toBe(1);
    expect(mj.received.at(-1)).toMatchObject({ path: '/mj/submit/simple-change', key: 'secret-a' });
    const rows = await f.server.ctx.db.selectFrom('midjourneys').select(['action', 'mode', 'channel_id']).where('mj_id', 'in', [up.json().result, simple.json().result]).orderBy('id').execute();
    expect(rows).toEqual([
      { action: 'UPSCALE', mode: 'relax', channel_id: channelA },
      { action: 'VARIATION', mode: 'relax', channel_id: channelA },
    ]);
    const bad = await submit(alice.key, '/mj/submit/simple-change', { content: `${id} X9` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 4 });
    const pending = (await submit(alice.key, '/mj/submit/imagine', { prompt: 'not yet' })).json().result;
    expect((await submit(alice.key, '/mj/submit/change', { taskId: pending, action: 'UPSCALE', index: 1 })).json().description).toContain('关联任务状态错误');
    expect((await submit(alice.key, '/mj/submit/change', { taskId: id, action: 'UPSCALE', index: 7 })).statusCode).toBe(400);
    await f.root.delete(`/api/channel/${other}`);
    await relayState(f.server.ctx).selector.reload();
    await round();
    await round();
  });

  it('refunds a task that fails upstream exactly once, to the user and the token, with one log row', async () => {
    mj.behave('secret-fail', { failWith: 'banned prompt detected' });
    await f.root.put('/api/channel/', { id: channelA, status: 2 });
    const failing = await f.addChannel({ type: 34, key: 'secret-fail', base_url: mj.url, models: 'mj_imagine' });
    const carol = await f.newUser({ quota: 50_000, token: { unlimited_quota: false, remain_quota: 10_000 } });
    const id = (await submit(carol.key, '/mj/submit/imagine', { prompt: 'bad' })).json().result;
    expect(await balances(f, carol.userId, carol.tokenId)).toMatchObject({ quota: 47_500, tokenRemain: 7_500, used: 2_500, tokenUsed: 2_500 });
    await round();
    await round();
    expect((await get(carol.key, `/mj/task/${id}/fetch`)).json()).toMatchObject({ status: 'FAILURE', progress: '100%', failReason: 'banned prompt detected' });
    await round();
    expect(await balances(f, carol.userId, carol.tokenId)).toEqual({ quota: 50_000, used: 0, tokenRemain: 10_000, tokenUsed: 0 });
    const refunds = await logsLike(f, carol.userId, '构图失败%');
    expect(refunds.map((l) => l.quota)).toEqual([2_500]);
    // The console list shows the refunded task with what it had cost.
    const row = await f.server.ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ quota: 2_500, status: 'FAILURE', channel_id: failing });
    await f.root.put('/api/channel/', { id: channelA, status: 1 });
    await f.root.delete(`/api/channel/${failing}`);
    await relayState(f.server.ctx).selector.reload();
  });

  it('releases the hold when upstream refuses, rewrites codes 21 and 22, and never charges INPAINT', async () => {
    const dave = await f.newUser({ quota: 20_000 });
    mj.behave('secret-a', { codes: [24, 22, 21] });
    const refused = await submit(dave.key, '/mj/submit/imagine', { prompt: 'banned' });
    expect(refused.json()).toMatchObject({ code: 24 });
    expect(await balances(f, dave.userId, dave.tokenId)).toMatchObject({ quota: 20_000, used: 0 });
    expect(await logsLike(f, dave.userId, '任务提交失败%')).toHaveLength(1);
    const queued = await submit(dave.key, '/mj/submit/imagine', { prompt: 'queued' });
    expect(queued.json()).toMatchObject({ code: 1, properties: { numberOfQueues: 1 } });
    const exists = await submit(dave.key, '/mj/submit/imagine', { prompt: 'exists' });
    expect(exists.json().code).toBe(1);
    const row = await f.server.ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', exists.json().result).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ code: 21, status: 'SUCCESS', progress: '100%', quota: 2_500 });
    // The existing task's image is named by the gateway's link, in the answer, the fetch and the console.
    expect(row.image_url).toContain(mj.url);
    const host = new URL(mj.url).host;
    expect(JSON.stringify(exists.json())).not.toContain(host);
    expect(new URL(exists.json().properties.imageUrl).pathname).toBe(`/mj/image/${row.mj_id}`);
    const fetched = (await get(dave.key, `/mj/task/${row.mj_id}/fetch`)).json();
    expect(JSON.stringify(fetched)).not.toContain(host);
    expect((await get('', new URL(fetched.properties.imageUrl).pathname + new URL(fetched.properties.imageUrl).search)).statusCode).toBe(200);
    const listed = (await dave.client.get(`/api/mj/self?mj_id=${row.mj_id}`)).body.data.data[0];
    expect(JSON.parse(listed.properties).imageUrl).toBe(`/api/mj/image/${row.id}`);
    expect(await balances(f, dave.userId, dave.tokenId)).toMatchObject({ quota: 15_000 });
    const inpaint = await submit(dave.key, '/mj/submit/action', { customId: 'MJ::Inpaint::1::abc::SOLO', taskId: exists.json().result });
    expect(inpaint.json().code).toBe(1);
    expect(await balances(f, dave.userId, dave.tokenId)).toMatchObject({ quota: 15_000 });
    const mode = await submit(dave.key, '/mj-bogus/mj/submit/imagine', { prompt: 'x' });
    expect(mode.statusCode).toBe(400);
    expect(mode.json()).toMatchObject({ code: 4, type: 'one_hub_error' });
    expect(mode.json().description).toContain('无效的加速模式');
    expect((await submit(dave.key, '/mj/submit/imagine', {})).statusCode).toBe(400);
    await round();
    await round();
  });

  it('relays describe, blend, shorten, modal, upload and face swap with their own models', async () => {
    await addPrices(f, { mj_describe: 1, mj_blend: 1, mj_shorten: 1, mj_modal: 1 });
    await f.root.put('/api/channel/', { id: channelA, models: 'mj_imagine,mj_upscale,mj_relax_imagine,mj_inpaint,mj_upload,mj_swap_face,mj_describe,mj_blend,mj_shorten,mj_modal' });
    await relayState(f.server.ctx).selector.reload();
    const hank = await f.newUser({ quota: 20_000 });
    const ok = async (path: string, body: object) => {
      const res = await submit(hank.key, path, body);
      expect(res.json(), path).toMatchObject({ code: 1 });
      expect(mj.received.at(-1)!.path).toBe(path);
      return res.json();
    };
    await ok('/mj/submit/describe', { base64: 'data:image/png;base64,AAAA' });
    await ok('/mj/submit/blend', { base64Array: ['data:image/png;base64,AA', 'data:image/png;base64,BB'], dimensions: 'SQUARE' });
    const short = await ok('/mj/submit/shorten', { prompt: 'a very long prompt' });
    await ok('/mj/submit/modal', { taskId: short.result, prompt: 'fill' });
    const up = await ok('/mj/submit/upload-discord-images', { base64Array: ['data:image/png;base64,AA'] });
    expect(up.result).toEqual([`${mj.url}/images/up-0.png`]);
    await ok('/mj/insight-face/swap', { sourceBase64: 'AA', targetBase64: 'BB' });
    expect((await submit(hank.key, '/mj/insight-face/swap', { sourceBase64: 'AA' })).statusCode).toBe(400);
    const rows = await f.server.ctx.db.selectFrom('midjourneys').select(['action', 'quota', 'progress']).where('user_id', '=', hank.userId).orderBy('id').execute();
    expect(rows.map((r) => [r.action, r.quota])).toEqual([['DESCRIBE', 1_000], ['BLEND', 1_000], ['SHORTEN', 1_000], ['MODAL', 1_000], ['UPLOAD', 100], ['SWAP_FACE', 1_000]]);
    expect(rows[4].progress).toBe('100%');
    expect(await balances(f, hank.userId, hank.tokenId)).toMatchObject({ quota: 20_000 - 5_100 });
    await round();
    await round();
  });

  it('falls back from fast to relax on code 3 and charges the relax price', async () => {
    const erin = await f.newUser({ quota: 20_000 });
    mj.behave('secret-a', { noFast: true });
    const before = mj.received.length;
    const res = await submit(erin.key, '/mj/submit/imagine', { prompt: 'busy' });
    expect(res.json().code).toBe(1);
    expect(mj.received.slice(before).map((r) => r.body.accountFilter.modes[0])).toEqual(['FAST', 'RELAX']);
    expect(await balances(f, erin.userId, erin.tokenId)).toMatchObject({ quota: 19_000 });
    const row = await f.server.ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', res.json().result).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ mode: 'relax', quota: 1_000 });
    mj.behave('secret-a', {});
    await round();
    await round();
  });

  it('serves 20 concurrent submissions on a token worth 3 at most 3 times', async () => {
    const frank = await f.newUser({ quota: 1_000_000, token: { unlimited_quota: false, remain_quota: 7_500 } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(frank.key, '/mj/submit/imagine', { prompt: `burst ${i}` })));
    const served = answers.filter((a) => a.statusCode === 200 && a.json().code === 1);
    expect(served.length).toBeLessThanOrEqual(3);
    expect(served.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.statusCode === 403).length).toBe(20 - served.length);
    expect(await balances(f, frank.userId, frank.tokenId)).toMatchObject({ tokenRemain: 7_500 - 2_500 * served.length, tokenUsed: 2_500 * served.length });
    // All of one channel's pending tasks are asked for in one request per round.
    expect(await round()).toMatchObject({ tasks: served.length, upstreamCalls: 1 });
    await round();
  });

  it('accepts a notify only through the hook of the task\'s own channel', async () => {
    await f.setOption('MjNotifyEnabled', true);
    const id = (await submit(alice.key, '/mj/submit/imagine', { prompt: 'notify me' })).json().result;
    const hook = new URL(mj.tasks.get(id)!.notifyHook!);
    expect(hook.pathname).toBe('/mj/notify');
    await f.setOption('MjNotifyEnabled', false);
    const url = f.url;
    mj.finish(mj.tasks.get(id)!);
    const forged = await mj.notify(id, `${url}/mj/notify?channel=${channelA}&sig=forged`);
    expect(forged.status).toBe(401);
    const anyToken = await fetch(`${url}/mj/notify`, { method: 'POST', headers: { 'mj-api-secret': alice.key, 'content-type': 'application/json' }, body: JSON.stringify({ id, status: 'FAILURE', failReason: 'x' }) });
    expect(anyToken.status).toBe(401);
    expect((await get(alice.key, `/mj/task/${id}/fetch`)).json().status).toBe('SUBMITTED');
    const ok = await mj.notify(id, `${url}${hook.pathname}${hook.search}`);
    expect(ok.status).toBe(200);
    expect((await get(alice.key, `/mj/task/${id}/fetch`)).json()).toMatchObject({ status: 'SUCCESS', progress: '100%' });
  });

  it('fails and refunds once a task upstream has not finished within TASK_TIMEOUT_SECONDS', async () => {
    const ivy = await f.newUser({ quota: 10_000 });
    mj.behave('secret-a', { pollsToFinish: 100 });
    const id = (await submit(ivy.key, '/mj/submit/imagine', { prompt: 'forever' })).json().result;
    await f.server.ctx.db.updateTable('midjourneys').set({ submit_time: Date.now() - 3_601_000 }).where('mj_id', '=', id).execute();
    await round();
    await round();
    expect((await get(ivy.key, `/mj/task/${id}/fetch`)).json()).toMatchObject({ status: 'FAILURE', progress: '100%', failReason: '上游任务超时（超过 3600 秒）' });
    expect(await balances(f, ivy.userId, ivy.tokenId)).toMatchObject({ quota: 10_000, used: 0 });
    expect((await logsLike(f, ivy.userId, '构图失败%')).map((l) => l.quota)).toEqual([2_500]);
    mj.behave('secret-a', {});
  });

  it('fails and refunds the tasks of a deleted channel, and resumes pending tasks after a restart', async () => {
    const gina = await f.newUser({ quota: 10_000 });
    mj.behave('secret-gone', {});
    const gone = await f.addChannel({ type: 34, key: 'secret-gone', base_url: mj.url, models: 'mj_upscale', priority: 50 });
    const src = (await submit(gina.key, '/mj/submit/imagine', { prompt: 'src' })).json().result;
    mj.finish(mj.tasks.get(src)!);
    await round();
    // A fresh imagine, pending on channel A.
    await submit(gina.key, '/mj/submit/imagine', { prompt: 'pending' });
    const upscale = await f.server.app.inject({ method: 'POST', url: '/mj/submit/change', headers: { 'mj-api-secret': gina.key }, payload: { taskId: src, action: 'UPSCALE', index: 1 } });
    expect(upscale.json().code).toBe(1);
    expect(mj.received.at(-1)!.key).toBe('secret-a'); // pinned to the original's channel, not the higher-priority one
    await f.root.delete(`/api/channel/${gone}`);
    expect(await balances(f, gina.userId, gina.tokenId)).toMatchObject({ quota: 10_000 - 2_500 - 2_500 - 1_000 });
    await f.root.put('/api/channel/', { id: channelA, status: 2 }); // the poller marks channel A's tasks failed: refunded
    await relayState(f.server.ctx).selector.reload();
    await round();
    expect(await balances(f, gina.userId, gina.tokenId)).toMatchObject({ quota: 10_000 - 2_500 });
    await f.root.put('/api/channel/', { id: channelA, status: 1 });
    await relayState(f.server.ctx).selector.reload();
    const resumed = (await submit(gina.key, '/mj/submit/imagine', { prompt: 'after' })).json().result;
    mj.finish(mj.tasks.get(resumed)!);
    // Charged before the restart, failing upstream after it: refunded once by the new process.
    mj.behave('secret-doomed', { failWith: 'job lost' });
    await f.addChannel({ type: 34, key: 'secret-doomed', base_url: mj.url, models: 'mj_imagine', priority: 60 });
    const doomed = (await submit(gina.key, '/mj/submit/imagine', { prompt: 'doomed' })).json().result;
    expect(await balances(f, gina.userId, gina.tokenId)).toMatchObject({ quota: 10_000 - 3 * 2_500 });
    await f.server.close();
    restarted = await startTestServer(dialect, { reuse: f.server, env: { TASK_POLL_INTERVAL_MS: '50' } });
    const poller = taskPollers(relayState(restarted.ctx)).midjourney;
    await until(async () => poller.rounds > 0 && poller.last.pending === 0, 'the rounds after restart');
    const rows = await restarted.ctx.db.selectFrom('midjourneys').select(['mj_id', 'status', 'progress']).where('mj_id', 'in', [resumed, doomed]).orderBy('id').execute();
    expect(rows).toEqual([
      { mj_id: resumed, status: 'SUCCESS', progress: '100%' },
      { mj_id: doomed, status: 'FAILURE', progress: '100%' },
    ]);
    const user = await restarted.ctx.db.selectFrom('users').select('quota').where('id', '=', gina.userId).executeTakeFirstOrThrow();
    expect(user.quota).toBe(10_000 - 2 * 2_500);
    const refunds = await restarted.ctx.db.selectFrom('logs').select('quota').where('user_id', '=', gina.userId).where('content', 'like', '构图失败%').execute();
    expect(refunds.map((l) => l.quota)).toEqual([2_500, 1_000, 2_500]);
  });
});
