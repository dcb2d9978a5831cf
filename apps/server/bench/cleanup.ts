// `BENCH_CLEANUP=1 npm run bench`: the log clean-up of issue 37 point 2 under relay load. A SQLite
// file of BENCH_LOG_ROWS log rows over 90 days (seed-big; written once to BENCH_CLEANUP_SEED and
// copied for each run) is served by one gateway node; the relay is loaded at
// BENCH_BIGDATA_CONCURRENCY for a baseline p99, then the console deletes the consumption rows older
// than 30 days (of the seed's end) as a background job under the same load. Reported: how long the
// DELETE took to answer, the job's time to finish and rows/s, the relay's p99 alone and during,
// the largest WAL seen, and an admin's balance edits (POST /api/user/quota/:id, and PUT /api/user/)
// under the load. BENCH_CLEANUP_SERVERS=postgres,mysql also times the balance edits under the same
// relay load on a fresh PostgreSQL / MySQL (MariaDB) database (no deletion there).
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb, sqliteHandle } from '../src/db/index.js';
import { Loader, type LoadResult } from './load.js';
import { BIG_SIZE, seedBig } from './seed-big.js';
import { stop } from './procs.js';
import { parseStorage, provision } from './storage.js';

const here = dirname(fileURLToPath(import.meta.url));
const DAY = 86_400;
const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 2_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_BIGDATA_CONCURRENCY ?? 20);
const SEED = process.env.BENCH_CLEANUP_SEED ?? join(here, '../data/bench-cleanup.db');
const SERVERS = (process.env.BENCH_CLEANUP_SERVERS ?? '').split(',').filter(Boolean);
/** A run stops following the job after this long (it goes on in the node, which is then stopped). */
const GIVE_UP_SECONDS = Number(process.env.BENCH_CLEANUP_MAX_SECONDS ?? 1800);

export interface CleanupDeps {
  startNode(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }>;
  configure(gw: string, fakeUrl: string): Promise<string>;
  password: string;
}

async function login(gw: string, password: string): Promise<string> {
  const res = await fetch(`${gw}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password }) });
  return String(res.headers.get('set-cookie')).split(';')[0];
}

async function call(gw: string, cookie: string, method: string, path: string, body?: unknown): Promise<{ ms: number; data: any }> {
  const t0 = performance.now();
  const res = await fetch(`${gw}${path}`, { method, headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const json = (await res.json()) as { success?: boolean; data?: unknown; message?: string };
  const ms = performance.now() - t0;
  if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${json.message ?? ''}`);
  return { ms, data: json.data };
}

/** The seed file and its end time: written once (a node migrates it and creates root first), then reused. */
async function seedFile(deps: CleanupDeps): Promise<{ path: string; end: number }> {
  const meta = `${SEED}.json`;
  if (existsSync(SEED) && existsSync(meta)) {
    const m = JSON.parse(readFileSync(meta, 'utf8')) as { rows: number; end: number };
    if (m.rows === ROWS) return { path: SEED, end: m.end };
  }
  mkdirSync(dirname(SEED), { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-cleanup-seed-'));
  const path = join(dir, 'bench.db');
  try {
    const node = await deps.startNode({ DATA_DIR: dir, SQLITE_PATH: path, SQL_DSN: '', NODE_TYPE: 'master' });
    await stop(node.child);
    const end = Math.floor(Date.now() / 1000) - 60;
    const t0 = performance.now();
    const handle = await openDb({ sqlitePath: path });
    await seedBig(handle.db, { ...BIG_SIZE, logs: ROWS, now: end });
    sqliteHandle(handle.db)!.pragma('wal_checkpoint(TRUNCATE)');
    await handle.close();
    console.log(`seeded ${ROWS} log rows over 90 days into ${SEED} in ${((performance.now() - t0) / 1000).toFixed(1)} s (kept for the next runs)`);
    renameSync(path, SEED);
    writeFileSync(meta, JSON.stringify({ rows: ROWS, end }));
    return { path: SEED, end };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const edits = (xs: number[]) => (xs.length ? `median ${median(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} edits)` : 'none');
const line = (what: string, r: LoadResult) => `${what.padEnd(30)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}${r.errors ? `  (${r.errors} errors)` : ''}`;

/**
 * Relay load in one-second slices while `work` runs, with a balance edit of `user` (add 1, then
 * take it back: the balance ends as it began) every `everyMs`; answers the load and the edits' times.
 */
async function loadWith(gw: string, cookie: string, loader: Loader, user: number, until: () => boolean, everyMs = 1000): Promise<{ load: LoadResult; quota: number[]; put: number[] }> {
  const quota: number[] = [];
  const put: number[] = [];
  let sign = 1;
  let running = true;
  const editor = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (!running) break;
      quota.push((await call(gw, cookie, 'POST', `/api/user/quota/${user}`, { quota: sign * 1000, remark: 'bench' })).ms);
      sign = -sign;
      put.push((await call(gw, cookie, 'PUT', '/api/user/', { id: user, display_name: `bench ${quota.length}` })).ms);
    }
  })();
  while (!until()) await loader.run(1);
  running = false;
  await editor;
  return { load: await loader.close(), quota, put };
}

async function bodyFor(gw: string, fakeUrl: string, deps: CleanupDeps) {
  const key = await deps.configure(gw, fakeUrl);
  const cookie = await login(gw, deps.password);
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 20 });
  const target = { origin: gw, path: '/v1/chat/completions', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } };
  const warm = new Loader(target, CONCURRENCY);
  await warm.run(2);
  await warm.close();
  // An ordinary user to edit: root itself (id of the login) is fine for the timing, but a real edit targets someone else.
  const users = (await call(gw, cookie, 'GET', '/api/user/?p=1&size=5')).data as { data: Array<{ id: number; role: number }> };
  const user = users.data.find((u) => u.role < 100)?.id ?? users.data[0].id;
  return { cookie, target, user };
}

