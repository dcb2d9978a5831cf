import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeMidjourney } from '../fakes/midjourney.js';
import { FakeSuno } from '../fakes/suno.js';
import { addPrices, balances, logsLike, pollers } from './task-fixture.js';
import { relayState } from '../../src/relay/state.js';
import { taskPollers } from '../../src/relay/tasks/registry.js';
import { failTask } from '../../src/relay/tasks/fail.js';

// Mid-day (UTC) on the 10th: the next day is in the same month.
const T = Date.UTC(2026, 5, 10, 12, 0, 30);
const DAY = 86_400_000;
/** What one submission costs: `chirp-cap` and `suno_lyrics` at 0.1 in the default group, `mj_imagine` at 2.5 in `spare` (ratio 2). */
const SONG = 100;
const MJ = 5_000;
const capped = (rules: Record<string, number>, group?: string) => ({ ...(group ? { group } : {}), setting: { limits: { request_limits: rules } } });

type Server = TestServer;
const song = (s: Server, key: string, mv = 'chirp-cap') => s.app.inject({ method: 'POST', url: '/suno/submit/music', headers: { authorization: `Bearer ${key}` }, payload: { prompt: 'a song', mv } });
const lyrics = (s: Server, key: string) => s.app.inject({ method: 'POST', url: '/suno/submit/lyrics', headers: { authorization: `Bearer ${key}` }, payload: { prompt: 'words' } });
const taskRows = (s: Server, userId: number) => s.ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', userId).orderBy('id').execute();
/** The counter of a spending window, as the shared store holds it. */
const counter = async (s: Server, key: string) => Number((await s.ctx.store.get(key)) ?? 0);
const windowsOf = (row: { limit_windows: string | null }) => JSON.parse(row.limit_windows ?? '[]') as string[];
const dayKey = (row: { limit_windows: string | null }) => windowsOf(row).find((k) => k.startsWith('relay-spend-d:'))!;

/** Waits until every submission's charge reached the cap windows (they are counted after the answer). */
const refusedBy = async (submit: () => Promise<{ statusCode: number }>) => expect.poll(async () => (await submit()).statusCode).toBe(429);

/**
 * A failed task's refund also takes its spend back out of the daily/monthly spending-cap windows it
 * was counted in (issue 31), while those windows are current, once, never below zero.
 */
