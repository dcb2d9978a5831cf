import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import OpenAI from 'openai';
import { REDIS_URL, redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeRealtime } from '../fakes/realtime-upstream.js';
import { FakeMidjourney } from '../fakes/midjourney.js';
import { FakeOpenAIFiles } from '../fakes/openai-files.js';
import { FakeOpenAIVideos } from '../fakes/openai-videos.js';
import { relayState } from '../../src/relay/state.js';
import { addPrices, logsLike, pollers, until } from './task-fixture.js';
import { collect } from './ws-events.js';
import { logsOf, plan, resetIso } from './plan-fixture.js';

type Row = Record<string, any>;
type User = Awaited<ReturnType<RelayFixture['newUser']>>;

/** What one Midjourney imagine costs (price 2.5 per call). */
const MJ = 2_500;

/**
 * Plans outside the model pipeline (issue 21.1): realtime responses and async tasks pay from a
 * covering plan's window with the doors' plan hold; pass-through endpoints bill nothing.
 */
describe.each(testDialects())('plans on realtime, tasks and pass-through on %s', (dialect) => {
  let f: RelayFixture;
  let rt: FakeRealtime;
  let mj: FakeMidjourney;
  let files: FakeOpenAIFiles;
  let videos: FakeOpenAIVideos;
  let clock = Date.now();
  /** What one fake realtime response (20 in, 10 out) costs. */
  let R = 0;
  const setClock = (ms: number) => {
    clock = ms;
    relayState(f.server.ctx).plans.now = () => clock;
  };

  beforeAll(async () => {
    rt = new FakeRealtime();
    mj = new FakeMidjourney();
    files = new FakeOpenAIFiles();
    videos = new FakeOpenAIVideos();
    await Promise.all([rt.start(), mj.start(), files.start(), videos.start()]);
    // Task rounds are run by hand, one step of the fake each.
    f = await relayFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    setClock(Date.now());
    await f.server.ctx.db.insertInto('prices').values({ model: 'rt-model', type: 'tokens', channel_type: 1, input: 1, output: 2 }).execute();
    await addPrices(f, { mj_imagine: 2.5, 'sora-2': 0.1 });
    await f.addChannel({ key: 'rt-plan', base_url: rt.url, models: 'rt-model' });
    await f.addChannel({ type: 34, key: 'mj-plan', base_url: mj.url, models: 'mj_imagine' });
    mj.behave('mj-plan', {});
    await f.addChannel({ key: 'sk-video-plan', base_url: videos.url, models: 'sora-2' });
    videos.behave('sk-video-plan', {});
    // The price of one response, from a session the balance pays.
    const probe = await f.newUser({ quota: 1_000_000 });
    const s = await session(probe);
    s.ws.send(JSON.stringify({ type: 'response.create' }));
    await s.waitFor('response.done');
    s.ws.close();
    await s.closed;
    R = await until(async () => (await logsOf(f, probe.userId))[0]?.quota, 'the probe session to be logged');
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([rt?.close(), mj?.close(), files?.close(), videos?.close()]);
  });

  async function subscriber(over: Row, fallback = false): Promise<User & { plan: Row }> {
    const p = (await f.root.post('/api/plan/', plan(over))).body.data;
    const user = await f.newUser({ quota: 1_000_000 });
    expect((await f.root.post('/api/plan/grant', { user_id: user.userId, plan_id: p.id })).body.success).toBe(true);
    if (fallback) expect((await user.client.put('/api/plan/self/fallback', { enabled: true })).body.success).toBe(true);
    setClock(Date.now()); // not before the subscription's start
    return { ...user, plan: p };
  }
  const windowOf = async (u: User) => (await u.client.get('/api/plan/self')).body.data.subscriptions[0];
  const balanceOf = async (u: User) => (await u.client.get('/api/user/self')).body.data.quota;

  async function session(u: User) {
    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-model`, { headers: { authorization: `Bearer ${u.key}` } });
    const s = collect(ws);
    await once(ws, 'open');
    return { ws, ...s };
  }

  describe('realtime', () => {
    it('pays each response from the window, fills it without passing it, then refuses the next response with the reset time', async () => {
      // Room for one response and most of a second: the second fills the window, its rest is left unpaid.
      const u = await subscriber({ models: ['rt-model'], window_quota: 2 * R - 5 });
      const s = await session(u);
      s.ws.send(JSON.stringify({ type: 'response.create' }));
      await s.waitFor('response.done');
      s.ws.send(JSON.stringify({ type: 'response.create' }));
      await s.waitFor('response.done', 2);
      s.ws.send(JSON.stringify({ type: 'response.create' }));
      const [error] = await s.waitFor('error');
      const sub = await windowOf(u);
      expect(error.error).toMatchObject({ code: 'plan_window_spent', type: 'one_hub_error', param: null });
      expect(error.error.message).toContain(`resets at ${resetIso(sub.window_end)}`);
      // The refused response.create never reached upstream; the session stays open.
      expect(s.events.filter((e) => e.type === 'response.done')).toHaveLength(2);
      expect(s.ws.readyState).toBe(WebSocket.OPEN);
      s.ws.close();
      await s.closed;
      expect(sub.window_used).toBe(2 * R - 5);
      const log = await until(async () => (await logsOf(f, u.userId))[0], 'the session row');
      expect(log).toMatchObject({ quota: 0, content: 'realtime session' });
      expect(log.meta).toMatchObject({ plan_id: u.plan.id, subscription_id: sub.id, plan_quota: 2 * R - 5, uncovered_cost: 5 });
      expect(await balanceOf(u)).toBe(1_000_000);

      // A new session is refused before the upgrade, with Retry-After.
      const again = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-model`, { headers: { authorization: `Bearer ${u.key}` } });
      const [, res] = await once(again, 'unexpected-response');
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBe(sub.window_end - Math.floor(clock / 1000));
      let body = '';
      for await (const chunk of res) body += chunk;
      expect(JSON.parse(body).error).toMatchObject({ code: 'plan_window_spent' });
      expect(JSON.parse(body).error.message).toContain(`resets at ${resetIso(sub.window_end)}`);
    });

    it('cancels a response upstream starts by itself (server VAD) once the window is spent', async () => {
      const u = await subscriber({ models: ['rt-model'], window_quota: R });
      const s = await session(u);
      s.ws.send(JSON.stringify({ type: 'test.vad' }));
      const [paid] = await s.waitFor('response.done');
      expect(paid.response.status).toBe('completed');
      s.ws.send(JSON.stringify({ type: 'test.vad' }));
      const [error] = await s.waitFor('error');
      expect(error.error.code).toBe('plan_window_spent');
      const [, cut] = await s.waitFor('response.done', 2);
      expect(cut.response.status).toBe('cancelled');
      expect(rt.received.filter((e: any) => e.type === 'response.cancel').map((e: any) => e.response_id)).toContain(cut.response.id);
      s.ws.close();
      await s.closed;
      // The cancelled response's input cost found no room: left unpaid, never taken from the balance.
      const log = await until(async () => (await logsOf(f, u.userId))[0], 'the session row');
      expect(log).toMatchObject({ quota: 0 });
      expect(log.meta.plan_quota).toBe(R);
      expect(log.meta.uncovered_cost).toBeGreaterThan(0);
      expect(log.meta.uncovered_cost).toBeLessThan(R);
      expect(await balanceOf(u)).toBe(1_000_000);
    });

    it('falls back to the balance for responses the spent window cannot pay when the user allows it', async () => {
      const u = await subscriber({ models: ['rt-model'], window_quota: R + 5 }, true);
      const s = await session(u);
      for (let n = 1; n <= 2; n++) {
        s.ws.send(JSON.stringify({ type: 'response.create' }));
        await s.waitFor('response.done', n);
      }
      s.ws.close();
      await s.closed;
      const log = await until(async () => (await logsOf(f, u.userId))[0], 'the session row');
      expect(log.quota).toBe(R);
      expect(log.meta).toMatchObject({ plan_id: u.plan.id, plan_quota: R });
      expect(log.meta.uncovered_cost).toBeUndefined();
      expect((await windowOf(u)).window_used).toBe(R);
      expect(await balanceOf(u)).toBe(1_000_000 - R);
    });
  });

  describe('Midjourney tasks', () => {
    const submit = (key: string, prompt: string) => f.server.app.inject({ method: 'POST', url: '/mj/submit/imagine', headers: { 'mj-api-secret': key }, payload: { prompt } });
    const rowOf = (id: string) => f.server.ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', id).executeTakeFirstOrThrow();
    /** Polls until every task of the fake has ended. */
    const settle = async () => {
      for (let i = 0; i < 3; i++) await pollers(f).midjourney.runNow();
    };

    it('charges the window (rows and logs marked), refuses with the reset time, and refunds a failed task to its window', async () => {
      const u = await subscriber({ models: ['mj_imagine'], window_quota: 2 * MJ, window_kind: 'day' });
      const first = await submit(u.key, 'one');
      expect(first.json()).toMatchObject({ code: 1 });
      const sub = await windowOf(u);
      expect(await rowOf(first.json().result)).toMatchObject({ quota: 0, plan_quota: MJ, subscription_id: sub.id, plan_window: sub.window_start });
      // The user's own task list shows what the plan paid.
      const listed = (await u.client.get('/api/mj/self')).body.data.data as Row[];
      expect(listed.map((t) => [t.quota, t.plan_quota])).toEqual([[0, MJ]]);
      await settle();
      // The next task fails upstream after it was charged: its charge goes back to the window.
      mj.behave('mj-plan', { failWith: 'banned prompt' });
      const failing = (await submit(u.key, 'two')).json().result;
      expect((await windowOf(u)).window_used).toBe(2 * MJ);
      const spent = await submit(u.key, 'three');
      expect(spent.statusCode).toBe(429);
      expect(spent.json()).toMatchObject({ code: 4, type: 'one_hub_error' });
      expect(spent.json().description).toContain(`resets at ${resetIso(sub.window_end)}`);
      expect(Number(spent.headers['retry-after'])).toBe(sub.window_end - Math.floor(clock / 1000));
      await settle();
      mj.behave('mj-plan', {});
      expect(await rowOf(failing)).toMatchObject({ status: 'FAILURE', quota: 0, plan_quota: MJ });
      expect((await windowOf(u)).window_used).toBe(MJ);
      const [refund] = await logsOf(f, u.userId, 4);
      expect(refund.meta).toMatchObject({ plan_id: u.plan.id, subscription_id: sub.id, plan_quota: MJ, plan_refund: 'window', msg: { key: 'task_failed_plan_refund' } });
      expect(refund.quota).toBe(0);
      // The window has room again.
      expect((await submit(u.key, 'four')).json()).toMatchObject({ code: 1 });
      const charged = await logsOf(f, u.userId);
      expect(charged.map((l) => [l.quota, l.meta.plan_quota, l.meta.plan_id])).toEqual(Array(3).fill([0, MJ, u.plan.id]));
      expect(await balanceOf(u)).toBe(1_000_000);
      await settle();
    });

    it('keeps a failed task\'s spend in a window that has passed, and never credits the balance with it', async () => {
      const u = await subscriber({ models: ['mj_imagine'], window_quota: 2 * MJ, window_kind: 'day' });
      mj.behave('mj-plan', { failWith: 'lost' });
      const id = (await submit(u.key, 'late failure')).json().result;
      const before = await windowOf(u);
      setClock((before.window_end + 60) * 1000);
      await settle();
      mj.behave('mj-plan', {});
      expect(await rowOf(id)).toMatchObject({ status: 'FAILURE', plan_quota: MJ });
      const [kept] = await logsOf(f, u.userId, 4);
      expect(kept.meta).toMatchObject({ plan_refund: 'window_passed', plan_quota: MJ, msg: { key: 'task_failed_plan_kept' } });
      // The old window keeps the spend; the new one is untouched.
      await relayState(f.server.ctx).plans.flush();
      const usage = await f.server.ctx.db.selectFrom('plan_usage').selectAll().where('subscription_id', '=', before.id).execute();
      expect(usage.map((r) => [Number(r.window_start), Number(r.used)])).toEqual([[before.window_start, MJ]]);
      expect(await balanceOf(u)).toBe(1_000_000);
      expect(await logsLike(f, u.userId, '构图失败%')).toHaveLength(0);
      setClock(Date.now());
    });

    it('pays from the balance once the window is spent when the user allows it', async () => {
      const u = await subscriber({ models: ['mj_imagine'], window_quota: MJ, window_kind: 'day' }, true);
      const ids = [];
      for (const prompt of ['plan', 'balance']) ids.push((await submit(u.key, prompt)).json().result);
      expect(await rowOf(ids[0])).toMatchObject({ quota: 0, plan_quota: MJ });
      expect(await rowOf(ids[1])).toMatchObject({ quota: MJ, plan_quota: 0, subscription_id: 0 });
      const [viaPlan, viaBalance] = await logsOf(f, u.userId);
      expect(viaPlan.meta.plan_id).toBe(u.plan.id);
      expect(viaBalance).toMatchObject({ quota: MJ });
      expect(viaBalance.meta.plan_id).toBeUndefined();
      expect(await balanceOf(u)).toBe(1_000_000 - MJ);
      await settle();
    });
  });

  it('charges an OpenAI video to the window, refunds a failed one to it and refuses in OpenAI\'s shape when spent', async () => {
    const VIDEO = 400; // 4 seconds at 0.1
    const u = await subscriber({ models: ['sora-2'], window_quota: 2 * VIDEO, window_kind: 'week' });
    const sdk = f.openai(u.key);
    const rowOf = (id: string) => f.server.ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', id).executeTakeFirstOrThrow();
    const ok = await sdk.videos.create({ model: 'sora-2', prompt: 'a fox', seconds: '4' });
    const sub = await windowOf(u);
    expect(await rowOf(ok.id)).toMatchObject({ quota: 0, plan_quota: VIDEO, subscription_id: sub.id, plan_window: sub.window_start });
    for (let i = 0; i < 2; i++) await pollers(f).videos.runNow();
    videos.behave('sk-video-plan', { failWith: 'blocked' });
    const failing = await sdk.videos.create({ model: 'sora-2', prompt: 'a wolf', seconds: '4' });
    const spent = await sdk.videos.create({ model: 'sora-2', prompt: 'a bear', seconds: '4' }).catch((e) => e);
    expect([spent.status, spent.error?.code]).toEqual([429, 'plan_window_spent']);
    expect(spent.error.message).toContain(`resets at ${resetIso(sub.window_end)}`);
    expect(Number(spent.headers.get('retry-after'))).toBe(sub.window_end - Math.floor(clock / 1000));
    for (let i = 0; i < 3; i++) await pollers(f).videos.runNow();
    videos.behave('sk-video-plan', {});
    expect(await rowOf(failing.id)).toMatchObject({ status: 'FAILURE', quota: 0, plan_quota: VIDEO });
    expect((await windowOf(u)).window_used).toBe(VIDEO);
    const [refund] = await logsOf(f, u.userId, 4);
    expect(refund.meta).toMatchObject({ plan_refund: 'window', plan_quota: VIDEO, msg: { key: 'task_failed_plan_refund' } });
    expect((await logsOf(f, u.userId)).map((l) => [l.quota, l.meta.plan_quota])).toEqual([[0, VIDEO], [0, VIDEO]]);
    expect(await balanceOf(u)).toBe(1_000_000);
  });

  it('bills pass-through calls nothing, so a spent window (of a plan covering every model) never refuses them', async () => {
    const rootId = (await f.root.get('/api/user/self')).body.data.id;
    const p = (await f.root.post('/api/plan/', plan({ models: [], window_quota: 1_000_000 }))).body.data;
    await f.root.post('/api/plan/grant', { user_id: rootId, plan_id: p.id });
    setClock(Date.now());
    await f.root.post('/api/token/', { name: 'root-pass', unlimited_quota: true });
    const token = ((await f.root.get('/api/token/')).body.data.data as Row[]).find((t) => t.name === 'root-pass')!;
    const key = `sk-${token.key}`;
    const channel = await f.addChannel({ base_url: files.url, key: 'sk-files', models: 'files-only' });
    await f.addChannel({ key: 'root-chat', models: 'test-model' });
    // The whole window is spent: a model request is refused ...
    const plans = relayState(f.server.ctx).plans;
    const held = await plans.hold(rootId, 'default', 'test-model', 1_000_000);
    expect(held && 'key' in held).toBe(true);
    if (held && 'key' in held) plans.settle(held, 1_000_000);
    const refused = await f.openai(key).chat.completions.create({ model: 'test-model', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect([refused.status, refused.error?.code]).toEqual([429, 'plan_window_spent']);
    // ... a pass-through call is not, and its row names no plan.
    const pinned = new OpenAI({ apiKey: `${key}#${channel}`, baseURL: `${f.url}/v1`, maxRetries: 0 });
    expect((await pinned.files.list()).data).toEqual([]);
    const logs = await logsOf(f, rootId);
    expect(logs.at(-1)).toMatchObject({ quota: 0, content: '中继:/v1/files' });
    expect(logs.at(-1)!.meta.plan_id).toBeUndefined();
    const sub = ((await f.root.get('/api/plan/self')).body.data.subscriptions as Row[]).find((x) => x.plan_id === p.id)!;
    expect(sub.window_used).toBe(1_000_000);
  });
});

