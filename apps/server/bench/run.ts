// `npm run bench`: gateway overhead against a fake upstream, on this machine, loopback only.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Loader } from './load.js';
import { cpuSeconds, ExitedBeforeReady, processTree, rssMb, start, stop } from './procs.js';
import { parseStorage, provision, withWorkers, type Storage } from './storage.js';
import { nginxBinary, startNginx } from './nginx.js';
import { benchBigData } from './big-data.js';
import { benchCleanup } from './cleanup.js';
import { openDb, sqliteHandle } from '../src/db/index.js';
import { seedBig, seedTokenKey } from './seed-big.js';
import { progressLine } from '../src/common/cli-args.js';

const here = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
// Direct and gateway load alternate in slices this long, so a host whose speed drifts from
// second to second (a shared machine) slows both sides alike instead of skewing the ratio.
const SLICE_SECONDS = 0.5;
// Each side first serves this long unmeasured, so the figures are the steady state and not
// the JIT compiling the request path (on 2 cores its compiler thread competes for the CPU).
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const concurrencies = (list: string) => list.split(',').map(Number);
// SQLite runs at BENCH_CONCURRENCY, the database-server configurations at BENCH_SERVER_CONCURRENCY.
const CONCURRENCY = concurrencies(process.env.BENCH_CONCURRENCY ?? '1,50,200');
const SERVER_CONCURRENCY = concurrencies(process.env.BENCH_SERVER_CONCURRENCY ?? '50');
// BENCH_MODES=json or =stream runs one mode only (handy with BENCH_PROFILE).
const MODES = (process.env.BENCH_MODES ?? 'json,stream').split(',').map((m) => m.trim() === 'stream');
// BENCH_STORAGE=sqlite,postgres+redis,mysql+redis,postgres+redis*2: the configurations to load, in turn;
// BENCH_WORKERS=1,2,4 runs each gateway configuration with that many worker processes (WORKERS).
const STORAGE = withWorkers(parseStorage(process.env.BENCH_STORAGE ?? 'sqlite'), process.env.BENCH_WORKERS ? concurrencies(process.env.BENCH_WORKERS) : undefined);
// BENCH_USERS=1,1000,5000: each load is also spread over that many users, one token each (seeded), key by key in turn.
const USERS = process.env.BENCH_USERS ? concurrencies(process.env.BENCH_USERS) : undefined;
const PASSWORD = 'bench-password-1';
const PROMPT = Array.from({ length: 1000 }, (_, i) => `word${i % 97}`).join(' '); // ≈1000 tokens

interface Row {
  storage: string;
  workers: number;
  stream: boolean;
  concurrency: number;
  users: number;
  line: string;
}

/** Where the run is, on stderr: one updating line on a terminal, plain lines otherwise. */
const progress = progressLine();

/** Clean-ups of the configuration under load, run by the finally below or, on Ctrl-C, by the signal handler. */
const cleanups = new Set<() => Promise<void>>();

async function api(base: string, path: string, init: RequestInit & { cookie?: string } = {}) {
  const res = await fetch(`${base}${path}`, { ...init, headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}) } });
  return { res, json: (await res.json()) as any };
}

// BENCH_PROFILE=dir writes a V8 CPU profile of each gateway node (and of the floor proxy) there (open it in Chrome DevTools).
const PROFILE_FLAGS = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];

/** A random port below Linux's ephemeral range (32768+), where no outgoing connection can hold it. */
const listenPort = () => String(20_000 + Math.floor(Math.random() * 12_000));

/** The gateway's node flags, as scripts/start.mjs and the Dockerfile run it. */
const GATEWAY_NODE_FLAGS = JSON.parse(readFileSync(join(here, '../node-flags.json'), 'utf8')) as string[];

