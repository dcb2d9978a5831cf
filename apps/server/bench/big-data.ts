// `BENCH_BIGDATA=1 npm run bench`: the relay's p99 on SQLite alone, while the console's heavy
// queries run, and while a million-row log deletion runs; plus the slowest console queries
// (issue 25.2 and 25.6). Seeds the operator-sized database of seed-big (BENCH_LOG_ROWS log rows
// over 90 days) first.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, sqliteHandle } from '../src/db/index.js';
import { request } from 'undici';
import { Loader, type LoadResult } from './load.js';
import { BIG_SIZE, SEED_MODELS, seedBig, seedTokenName } from './seed-big.js';
import { stop } from './procs.js';

const DAY = 86_400;
const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 2_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_BIGDATA_CONCURRENCY ?? 20);

export interface BigDataDeps {
  startNode(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }>;
  configure(gw: string, fakeUrl: string): Promise<string>;
  password: string;
}

interface Timed {
  name: string;
  path: string;
  method?: string;
  worst: number;
  runs: number;
}

async function login(gw: string, password: string): Promise<string> {
  const res = await fetch(`${gw}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password }) });
  return String(res.headers.get('set-cookie')).split(';')[0];
}

/** One console call, timed; no client timeout (a 90-day query on a big file may take minutes). */
async function timed(gw: string, cookie: string, q: Timed): Promise<unknown> {
  const t0 = performance.now();
  const res = await request(`${gw}${q.path}`, { method: (q.method ?? 'GET') as 'GET', headers: { cookie }, headersTimeout: 0, bodyTimeout: 0 });
  const body = (await res.body.json()) as { success?: boolean; data?: unknown; message?: string };
  const ms = performance.now() - t0;
  q.worst = Math.max(q.worst, ms);
  q.runs++;
  if (res.statusCode !== 200) throw new Error(`${q.path}: ${res.statusCode} ${body.message ?? ''}`);
  return body.data;
}

/** A background log deletion, followed to its end through its progress record; answers the rows deleted. */
async function deleteInBackground(gw: string, cookie: string, q: Timed): Promise<number> {
  const t0 = performance.now();
  const job = (await timed(gw, cookie, q)) as { id: number };
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const p = (await timed(gw, cookie, { name: 'progress', path: `/api/log/deletion/${job.id}`, worst: 0, runs: 0 })) as { done: boolean; deleted: number; error: string };
    if (p.error) throw new Error(`log deletion failed: ${p.error}`);
    if (p.done) {
      q.worst = performance.now() - t0;
      return p.deleted;
    }
  }
}

const line = (what: string, r: LoadResult) =>
  `${what.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}${r.errors ? `  (${r.errors} errors)` : ''}`;

export async function benchBigData(deps: BigDataDeps, fakeUrl: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-bigdata-'));
  const path = join(dir, 'bench.db');
  const nodes: ChildProcess[] = [];
  try {
    const now = Math.floor(Date.now() / 1000);
    // The node first, on the empty file: it migrates it and creates root; then the seed is
    // written beside it (the node is idle until the load starts).
    const node = await deps.startNode({ DATA_DIR: dir, SQLITE_PATH: path, SQL_DSN: '', NODE_TYPE: 'master' });
    nodes.push(node.child);
    const t0 = performance.now();
    const handle = await openDb({ sqlitePath: path });
    await seedBig(handle.db, { ...BIG_SIZE, logs: ROWS, now: now - 60 });
    sqliteHandle(handle.db)!.pragma('wal_checkpoint(TRUNCATE)');
    await handle.close();
    console.log(`seeded ${ROWS} log rows over 90 days (${BIG_SIZE.users} users, ${BIG_SIZE.tokens} tokens) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const key = await deps.configure(node.url, fakeUrl);
    const cookie = await login(node.url, deps.password);
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 20 });
    const target = { origin: node.url, path: '/v1/chat/completions', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } };
    const load = async (seconds: number) => {
      const l = new Loader(target, CONCURRENCY);
      await l.run(seconds);
      return l.close();
    };
    /** Relay load in one-second slices until `work` settles; its failure is thrown after. */
    const loadWhile = async (work: Promise<unknown>) => {
      const l = new Loader(target, CONCURRENCY);
      let finished = false;
      const settled = work.finally(() => (finished = true));
      settled.catch(() => undefined);
      while (!finished) await l.run(1);
      await settled;
      return l.close();
    };
    await load(2); // warm-up

    const alone = await load(SECONDS);

    const queries: Timed[] = (
      [
        { name: 'analytics/period 90 days by channel, top 12', path: `/api/analytics/period?start_timestamp=${now - 90 * DAY}&end_timestamp=${now}&group_type=channel&top=12` }, // as the console asks
        { name: 'log list, default view', path: '/api/log/?page=1&size=10' },
        { name: 'log list by token name', path: `/api/log/?page=1&size=10&token_name=${seedTokenName(42)}` },
        { name: 'log list by model', path: `/api/log/?page=1&size=10&model_name=${SEED_MODELS[7]}` },
        { name: 'log list sorted by quota', path: '/api/log/?page=1&size=10&order=-quota' },
        { name: 'log stat 90 days', path: `/api/log/stat?start_timestamp=${now - 90 * DAY}&end_timestamp=${now}` },
      ] as Array<Pick<Timed, 'name' | 'path'>>
    ).map((q) => ({ ...q, worst: 0, runs: 0 }));
    // The console's queries in a loop (every one at least once, for at least BENCH_SECONDS),
    // the relay loaded in one-second slices until the loop ends.
    const until = performance.now() + SECONDS * 1000;
    const duringConsole = await loadWhile(
      (async () => {
        do for (const q of queries) await timed(node.url, cookie, q);
        while (performance.now() < until);
      })(),
    );

    // Consumption rows older than 45 days: 45 % of the seed (900 000 rows at the full size).
    const deletion: Timed = { name: 'DELETE /api/log/ (older than 45 days)', path: `/api/log/?target_timestamp=${now - 45 * DAY}&background=true`, method: 'DELETE', worst: 0, runs: 0 };
    let deleted = 0;
    const duringDeletion = await loadWhile(deleteInBackground(node.url, cookie, deletion).then((n) => (deleted = n)));

    console.log(`\nrelay (JSON, concurrency ${CONCURRENCY})       req/s  p50 ms   p99 ms`);
    console.log(line('alone', alone));
    console.log(line('during console queries', duringConsole));
    console.log(line(`during deletion of ${deleted} rows`, duringDeletion));
    console.log(`p99 ratio: console ${(duringConsole.p99 / alone.p99).toFixed(2)}×, deletion ${(duringDeletion.p99 / alone.p99).toFixed(2)}× (target ≤ 2×)`);
    console.log('\nconsole queries while the relay ran, slowest first      worst ms  runs');
    for (const q of [...queries, deletion].sort((a, b) => b.worst - a.worst)) console.log(`${q.name.padEnd(52)} ${q.worst.toFixed(0).padStart(9)} ${String(q.runs).padStart(5)}`);
  } finally {
    await Promise.all(nodes.map((n) => stop(n)));
    rmSync(dir, { recursive: true, force: true });
  }
}