describe.skipIf(!redisAvailable())('plan-paid tasks across two nodes sharing Redis', () => {
  let a: RelayFixture;
  let b: TestServer;
  let mj: FakeMidjourney;
  beforeAll(async () => {
    mj = new FakeMidjourney();
    await mj.start();
    a = await relayFixture('sqlite', { REDIS_CONN_STRING: REDIS_URL!, REDIS_KEY_PREFIX: `plan-tasks:${Date.now()}:`, TASK_POLL_INTERVAL_MS: '600000' });
    b = await startTestServer('sqlite', { reuse: a.server });
    await addPrices(a, { mj_imagine: 2.5 });
    await a.addChannel({ type: 34, key: 'mj-two', base_url: mj.url, models: 'mj_imagine' });
    mj.behave('mj-two', {});
    await relayState(b.ctx).selector.reload();
    await relayState(b.ctx).prices.load();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await mj?.close();
  });

  it('20 concurrent submissions against a window worth 5 charge the window at most 5 times across both nodes', async () => {
    const p = (await a.root.post('/api/plan/', plan({ models: ['mj_imagine'], window_quota: 5 * MJ }))).body.data;
    const u = await a.newUser({ quota: 1_000_000 });
    await a.root.post('/api/plan/grant', { user_id: u.userId, plan_id: p.id });
    await relayState(b.ctx).plans.load();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? b.app : a.server.app).inject({ method: 'POST', url: '/mj/submit/imagine', headers: { 'mj-api-secret': u.key }, payload: { prompt: `p${i}` } })),
    );
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(20 - ok);
    const rows = await a.server.ctx.db.selectFrom('midjourneys').selectAll().where('user_id', '=', u.userId).execute();
    expect(rows).toHaveLength(ok);
    expect(rows.every((r) => r.quota === 0 && r.plan_quota === MJ)).toBe(true);
    expect((await u.client.get('/api/plan/self')).body.data.subscriptions[0].window_used).toBe(ok * MJ);
    expect((await u.client.get('/api/user/self')).body.data.quota).toBe(1_000_000);
  });
});