/** Starts one gateway node (the compiled bundle, as `npm start` runs it) and answers its base URL. */
async function startNode(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = listenPort();
  const { child } = await start(
    join(here, '../dist/main.mjs'),
    { PORT: port, HOST: '127.0.0.1', INITIAL_ROOT_PASSWORD: PASSWORD, LOG_LEVEL: 'info', GLOBAL_API_RATE_LIMIT: '0', CRITICAL_RATE_LIMIT: '0', ...env },
    // A node of several workers is ready when the primary says all of them listen.
    env.WORKERS && env.WORKERS !== '1' ? /serving with \d+ worker processes/ : /listening/,
    [...GATEWAY_NODE_FLAGS, ...PROFILE_FLAGS, ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])],
  );
  return { child, url: `http://127.0.0.1:${port}` };
}

/** The least Node proxy (bench/floor-proxy.ts) in the gateway's place, for the `floor` configuration. */
async function startFloor(fakeUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const port = listenPort();
  const { child } = await start(join(here, 'floor-proxy.ts'), { PORT: port, FLOOR_UPSTREAM: fakeUrl }, /listening/, ['--import', 'tsx', ...PROFILE_FLAGS]);
  return { child, url: `http://127.0.0.1:${port}` };
}

const BENCH_LIMITS = { rpm: 100_000_000, tpm: 1e12, max_inflight: 100_000, daily_quota: 1e12, monthly_quota: 1e12 };

/** Root's channel to the fake upstream and an unlimited token, through the console API; answers the token key. */
async function configure(gw: string, fakeUrl: string): Promise<string> {
  const login = await api(gw, '/api/user/login', { method: 'POST', body: JSON.stringify({ username: 'root', password: PASSWORD }) });
  const cookie = String(login.res.headers.get('set-cookie')).split(';')[0];
  await api(gw, '/api/user_group/', { method: 'PUT', cookie, body: JSON.stringify({ id: 1, name: 'default', ratio: 1, api_rate: 1_000_000, public: true }) });
  await api(gw, '/api/option/', { method: 'PUT', cookie, body: JSON.stringify({ key: 'FetchAllowPrivateNetworks', value: 'true' }) }); // the fake is on loopback
  await api(gw, '/api/channel/', { method: 'POST', cookie, body: JSON.stringify({ type: 1, name: 'bench', key: 'bench-key', base_url: fakeUrl, models: 'gpt-4o-mini', group: 'default' }) });
  // BENCH_TOKEN_LIMITS=1 gives the token every request limit, set far above the load, to price the limit checks.
  const token: Record<string, unknown> = { name: 'bench', unlimited_quota: true };
  if (process.env.BENCH_TOKEN_LIMITS) token.limits = { limit_model_setting: { enabled: false, models: [] }, limits_ip_setting: { enabled: false, whitelist: [] }, request_limits: BENCH_LIMITS };
  const made = await api(gw, '/api/token/', { method: 'POST', cookie, body: JSON.stringify(token) });
  if (!made.json.success) throw new Error(`bench token refused: ${made.json.message}`);
  const tokens = await api(gw, '/api/token/', { cookie });
  return `sk-${tokens.json.data.data[0].key}`;
}

/** The first start of a configuration the gateway refuses (e.g. WORKERS on a storage it cannot share): its reason, one line. */
function refusal(error: unknown): string | undefined {
  if (!(error instanceof ExitedBeforeReady)) return undefined;
  const lines = error.said.trim().split('\n').filter(Boolean);
  return lines.at(-1) ?? 'it exited before it listened';
}