const after = (seconds: number) => {
  const end = performance.now() + seconds * 1000;
  return () => performance.now() >= end;
};

export async function benchCleanup(deps: CleanupDeps, fakeUrl: string): Promise<void> {
  const seed = await seedFile(deps);
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-cleanup-'));
  const path = join(dir, 'bench.db');
  const nodes: ChildProcess[] = [];
  try {
    copyFileSync(seed.path, path);
    const node = await deps.startNode({ DATA_DIR: dir, SQLITE_PATH: path, SQL_DSN: '', NODE_TYPE: 'master' });
    nodes.push(node.child);
    const gw = node.url;
    const { cookie, target, user } = await bodyFor(gw, fakeUrl, deps);
    const alone = await loadWith(gw, cookie, new Loader(target, CONCURRENCY), user, after(SECONDS));

    const cutoff = seed.end - 30 * DAY;
    let wal = 0;
    const walPath = `${path}-wal`;
    const sizeBefore = statSync(path).size;
    const t0 = performance.now();
    const started = await call(gw, cookie, 'DELETE', `/api/log/?target_timestamp=${cutoff}&background=true`);
    const job = started.data as { id: number };
    let done: { deleted: number; error?: string } | undefined;
    let lastPoll = 0;
    const polled: Array<[number, number]> = [];
    const following = (async () => {
      while (!done && performance.now() - t0 < GIVE_UP_SECONDS * 1000) {
        await new Promise((r) => setTimeout(r, 500));
        if (existsSync(walPath)) wal = Math.max(wal, statSync(walPath).size);
        const p = (await call(gw, cookie, 'GET', `/api/log/deletion/${job.id}`)).data as { done: boolean; deleted: number; error: string };
        lastPoll = p.deleted;
        polled.push([(performance.now() - t0) / 1000, p.deleted]);
        if (p.error) throw new Error(`log deletion failed: ${p.error}`);
        if (p.done) done = p;
      }
    })();
    let failed: unknown;
    following.catch((e: unknown) => (failed = e));
    const during = await loadWith(gw, cookie, new Loader(target, CONCURRENCY), user, () => failed !== undefined || done !== undefined || performance.now() - t0 >= GIVE_UP_SECONDS * 1000, 2000);
    await following.catch(() => undefined);
    if (failed) throw failed;
    const seconds = (performance.now() - t0) / 1000;
    const deleted = done?.deleted ?? lastPoll;

    console.log(`\nlog clean-up: ${deleted} consumption rows older than 30 days of ${ROWS} (file ${(sizeBefore / 1e6).toFixed(0)} MB → ${(statSync(path).size / 1e6).toFixed(0)} MB)`);
    console.log(`  DELETE answered in ${started.ms.toFixed(0)} ms with job ${job.id}; ${done ? 'finished' : 'NOT finished (gave up)'} after ${seconds.toFixed(1)} s: ${(deleted / seconds).toFixed(0)} rows/s; largest WAL seen ${(wal / 1e6).toFixed(1)} MB`);
    const marks = polled.filter((_, i) => i % Math.max(1, Math.round(polled.length / 6)) === 0).map(([s, n]) => `${s.toFixed(0)} s ${n}`);
    console.log(`  progress: ${marks.join(', ')}`);
    console.log(`\nrelay (JSON, concurrency ${CONCURRENCY})   req/s   p50 ms   p99 ms`);
    console.log(line('alone', alone.load));
    console.log(line('during the clean-up', during.load));
    console.log(`p99 ratio ${(during.load.p99 / alone.load.p99).toFixed(2)}× (target ≤ 2×)`);
    console.log(`\nbalance edit (sqlite), POST /api/user/quota/:id: alone ${edits(alone.quota)}; during the clean-up ${edits(during.quota)}`);
    console.log(`user edit (sqlite), PUT /api/user/: alone ${edits(alone.put)}; during the clean-up ${edits(during.put)}`);
  } finally {
    await Promise.all(nodes.map((n) => stop(n)));
    rmSync(dir, { recursive: true, force: true });
  }

  for (const name of SERVERS) {
    const storage = parseStorage(name)[0];
    const db = await provision(storage);
    const sdir = mkdtempSync(join(tmpdir(), 'one-hub-cleanup-'));
    let child: ChildProcess | undefined;
    try {
      const node = await deps.startNode({ DATA_DIR: sdir, SQLITE_PATH: join(sdir, 'unused.db'), ...db.env, NODE_TYPE: 'master' });
      child = node.child;
      const { cookie, target, user } = await bodyFor(node.url, fakeUrl, deps);
      const r = await loadWith(node.url, cookie, new Loader(target, CONCURRENCY), user, after(SECONDS), 500);
      console.log(`\n${name} relay ×${CONCURRENCY}: ${line('', r.load).trim()}`);
      console.log(`balance edit (${name}), POST /api/user/quota/:id under the load: ${edits(r.quota)}; PUT /api/user/: ${edits(r.put)}`);
    } finally {
      if (child) await stop(child);
      await db.drop();
      rmSync(sdir, { recursive: true, force: true });
    }
  }
}
