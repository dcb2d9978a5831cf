import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { FakeOpenAI } from '../fakes/openai-upstream.js';
import { randomAlnum } from '../../src/common/random.js';
import { GATEWAY_ARGS, SERVER_DIR, gatewayProcessEnv } from '../gateway-process.js';

const PASSWORD = 'workers-root-password';
const PG_DSN = process.env.TEST_POSTGRES_DSN;
const REDIS = process.env.TEST_REDIS_CONN_STRING;

describe('WORKERS', () => {
  it('is refused on an in-memory SQLite database, which processes cannot share', () => {
    const dir = mkdtempSync(join(tmpdir(), 'one-hub-workers-'));
    try {
      const run = spawnSync(process.execPath, GATEWAY_ARGS, { cwd: SERVER_DIR, env: { ...process.env, ...gatewayProcessEnv(dir, PASSWORD), WORKERS: '2', SQL_DSN: '', SQLITE_PATH: ':memory:', REDIS_CONN_STRING: '' }, encoding: 'utf8', timeout: 30_000 });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('WORKERS=2 needs a database the processes can share: SQLITE_PATH is :memory:');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

if (!PG_DSN || !REDIS) console.warn('skipping the worker-process node: TEST_POSTGRES_DSN and TEST_REDIS_CONN_STRING are needed');

/** One node of two worker processes on PostgreSQL and Redis, as `WORKERS=2 npm start` runs it. */
describe.skipIf(!PG_DSN || !REDIS)('a node of two worker processes (postgres + redis)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-workers-'));
  const database = `w_${randomAlnum(10).toLowerCase()}`;
  const fake = new FakeOpenAI();
  const env = { ...gatewayProcessEnv(dir, PASSWORD), WORKERS: '2', REDIS_CONN_STRING: REDIS!, REDIS_KEY_PREFIX: `${database}:`, METRICS_USER: 'prom', METRICS_PASSWORD: 'scrape-secret' };
  const url = `http://127.0.0.1:${env.PORT}`;
  let primary: ChildProcess;
  let out = '';
  let db: pg.Client;
  let cookie = '';
  let key = '';

  const admin = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', cookie, connection: 'close' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as any;
  };
  const ask = async () => {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}`, connection: 'close' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000 }),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const books = async () => {
    const user = (await db.query('SELECT quota, used_quota FROM users WHERE id = 1')).rows[0];
    const leased = Number((await db.query('SELECT COALESCE(SUM(amount), 0) AS n FROM quota_leases')).rows[0].n);
    const logged = (await db.query('SELECT COUNT(*) AS n, COALESCE(SUM(quota), 0) AS q FROM logs WHERE type = 2')).rows[0];
    return { quota: Number(user.quota), used: Number(user.used_quota), leased, rows: Number(logged.n), logged: Number(logged.q) };
  };
  const lines = (text: RegExp) => out.split('\n').filter((l) => text.test(l)).length;

  beforeAll(async () => {
    await fake.start();
    fake.behave('workers-key', { usage: { prompt: 10, completion: 990 }, delayMs: 300 });
    const admin = new pg.Client({ connectionString: PG_DSN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const dsn = new URL(PG_DSN!);
    dsn.pathname = `/${database}`;
    db = new pg.Client({ connectionString: dsn.toString() });
    primary = spawn(process.execPath, GATEWAY_ARGS, { cwd: SERVER_DIR, env: { ...process.env, ...env, SQL_DSN: dsn.toString() }, stdio: ['ignore', 'pipe', 'pipe'] });
    primary.stdout!.on('data', (d) => (out += String(d)));
    primary.stderr!.on('data', (d) => (out += String(d)));
    await new Promise<void>((resolve, reject) => {
      primary.stdout!.on('data', () => lines(/serving with 2 worker processes/) && resolve());
      primary.once('exit', (code) => reject(new Error(`the node exited (${code}): ${out.slice(-2000)}`)));
    });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    if (primary.exitCode === null) primary.kill('SIGKILL');
    await db?.end().catch(() => undefined);
    const admin = new pg.Client({ connectionString: PG_DSN });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers from both processes, as one node: the jobs and start time are worker 0’s whichever is asked', async () => {
    const login = await fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: PASSWORD }) });
    cookie = String(login.headers.get('set-cookie')).split(';')[0];
    // Connections are dealt to both workers: the sockets held open here end up in both processes.
    const sockets = Array.from({ length: 6 }, () => connect(Number(env.PORT), '127.0.0.1'));
    const workers = spawnSync('pgrep', ['-P', String(primary.pid)], { encoding: 'utf8' }).stdout.trim().split('\n').map(Number);
    const holders = () => {
      const ss = spawnSync('ss', ['-tnpH', 'state', 'established', `( sport = :${env.PORT} )`], { encoding: 'utf8' }).stdout;
      return [...new Set([...ss.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])))].sort();
    };
    await expect.poll(holders, { timeout: 5000, interval: 50 }).toEqual([...workers].sort());
    for (const socket of sockets) socket.destroy();
    // One session is valid on both (the secret is saved once, before the workers start); the
    // master's jobs and the node's start time answer alike from either.
    const roles = new Set<string>();
    const starts = new Set<number>();
    const jobs = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const info = await admin('/api/system_info/jobs');
      expect(info.success).toBe(true);
      roles.add(info.data.node_type);
      jobs.add(JSON.stringify(info.data.jobs.map((j: { name: string; configured: boolean }) => [j.name, j.configured])));
      starts.add((await admin('/api/status')).data.start_time);
    }
    expect([...roles]).toEqual(['master']);
    expect(jobs.size).toBe(1);
    expect(JSON.parse([...jobs][0]).some(([, configured]: [string, boolean]) => configured)).toBe(true);
    expect(starts.size).toBe(1);
  });

  it('answers /api/metrics for the whole node, whichever worker is asked', async () => {
    const scrape = async () => {
      const res = await fetch(`${url}/api/metrics`, { headers: { authorization: `Basic ${Buffer.from('prom:scrape-secret').toString('base64')}`, connection: 'close' } });
      expect(res.status).toBe(200);
      return /http_requests_total\{method="GET",path="\/api\/system_info\/jobs",code="200"\} (\d+)/.exec(await res.text())?.[1];
    };
    // The twelve job-status calls above were dealt to both workers; every scrape counts all of them.
    for (let i = 0; i < 6; i++) expect(await scrape()).toBe('12');
  });

  it('serves a balance worth 10 calls at most 10 times across the processes, and the books balance', async () => {
    expect((await admin('/api/option/', { key: 'FetchAllowPrivateNetworks', value: 'true' }, 'PUT')).success).toBe(true);
    expect((await admin('/api/channel/', { type: 1, name: 'workers', key: 'workers-key', base_url: fake.url, models: 'gpt-4o-mini', group: 'default' })).success).toBe(true);
    expect((await admin('/api/token/', { name: 'workers', unlimited_quota: true })).success).toBe(true);
    key = (await admin('/api/token/')).data.data[0].key;
    // The channel reaches the other process through Redis at once.
    for (let i = 0; i < 6; i++) expect(await ask()).toBe(200);
    await expect.poll(async () => (await books()).rows, { timeout: 5000, interval: 100 }).toBe(6);
    const each = (await books()).logged / 6;
    expect(each).toBeGreaterThan(0);
    // The root's balance cut to 10 calls' worth (what is leased counts as balance too).
    const now = await books();
    expect((await admin('/api/user/quota/1', { quota: 10 * each - (now.quota + now.leased) })).success).toBe(true);
    const start = await books();
    const statuses = await Promise.all(Array.from({ length: 60 }, ask));
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 402 || s === 403 || s === 429)).toBe(true);
    await expect.poll(async () => (await books()).rows, { timeout: 5000, interval: 100 }).toBe(6 + served);
    await expect.poll(async () => (await books()).leased, { timeout: 15_000, interval: 200 }).toBe(0);
    const end = await books();
    expect(end.quota).toBe(start.quota + start.leased - served * each);
    expect(end.quota + end.used).toBe(start.quota + start.leased + start.used);
    expect(end.logged - start.logged).toBe(served * each);
  }, 60_000);

  it('runs a job once, on worker 0, whichever worker is asked to run it', async () => {
    // The channel test waits 300 ms on the fake upstream: the other asks arrive while it runs.
    const run = () => fetch(`${url}/api/system_info/jobs/channel_test/run`, { method: 'POST', headers: { cookie, connection: 'close' } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const answers = await Promise.all(Array.from({ length: 6 }, run));
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
    for (const a of answers.filter((a) => !a.body.success)) expect(a.body.message).toContain('the job is already running');
    await expect.poll(async () => (await admin('/api/system_info/jobs')).data.jobs.find((j: { name: string }) => j.name === 'channel_test').last_outcome, { timeout: 10_000, interval: 100 }).toBe('ok');
  }, 20_000);

  it('starts a killed worker again, and the node goes on serving', async () => {
    expect((await admin('/api/user/quota/1', { quota: 1_000_000 })).success).toBe(true);
    const workers = spawnSync('pgrep', ['-P', String(primary.pid)], { encoding: 'utf8' }).stdout.trim().split('\n').map(Number);
    expect(workers).toHaveLength(2);
    process.kill(workers[1], 'SIGKILL');
    await expect.poll(() => lines(/starting it again/), { timeout: 10_000, interval: 100 }).toBe(1);
    await expect.poll(() => lines(/listening on http/), { timeout: 20_000, interval: 100 }).toBe(3);
    const rows = (await books()).rows;
    const statuses = await Promise.all(Array.from({ length: 8 }, ask));
    expect(statuses).toEqual(Array(8).fill(200));
    await expect.poll(async () => (await books()).rows, { timeout: 5000, interval: 100 }).toBe(rows + 8);
  }, 40_000);

  it('stops every worker on SIGTERM, writing what they served first', async () => {
    const before = await books();
    const inFlight = Promise.all(Array.from({ length: 6 }, ask));
    await new Promise((r) => setTimeout(r, 100)); // the requests are held upstream (300 ms)
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await inFlight).toEqual(Array(6).fill(200));
    expect(await exited).toBe(0);
    expect(spawnSync('pgrep', ['-P', String(primary.pid)]).status).toBe(1); // no worker left
    const after = await books();
    expect(after.rows).toBe(before.rows + 6);
    expect(after.leased).toBe(0);
  }, 40_000);
});