/** Every mode and concurrency against one storage configuration, each beside the direct figures. */
async function benchStorage(storage: Storage, fakeUrl: string, rows: Row[]): Promise<void> {
  const nginx = storage.proxy === 'nginx' ? nginxBinary() : undefined;
  if (storage.proxy === 'nginx' && !nginx) return void console.log('nginx: skipped, no nginx binary on PATH or in /usr/sbin (Debian: apt-get install nginx-light)');
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-bench-'));
  const db = storage.proxy ? { env: {}, drop: async () => {} } : await provision(storage);
  const env = { DATA_DIR: dir, SQLITE_PATH: join(dir, 'bench.db'), ...db.env };
  const nodes: Array<{ child: ChildProcess; url: string; remove?: () => void }> = [];
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await Promise.all(nodes.map((n) => stop(n.child)));
      for (const n of nodes) n.remove?.();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
      cleanups.delete(cleanup);
    })());
  cleanups.add(cleanup);
  try {
    let key = 'floor';
    progress.update(`${storage.name}: starting`, true);
    if (storage.proxy === 'floor') nodes.push(await startFloor(fakeUrl));
    else if (nginx) nodes.push(await startNginx(nginx, Number(listenPort()), fakeUrl));
    else {
      // The first node migrates, seeds and is configured; the others join afterwards as slaves.
      const workers = { WORKERS: String(storage.workers) };
      try {
        nodes.push(await startNode({ ...env, ...workers, NODE_TYPE: 'master' }));
      } catch (error) {
        const reason = refusal(error);
        if (!reason) throw error;
        progress.clear();
        return void console.log(`${storage.name}: skipped, the gateway refused to start: ${reason}`);
      }
      key = await configure(nodes[0].url, fakeUrl);
      for (let i = 1; i < storage.nodes; i++) nodes.push(await startNode({ ...env, ...workers, NODE_TYPE: 'slave' }));
    }
    // BENCH_USERS: the most users asked for are seeded once beside the idle node (users with a
    // large balance, one unlimited token each); a run over N users deals the first N keys in turn.
    let userKeys: string[] | undefined;
    if (USERS && !storage.proxy) {
      const most = Math.max(...USERS);
      const handle = await openDb({ dsn: db.env.SQL_DSN || undefined, sqlitePath: env.SQLITE_PATH });
      const t0 = performance.now();
      progress.update(`${storage.name}: seeding ${most} users`, true);
      await seedBig(handle.db, { users: most, tokens: most, channels: 0, logs: 0, days: 1 });
      sqliteHandle(handle.db)?.pragma('wal_checkpoint(TRUNCATE)');
      await handle.close();
      userKeys = Array.from({ length: most }, (_, j) => `sk-${seedTokenKey(j)}`);
      progress.clear();
      console.log(`${storage.name}: seeded ${most} users, one token each, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    // A node of several workers is its primary and their processes: each is measured.
    const pids = nodes.flatMap((n) => processTree(n.child.pid!));
    const gatewayCpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    for (const stream of MODES) {
      for (const concurrency of storage.dialect === 'sqlite' ? CONCURRENCY : SERVER_CONCURRENCY) {
        for (const users of userKeys ? USERS! : [1]) {
          const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) });
          const path = '/v1/chat/completions';
          const toFake = new Loader({ origin: fakeUrl, path, body, headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' } }, concurrency);
          const keys = userKeys?.slice(0, users);
          const toGateway = new Loader({ origin: nodes.map((n) => n.url), path, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, keys }, concurrency);
          const cell = `${storage.name} ${stream ? 'stream' : 'json'} ×${concurrency}${userKeys ? `, ${users} users` : ''}`;
          progress.update(`${cell}: warming up`, true);
          // Every user is active before the measurement: the warm-up reaches each key at least twice,
          // so a cell measures users that come back (cached caller, a slice kept), not first requests.
          for (const target of [toFake, toGateway].map((l) => l.target)) {
            const warmup = new Loader(target, concurrency);
            await warmup.run(WARMUP_SECONDS, 2 * (target.keys?.length ?? 0));
            await warmup.close();
          }
          let cpu = 0;
          const slices = Math.max(1, Math.round(SECONDS / SLICE_SECONDS));
          for (let slice = 0; slice < slices; slice++) {
            progress.update(`${cell}: measuring ${slice + 1}/${slices}`);
            await toFake.run(SLICE_SECONDS);
            const cpuBefore = gatewayCpu();
            await toGateway.run(SLICE_SECONDS);
            cpu += gatewayCpu() - cpuBefore;
          }
          const direct = await toFake.close();
          const viaGw = await toGateway.close();
          const line = [
            storage.name.padEnd(18),
            String(storage.workers).padStart(7),
            (stream ? 'stream' : 'json').padEnd(7),
            String(concurrency).padStart(4),
            String(users).padStart(6),
            direct.rps.toFixed(0).padStart(11),
            viaGw.rps.toFixed(0).padStart(12),
            `${((viaGw.rps / direct.rps) * 100).toFixed(0)}%`.padStart(6),
            `${direct.p50.toFixed(2)}/${direct.p99.toFixed(2)}`.padStart(20),
            `${viaGw.p50.toFixed(2)}/${viaGw.p99.toFixed(2)}`.padStart(21),
            (viaGw.p50 - direct.p50).toFixed(2).padStart(14),
            ((cpu / viaGw.requests) * 1e6).toFixed(0).padStart(14),
            pids.map((pid) => rssMb(pid)).join('+').padStart(11),
            viaGw.errors ? `  (${viaGw.errors} errors)` : '',
          ].join(' ');
          rows.push({ storage: storage.name, workers: storage.workers, stream, concurrency, users, line });
          progress.clear();
          console.log(line);
        }
      }
    }
    const rss = (field: 'VmRSS' | 'VmHWM') => pids.map((pid) => rssMb(pid, field)).join('+');
    console.log(`${storage.name}: gateway RSS after load ${rss('VmRSS')} MB (peak during load ${rss('VmHWM')} MB)`);
    if (storage.proxy) return;
    progress.update(`${storage.name}: waiting 10 s for the RSS after load`, true);
    await new Promise((r) => setTimeout(r, 10_000));
    progress.clear();
    console.log(`${storage.name}: gateway RSS 10 s after load ${rss('VmRSS')} MB`);
  } finally {
    await cleanup();
  }
}

async function main() {
  const upstream = await start(join(here, 'fake-upstream.ts'), {}, /http:\/\/127\.0\.0\.1:\d+/);
  // Interrupted: stop the nodes and drop the run's database and Redis keys before leaving.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`${signal}: cleaning up`);
      void Promise.all([...cleanups].map((c) => c()))
        .then(() => stop(upstream.child))
        .finally(() => process.exit(130));
    });
  }
  try {
    if (!process.env.BENCH_PREBUILT) {
      progress.update('building the server', true);
      const built = spawnSync(process.execPath, [join(here, '../../../scripts/build-server.mjs')], { stdio: 'inherit' });
      if (built.status !== 0) throw new Error('server build failed');
    }
    if (process.env.BENCH_CLEANUP) {
      // The log clean-up of issue 37 point 2 under relay load, and balance edits beside it.
      await benchCleanup({ startNode, configure, password: PASSWORD }, upstream.line);
      return;
    }
    if (process.env.BENCH_BIGDATA) {
      // The big-data mode: relay p99 beside heavy console work on a seeded SQLite database.
      await benchBigData({ startNode, configure, password: PASSWORD }, upstream.line);
      return;
    }
    const rows: Row[] = [];
    for (const storage of STORAGE) await benchStorage(storage, upstream.line, rows);
    // Configurations side by side: grouped by mode and concurrency, in BENCH_STORAGE order within.
    rows.sort((a, b) => Number(a.stream) - Number(b.stream) || a.concurrency - b.concurrency || a.users - b.users);
    const header =
      'storage            workers mode    conc  users  direct rps  gateway rps  ratio   direct p50/p99 ms   gateway p50/p99 ms   added p50 ms  gw CPU µs/req  gw RSS MB';
    console.log(`\n${header}\n${rows.map((r) => r.line).join('\n')}`);
  } finally {
    await stop(upstream.child);
  }
}

main().catch((e) => {
  progress.clear();
  console.error(e);
  process.exit(1);
});
