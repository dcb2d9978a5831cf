// `npm run bench`: gateway overhead against a fake upstream, on this machine, loopback only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Loader } from './load.js';

const here = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
// Direct and gateway load alternate in slices this long, so a host whose speed drifts from
// second to second (a shared machine) slows both sides alike instead of skewing the ratio.
const SLICE_SECONDS = 0.5;
// Each side first serves this long unmeasured, so the figures are the steady state and not
// the JIT compiling the request path (on 2 cores its compiler thread competes for the CPU).
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,50,200').split(',').map(Number);
// BENCH_MODES=json or =stream runs one mode only (handy with BENCH_PROFILE).
const MODES = (process.env.BENCH_MODES ?? 'json,stream').split(',').map((m) => m.trim() === 'stream');
const PASSWORD = 'bench-password-1';

function start(script: string, env: Record<string, string>, readyText: RegExp, nodeArgs: string[] = ['--import', 'tsx']): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    // BENCH_GATEWAY_LOG=file keeps the processes' output (e.g. with BENCH_NODE_FLAGS=--trace-gc).
    if (process.env.BENCH_GATEWAY_LOG) child.stdout!.pipe(createWriteStream(process.env.BENCH_GATEWAY_LOG, { flags: 'a' }));
    child.stdout!.on('data', (d) => {
      out += String(d);
      const match = readyText.exec(out);
      if (match) resolve({ child, line: match[0] });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}

async function api(base: string, path: string, init: RequestInit & { cookie?: string } = {}) {
  const res = await fetch(`${base}${path}`, { ...init, headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}) } });
  return { res, json: (await res.json()) as any };
}

/** VmRSS (now) or VmHWM (peak) of a process, in MB. */
function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : NaN;
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-bench-'));
  const upstream = await start(join(here, 'fake-upstream.ts'), {}, /http:\/\/127\.0\.0\.1:\d+/);
  const fakeUrl = upstream.line;
  const port = String(20000 + Math.floor(Math.random() * 20000));
  // The gateway runs as `npm start` runs it: the compiled bundle.
  const built = spawnSync(process.execPath, [join(here, '../../../scripts/build-server.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('server build failed');
  const gateway = await start(
    join(here, '../dist/main.mjs'),
    { PORT: port, HOST: '127.0.0.1', DATA_DIR: dir, SQLITE_PATH: join(dir, 'bench.db'), INITIAL_ROOT_PASSWORD: PASSWORD, LOG_LEVEL: 'info', GLOBAL_API_RATE_LIMIT: '0', CRITICAL_RATE_LIMIT: '0', SQL_DSN: '' },
    /listening/,
    // BENCH_PROFILE=dir writes a V8 CPU profile of the gateway there (open it in Chrome DevTools).
    // --enable-source-maps as scripts/start.mjs runs it.
    ['--enable-source-maps', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []), ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])],
  );
  const gw = `http://127.0.0.1:${port}`;
  try {
    const login = await api(gw, '/api/user/login', { method: 'POST', body: JSON.stringify({ username: 'root', password: PASSWORD }) });
    const cookie = String(login.res.headers.get('set-cookie')).split(';')[0];
    await api(gw, '/api/user_group/', { method: 'PUT', cookie, body: JSON.stringify({ id: 1, name: 'default', ratio: 1, api_rate: 1_000_000, public: true }) });
    await api(gw, '/api/channel/', { method: 'POST', cookie, body: JSON.stringify({ type: 1, name: 'bench', key: 'bench-key', base_url: fakeUrl, models: 'gpt-4o-mini', group: 'default' }) });
    await api(gw, '/api/token/', { method: 'POST', cookie, body: JSON.stringify({ name: 'bench', unlimited_quota: true }) });
    const tokens = await api(gw, '/api/token/', { cookie });
    const key = `sk-${tokens.json.data.data[0].key}`;

    const prompt = Array.from({ length: 1000 }, (_, i) => `word${i % 97}`).join(' '); // ≈1000 tokens
    const rows: string[] = [];
    const header = 'mode     conc  direct rps  gateway rps  ratio   direct p50/p99 ms   gateway p50/p99 ms   added p50 ms  gw CPU µs/req';
    for (const stream of MODES) {
      for (const concurrency of CONCURRENCY) {
        const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) });
        const path = '/v1/chat/completions';
        const toFake = new Loader({ origin: fakeUrl, path, body, headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' } }, concurrency);
        const toGateway = new Loader({ origin: gw, path, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } }, concurrency);
        for (const target of [toFake, toGateway].map((l) => l.target)) {
          const warmup = new Loader(target, concurrency);
          await warmup.run(WARMUP_SECONDS);
          await warmup.close();
        }
        let gatewayCpu = 0;
        for (let slice = 0; slice < Math.max(1, Math.round(SECONDS / SLICE_SECONDS)); slice++) {
          await toFake.run(SLICE_SECONDS);
          const cpuBefore = cpuSeconds(gateway.child.pid!);
          await toGateway.run(SLICE_SECONDS);
          gatewayCpu += cpuSeconds(gateway.child.pid!) - cpuBefore;
        }
        const direct = await toFake.close();
        const viaGw = await toGateway.close();
        const cpuPerRequest = (gatewayCpu / viaGw.requests) * 1e6;
        const line = [
          (stream ? 'stream' : 'json').padEnd(8),
          String(concurrency).padStart(4),
          direct.rps.toFixed(0).padStart(11),
          viaGw.rps.toFixed(0).padStart(12),
          `${((viaGw.rps / direct.rps) * 100).toFixed(0)}%`.padStart(6),
          `${direct.p50.toFixed(2)}/${direct.p99.toFixed(2)}`.padStart(20),
          `${viaGw.p50.toFixed(2)}/${viaGw.p99.toFixed(2)}`.padStart(21),
          (viaGw.p50 - direct.p50).toFixed(2).padStart(14),
          cpuPerRequest.toFixed(0).padStart(11),
          viaGw.errors ? `  (${viaGw.errors} errors)` : '',
        ].join(' ');
        rows.push(line);
        console.log(line);
      }
    }
    console.log(`\n${header}\n${rows.join('\n')}`);
    const pid = gateway.child.pid!;
    console.log(`\ngateway RSS after load: ${rssMb(pid)} MB (peak during load ${rssMb(pid, 'VmHWM')} MB)`);
    await new Promise((r) => setTimeout(r, 10_000));
    console.log(`gateway RSS 10 s after load: ${rssMb(pid)} MB`);
  } finally {
    gateway.child.kill('SIGTERM');
    upstream.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
