import { statSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteHandle } from '../../src/db/index.js';
import { seedBig } from '../../bench/seed-big.js';
import { relayFixture, type RelayFixture } from './fixture.js';

const ROWS = Number(process.env.STALL_TEST_ROWS ?? 200_000);
const DAY = 86_400;

// Issue 25.2 and 25.5 on SQLite: a 90-day analytics call and a large log deletion run while the
// relay serves; heavy reads run in the read workers and the deletion in yielding batches, so no
// relay request waits a second (the bench measures the p99 properly). The deletion then hands
// the freed pages back and the file shrinks.
describe('the relay never waits for the console on SQLite', () => {
  let f: RelayFixture;
  let key: string;
  const now = Math.floor(Date.now() / 1000);
  const fileSize = () => statSync(f.server.env.SQLITE_PATH).size;
  /** Consumption rows older than `before`: what a deletion to that time must remove. */
  const consumedBefore = async (before: number) =>
    Number((await f.server.ctx.db.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 2).where('created_at', '<', before).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    f = await relayFixture('sqlite', { BATCH_FLUSH_MS: '100' });
    await f.addChannel({ key: 'stall-key' });
    // One user sends all the traffic: lift the default group's per-minute limit.
    await f.root.put('/api/user_group/', { id: 1, name: 'default', ratio: 1, api_rate: 1_000_000, public: true });
    ({ key } = await f.newUser({ quota: 1_000_000_000 }));
    await seedBig(f.server.ctx.db, { users: 10, tokens: 20, channels: 2, logs: ROWS, days: 90, now: now - 60 });
    sqliteHandle(f.server.ctx.db)!.pragma('wal_checkpoint(TRUNCATE)');
  }, 300_000);
  afterAll(() => f?.close());

  it('keeps answering relay requests within a second during 90-day analytics and a large deletion, and the file shrinks', async () => {
    const before = fileSize();
    const due = await consumedBefore(now - 30 * DAY);
    const seeded = await consumedBefore(now + DAY);
    let latencies: number[] = [];
    let failures = 0;
    let running = true;
    const relay = async () => {
      while (running) {
        const t0 = performance.now();
        const res = await fetch(`${f.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 }),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status !== 200 && failures++ === 0) console.log(`relay refused: ${res.status}`);
      }
    };
    // The same traffic alone first: on a loaded machine its own worst case is the yardstick.
    let traffic = Array.from({ length: 8 }, relay);
    await new Promise((r) => setTimeout(r, 3000));
    running = false;
    await Promise.all(traffic);
    const alone = Math.max(...latencies);
    latencies = [];
    running = true;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    traffic = Array.from({ length: 8 }, relay);
    const [analytics, stat, deletion] = await Promise.all([
      f.root.get(`/api/analytics/period?start_timestamp=${now - 90 * DAY}&end_timestamp=${now}&group_type=model`),
      // A sum over every seeded row (a full scan): the read workers' work, not the relay's thread.
      f.root.get(`/api/log/stat?start_timestamp=${now - 90 * DAY}&end_timestamp=${now}`),
      f.root.request('DELETE', `/api/log/?target_timestamp=${now - 30 * DAY}`),
    ]);
    running = false;
    await Promise.all(traffic);
    loop.disable();

    expect(analytics.status).toBe(200);
    // Every seeded consumption row is counted, whether the deletion ran first or not: statistics outlive log rows.
    const counted = analytics.body.data.channel_statistics.reduce((n: number, s: { RequestCount: number }) => n + s.RequestCount, 0);
    expect(seeded).toBeGreaterThan(ROWS * 0.8);
    expect(counted).toBeGreaterThanOrEqual(seeded);
    expect(stat.status).toBe(200);
    expect(stat.body.data.quota).toBeGreaterThan(ROWS * 100);
    expect(deletion.status).toBe(200);
    // The original's answer: the number deleted (the consumption rows among the two thirds of the seed older than 30 days).
    expect(due).toBeGreaterThan(ROWS * 0.5);
    expect(deletion.body.data).toBe(due);
    expect(await consumedBefore(now - 30 * DAY)).toBe(0);
    expect(failures).toBe(0);
    expect(latencies.length).toBeGreaterThan(10);
    const worst = Math.max(...latencies);
    console.log(
      `relay alone: worst ${alone.toFixed(0)} ms; during console work: ${latencies.length} requests, worst ${worst.toFixed(0)} ms, event loop delay max ${(loop.max / 1e6).toFixed(0)} ms`,
    );
    // Under a second; a machine so busy that the relay alone nears that gets three times its own worst.
    expect(worst).toBeLessThan(Math.max(1000, 3 * alone));
    // Freed pages went back to the file system: the file is under what it was although the relay
    // kept adding rows meanwhile, and next to none of the thousands freed is left inside it.
    expect(fileSize()).toBeLessThan(before);
    expect(Number(sqliteHandle(f.server.ctx.db)!.pragma('freelist_count', { simple: true }))).toBeLessThan(500);
  }, 300_000);

  it('deletes in the background when asked, with progress readable until done', async () => {
    const due = await consumedBefore(now - 10 * DAY);
    const started = await f.root.request('DELETE', `/api/log/?target_timestamp=${now - 10 * DAY}&background=true`);
    expect(started.status).toBe(200);
    const job = started.body.data;
    expect(job).toMatchObject({ target_timestamp: now - 10 * DAY, done: false, error: '' });
    let progress = job;
    while (!progress.done) {
      await new Promise((r) => setImmediate(r));
      const res = await f.root.get(`/api/log/deletion/${job.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.deleted).toBeGreaterThanOrEqual(progress.deleted);
      progress = res.body.data;
    }
    expect(due).toBeGreaterThan(ROWS * 0.15);
    expect(progress.deleted).toBe(due);
    expect(progress.finished_at).toBeGreaterThanOrEqual(progress.started_at);
    expect(await consumedBefore(now - 10 * DAY)).toBe(0);
    expect((await f.root.get('/api/log/deletion/999999')).status).toBe(404);
    expect((await f.root.request('DELETE', '/api/log/?target_timestamp=1&background=maybe')).status).toBe(400);
  }, 120_000);
});