describe.each(testDialects())('spending caps after task refunds on %s', (dialect) => {
  let f: RelayFixture;
  let mj: FakeMidjourney;
  let suno: FakeSuno;
  const setClock = (ms: number) => (relayState(f.server.ctx).limits.now = () => ms);

  beforeAll(async () => {
    mj = new FakeMidjourney();
    suno = new FakeSuno();
    await Promise.all([mj.start(), suno.start()]);
    f = await relayFixture(dialect, { TASK_POLL_INTERVAL_MS: '600000' });
    setClock(T);
    expect((await f.root.post('/api/user_group/', { symbol: 'spare', name: 'spare lane', ratio: 2, public: true })).body.success).toBe(true);
    suno.behave('suno-ok', {});
    suno.behave('suno-cap', { failWith: 'content policy' });
    mj.behave('mj-spare', {});
    await f.addChannel({ type: 41, key: 'suno-ok', base_url: suno.url, models: 'suno_lyrics' });
    await f.addChannel({ type: 41, key: 'suno-cap', base_url: suno.url, models: 'chirp-cap' });
    await f.addChannel({ type: 34, key: 'mj-spare', base_url: mj.url, models: 'mj_imagine', group: 'spare' });
    await addPrices(f, { 'chirp-cap': 0.1, suno_lyrics: 0.1, mj_imagine: 2.5 });
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([mj?.close(), suno?.close()]);
  });

  it('admits a further submission once the tasks that filled a token\'s daily cap failed and were refunded', async () => {
    const { key, userId, tokenId } = await f.newUser({ quota: 100_000, token: capped({ daily_quota: 3 * SONG }) });
    for (let i = 0; i < 3; i++) expect((await song(f.server, key)).json()).toMatchObject({ code: 'success' });
    await refusedBy(() => song(f.server, key));
    const rows = await taskRows(f.server, userId);
    expect(rows.map(dayKey)).toEqual(Array(3).fill(`relay-spend-d:t${tokenId}:${Math.floor(T / DAY)}`));
    expect(await counter(f.server, dayKey(rows[0]))).toBe(3 * SONG);

    await pollers(f).suno.runNow();
    await pollers(f).suno.runNow();
    expect((await taskRows(f.server, userId)).map((r) => r.status)).toEqual(Array(3).fill('FAILURE'));
    expect(await balances(f, userId, tokenId)).toMatchObject({ quota: 100_000, used: 0 });
    const refunds = await logsLike(f, userId, '异步任务执行失败%');
    expect(refunds.map((l) => [l.quota, JSON.parse(l.metadata!).cap_refund])).toEqual(Array(3).fill([SONG, 'window']));

    const again = await song(f.server, key);
    expect([again.statusCode, again.json().code]).toEqual([200, 'success']);
    await expect.poll(() => counter(f.server, dayKey(rows[0]))).toBe(SONG);
  });

  it('does not lower the current day\'s window for a task counted the day before, only the month both share', async () => {
    const { key, userId, tokenId } = await f.newUser({ quota: 100_000, token: capped({ daily_quota: MJ, monthly_quota: 10 * MJ }, 'spare') });
    const imagine = () => f.server.app.inject({ method: 'POST', url: '/mj/submit/imagine', headers: { 'mj-api-secret': key }, payload: { prompt: 'a cat' } });
    const rowOf = (id: string) => f.server.ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', id).executeTakeFirstOrThrow();
    try {
      const early = (await imagine()).json().result;
      await refusedBy(imagine);
      // The early task is half done before the next day's task exists; its next round fails it.
      await pollers(f).midjourney.runNow();
      setClock(T + DAY);
      const late = (await imagine()).json().result;
      await refusedBy(imagine);
      mj.behave('mj-spare', { failWith: 'banned prompt' });
      await pollers(f).midjourney.runNow();
      mj.behave('mj-spare', {});
      expect([(await rowOf(early)).status, (await rowOf(late)).status]).toEqual(['FAILURE', 'IN_PROGRESS']);

      const [day, month] = windowsOf(await rowOf(early));
      const [today] = windowsOf(await rowOf(late));
      expect([day, month, today]).toEqual([`relay-spend-d:t${tokenId}:${Math.floor(T / DAY)}`, `relay-spend-m:t${tokenId}:${2026 * 12 + 5}`, `relay-spend-d:t${tokenId}:${Math.floor(T / DAY) + 1}`]);
      expect([await counter(f.server, day), await counter(f.server, today), await counter(f.server, month)]).toEqual([MJ, MJ, MJ]);
      const [refund] = await logsLike(f, userId, '构图失败%');
      expect([refund.quota, JSON.parse(refund.metadata!).cap_refund]).toEqual([MJ, 'day_passed']);
      const refused = await imagine();
      expect(refused.json().description).toContain(`token limit reached: daily spending cap ${MJ}`);
      expect(await balances(f, userId, tokenId)).toMatchObject({ quota: 100_000 - MJ });
    } finally {
      setClock(T);
      await pollers(f).midjourney.runNow();
    }
  });

  it('takes a task\'s spend back once when the poller and another path refund it together', async () => {
    const { key, userId, tokenId } = await f.newUser({ quota: 100_000, token: capped({ daily_quota: 3 * SONG }) });
    expect((await lyrics(f.server, key)).json()).toMatchObject({ code: 'success' });
    for (let i = 0; i < 2; i++) expect((await song(f.server, key)).json()).toMatchObject({ code: 'success' });
    await refusedBy(() => song(f.server, key));
    await pollers(f).suno.runNow();
    const failing = (await taskRows(f.server, userId)).filter((r) => r.action === 'MUSIC');
    const state = relayState(f.server.ctx);
    await Promise.all([pollers(f).suno.runNow(), ...failing.map((row) => failTask(state, row, 'channel gone'))]);

    expect(await counter(f.server, dayKey(failing[0]))).toBe(SONG);
    expect((await logsLike(f, userId, '异步任务执行失败%')).map((l) => l.quota)).toEqual([SONG, SONG]);
    expect(await balances(f, userId, tokenId)).toMatchObject({ quota: 100_000 - SONG, used: SONG });
    // Further rounds give nothing back again.
    await pollers(f).suno.runNow();
    expect(await counter(f.server, dayKey(failing[0]))).toBe(SONG);
    for (let i = 0; i < 2; i++) expect((await lyrics(f.server, key)).json()).toMatchObject({ code: 'success' });
    await refusedBy(() => lyrics(f.server, key));
    expect(await counter(f.server, dayKey(failing[0]))).toBe(3 * SONG);
  });
});

