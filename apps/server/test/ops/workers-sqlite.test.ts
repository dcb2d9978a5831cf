import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { FakeOpenAI } from '../fakes/openai-upstream.js';
import { randomAlnum } from '../../src/common/random.js';
import { GATEWAY_ARGS, SERVER_DIR, gatewayProcessEnv } from '../gateway-process.js';

const PASSWORD = 'workers-sqlite-password';
const REDIS = process.env.TEST_REDIS_CONN_STRING;

/** WORKERS on one SQLite file: limits, caches and notices through the primary, or through Redis when given. */
const nodes = [
  { workers: 4, redis: false },
  { workers: 2, redis: false },
  ...(REDIS ? [{ workers: 2, redis: true }] : []),
];
if (!REDIS) console.warn('skipping the SQLite + Redis worker node: TEST_REDIS_CONN_STRING is not set');

describe.each(nodes)('a node of $workers worker processes on one SQLite file (redis: $redis)', ({ workers, redis }) => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-workers-sqlite-'));
  const fake = new FakeOpenAI();
  const base = gatewayProcessEnv(dir, PASSWORD);
  const env = { ...base, WORKERS: String(workers), REDIS_CONN_STRING: redis ? REDIS! : '', REDIS_KEY_PREFIX: `ws_${randomAlnum(8)}:`, SQL_DSN: '' };
  const url = `http://127.0.0.1:${env.PORT}`;
  let primary: ChildProcess;
  let out = '';
  let file: BetterSqlite3.Database;
  let cookie = '';
  let each = 0;

  const admin = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', cookie, connection: 'close' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as any;
  };
  /** A chat call on a new connection (so calls are dealt to every worker); 0 when the connection broke or hung for `patience` ms. */
  const ask = (key: string, patience = 60_000) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      signal: AbortSignal.timeout(patience),
      headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}`, connection: 'close' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000 }),
    }).then(
      async (res) => (await res.arrayBuffer(), res.status),
      () => 0,
    );
  const books = () => {
    const user = file.prepare('SELECT quota, used_quota FROM users WHERE id = 1').get() as { quota: number; used_quota: number };
    const leased = (file.prepare('SELECT COALESCE(SUM(amount), 0) AS n FROM quota_leases').get() as { n: number }).n;
    const logged = file.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(quota), 0) AS q FROM logs WHERE type = 2').get() as { n: number; q: number };
    return { quota: user.quota, used: user.used_quota, leased, rows: logged.n, logged: logged.q };
  };
  const lines = (text: RegExp) => out.split('\n').filter((l) => text.test(l)).length;
  // Worker processes only (tsx may run an esbuild service beside them).
  const children = () => spawnSync('pgrep', ['-P', String(primary.pid), '-f', 'main.ts'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).map(Number);
  const newToken = async (name: string) => {
    expect((await admin('/api/token/', { name, unlimited_quota: true })).success).toBe(true);
    return (await admin('/api/token/')).data.data.find((t: { name: string }) => t.name === name) as { id: number; key: string };
  };
  /** Sets the root's balance (what is leased counts as balance too) to `calls` calls' worth. */
  const worth = async (calls: number) => {
    const now = books();
    const change = calls * each - (now.quota + now.leased);
    if (change !== 0) expect(await admin('/api/user/quota/1', { quota: change })).toMatchObject({ success: true });
  };

  beforeAll(async () => {
    await fake.start();
    fake.behave('workers-key', { usage: { prompt: 10, completion: 990 }, delayMs: 300 });
    primary = spawn(process.execPath, GATEWAY_ARGS, { cwd: SERVER_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    primary.stdout!.on('data', (d) => (out += String(d)));
    primary.stderr!.on('data', (d) => (out += String(d)));
    await new Promise<void>((resolve, reject) => {
      primary.stdout!.on('data', () => lines(new RegExp(`serving with ${workers} worker processes`)) && resolve());
      primary.once('exit', (code) => reject(new Error(`the node exited (${code}): ${out.slice(-2000)}`)));
    });
    file = new BetterSqlite3(env.SQLITE_PATH, { readonly: true, fileMustExist: true });
    const login = await fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: PASSWORD }) });
    cookie = String(login.headers.get('set-cookie')).split(';')[0];
    expect((await admin('/api/option/', { key: 'FetchAllowPrivateNetworks', value: 'true' }, 'PUT')).success).toBe(true);
    expect((await admin('/api/channel/', { type: 1, name: 'workers', key: 'workers-key', base_url: fake.url, models: 'gpt-4o-mini', group: 'default' })).success).toBe(true);
  }, 120_000);
  afterAll(async () => {
    if (primary?.exitCode === null) primary.kill('SIGKILL');
    file?.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a balance worth 10 calls at most 10 times out of 100 concurrent calls, and the books balance to the unit', async () => {
    const { key } = await newToken('books');
    // The channel and the token reach every worker through the shared notices.
    const first = await Promise.all(Array.from({ length: 2 * workers }, () => ask(key)));
    expect(first).toEqual(Array(2 * workers).fill(200));
    await expect.poll(() => books().rows, { timeout: 5000, interval: 100 }).toBe(2 * workers);
    each = books().logged / (2 * workers);
    expect(each).toBeGreaterThan(0);
    await worth(10);
    const start = books();
    const statuses = await Promise.all(Array.from({ length: 100 }, () => ask(key)));
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 402 || s === 403 || s === 429)).toBe(true);
    await expect.poll(() => books().rows, { timeout: 5000, interval: 100 }).toBe(start.rows + served);
    await expect.poll(() => books().leased, { timeout: 15_000, interval: 200 }).toBe(0);
    const end = books();
    expect(end.quota).toBe(start.quota + start.leased - served * each);
    expect(end.quota + end.used).toBe(start.quota + start.leased + start.used);
    expect(end.logged - start.logged).toBe(served * each);
  }, 90_000);

  it('refuses a token disabled through one worker on every worker', async () => {
    const token = await newToken('revoked');
    await worth(1000);
    // Every worker has the token in its cache.
    expect(await Promise.all(Array.from({ length: 2 * workers }, () => ask(token.key)))).toEqual(Array(2 * workers).fill(200));
    expect((await admin('/api/token/?status_only=1', { id: token.id, status: 2 }, 'PUT')).success).toBe(true);
    const after = [];
    for (let i = 0; i < 3 * workers; i++) after.push(await ask(token.key));
    expect(after).toEqual(Array(3 * workers).fill(401));
  }, 60_000);

  it('loses no money when a worker is killed under load: its slices come back after their expiry, and it is started again', async () => {
    const { key } = await newToken('killed');
    await worth(500);
    const start = books();
    const before = children();
    expect(before).toHaveLength(workers);
    // A connection the primary was handing to the worker as it died is never answered (Node's
    // cluster drops it): the client's own timeout ends it, here 15 s.
    const load = Promise.all(Array.from({ length: 40 }, () => ask(key, 15_000)));
    // The calls are held upstream (300 ms each): the worker dies holding slices and unwritten calls.
    const leasesOf = file.prepare('SELECT COUNT(*) AS n FROM quota_leases WHERE node LIKE ?');
    const victimLeases = () => (leasesOf.get(`${before[workers - 1]}-%`) as { n: number }).n;
    await expect.poll(victimLeases, { timeout: 5000, interval: 20 }).toBeGreaterThan(0);
    process.kill(before[workers - 1], 'SIGKILL');
    const statuses = await load;
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 0)).toBe(true);
    await expect.poll(() => lines(/starting it again/), { timeout: 10_000, interval: 100 }).toBe(1);
    await expect.poll(() => lines(/listening on http/), { timeout: 60_000, interval: 200 }).toBe(workers + 1);
    expect(children()).toHaveLength(workers);
    // QUOTA_LEASE_TTL_SECONDS is 3: the dead worker's slices (its node is `pid-…`) are reclaimed by the others.
    await expect.poll(victimLeases, { timeout: 20_000, interval: 200 }).toBe(0);
    // What is leased to the live workers still counts as balance.
    const end = books();
    expect(end.quota + end.leased + end.used).toBe(start.quota + start.leased + start.used);
    expect(end.used - start.used).toBe(end.logged - start.logged);
    expect(end.logged - start.logged).toBe((end.rows - start.rows) * each);
    // And the node serves on, on every worker.
    expect(await Promise.all(Array.from({ length: 2 * workers }, () => ask(key)))).toEqual(Array(2 * workers).fill(200));
  }, 120_000);

  it('stops every worker on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(spawnSync('pgrep', ['-P', String(primary.pid)]).status).toBe(1);
    expect(books().leased).toBe(0);
  }, 40_000);
});