describe.skipIf(!redisAvailable())('spending caps after task refunds across two nodes sharing Redis', () => {
  let a: RelayFixture;
  let b: TestServer;
  let suno: FakeSuno;
  beforeAll(async () => {
    suno = new FakeSuno();
    await suno.start();
    a = await relayFixture('sqlite', { REDIS_CONN_STRING: REDIS_URL!, REDIS_KEY_PREFIX: `task-caps:${Date.now()}:`, TASK_POLL_INTERVAL_MS: '600000' });
    b = await startTestServer('sqlite', { reuse: a.server });
    suno.behave('suno-ok', {});
    suno.behave('suno-cap', { failWith: 'content policy' });
    await a.addChannel({ type: 41, key: 'suno-ok', base_url: suno.url, models: 'suno_lyrics' });
    await a.addChannel({ type: 41, key: 'suno-cap', base_url: suno.url, models: 'chirp-cap' });
    await addPrices(a, { 'chirp-cap': 0.1, suno_lyrics: 0.1 });
    await relayState(b.ctx).selector.reload();
    await relayState(b.ctx).prices.load();
    for (const s of [a.server, b]) relayState(s.ctx).limits.now = () => T;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await suno?.close();
  });

  it('two nodes\' pollers refunding the same failed tasks take their spend out of the shared window once', async () => {
    const { key, userId, tokenId } = await a.newUser({ quota: 100_000, token: capped({ daily_quota: 3 * SONG }) });
    expect((await lyrics(a.server, key)).json()).toMatchObject({ code: 'success' });
    for (const s of [a.server, b]) expect((await song(s, key)).json()).toMatchObject({ code: 'success' });
    await refusedBy(() => song(b, key));
    await pollers(a).suno.runNow();
    await Promise.all([pollers(a).suno.runNow(), taskPollers(relayState(b.ctx)).suno.runNow()]);

    const rows = await taskRows(a.server, userId);
    expect(rows.map((r) => r.status)).toEqual(['SUCCESS', 'FAILURE', 'FAILURE']);
    expect(await counter(b, dayKey(rows[0]))).toBe(SONG);
    expect((await logsLike(a, userId, '异步任务执行失败%')).map((l) => l.quota)).toEqual([SONG, SONG]);
    // Node b's charge and lease are written back before the balance is read.
    await relayState(b.ctx).recorder.flush();
    await relayState(b.ctx).leases.settleUp();
    expect(await balances(a, userId, tokenId)).toMatchObject({ quota: 100_000 - SONG, used: SONG });
    for (const s of [a.server, b]) expect((await lyrics(s, key)).json()).toMatchObject({ code: 'success' });
    await refusedBy(() => lyrics(a.server, key));
    expect(await counter(a.server, dayKey(rows[0]))).toBe(3 * SONG);
  });
});
