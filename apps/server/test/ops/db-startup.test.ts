import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomAlnum } from '../../src/common/random.js';
import { GATEWAY_ARGS, SERVER_DIR, gatewayProcessEnv } from '../gateway-process.js';
import { TcpProxy, closedPort } from '../tcp-proxy.js';

const PG_DSN = process.env.TEST_POSTGRES_DSN;
const PASSWORD = 'startup-root-password';
const DB_PASSWORD = 'db-secret-8c41';

/** The gateway as its own process; `out` collects stdout and stderr apart. */
function start(dir: string, env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, GATEWAY_ARGS, { cwd: SERVER_DIR, env: { ...process.env, ...gatewayProcessEnv(dir, PASSWORD), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (out.stdout += String(d)));
  child.stderr!.on('data', (d) => (out.stderr += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves once stdout matches `pattern`; rejects if the process ends first. */
  const printed = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => pattern.test(out.stdout) && resolve();
      child.stdout!.on('data', check);
      check();
      void exited.then((code) => reject(new Error(`the gateway exited (${code}) before printing ${pattern}: ${out.stdout.slice(-1500)}${out.stderr.slice(-1500)}`)));
    });
  return { child, out, exited, printed };
}

describe('a database server that is not up at start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-dbstart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['postgres', (port: number) => `postgres://hub:${DB_PASSWORD}@127.0.0.1:${port}/hub`],
    ['mysql', (port: number) => `hub:${DB_PASSWORD}@tcp(127.0.0.1:${port})/hub`],
  ])('%s: is retried for DB_CONNECT_TIMEOUT_SECONDS, then one line naming host:port (no password) and exit 1', async (_name, dsn) => {
    const port = await closedPort();
    const started = Date.now();
    const run = start(dir, { SQL_DSN: dsn(port), DB_CONNECT_TIMEOUT_SECONDS: '1.5' });
    await run.printed(/not reachable yet/);
    expect(await run.exited).toBe(1);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(15_000);
    const lines = run.out.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`127.0.0.1:${port}`);
    expect(lines[0]).toContain('not reachable after 1.5 s');
    expect(run.out.stdout + run.out.stderr).not.toContain(DB_PASSWORD);
  }, 30_000);
});

if (!PG_DSN) console.warn('skipping the database-comes-up start: TEST_POSTGRES_DSN is not set');

describe.skipIf(!PG_DSN)('a PostgreSQL server that comes up during the retry window', () => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-dbstart-'));
  const database = `s_${randomAlnum(10).toLowerCase()}`;
  let proxy: TcpProxy;
  let run: ReturnType<typeof start> | undefined;

  afterAll(async () => {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGTERM');
      await run.exited;
    }
    await proxy?.close();
    const admin = new pg.Client({ connectionString: PG_DSN });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is waited for: the node starts once it accepts connections', async () => {
    const admin = new pg.Client({ connectionString: PG_DSN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const real = new URL(PG_DSN!);
    proxy = await TcpProxy.reserve({ host: real.hostname, port: Number(real.port || 5432) });
    const dsn = new URL(PG_DSN!);
    dsn.host = `127.0.0.1:${proxy.port}`;
    dsn.pathname = `/${database}`;
    run = start(dir, { SQL_DSN: dsn.toString(), DB_CONNECT_TIMEOUT_SECONDS: '30' });
    await run.printed(/not reachable yet/);
    await proxy.open();
    await run.printed(/listening on http/);
    const port = /listening on http:\/\/localhost:(\d+)/.exec(run.out.stdout)![1];
    const status = (await (await fetch(`http://127.0.0.1:${port}/api/status`)).json()) as { success: boolean };
    expect(status.success).toBe(true);
    expect(run.out.stderr).toBe('');
  }, 60_000);
});
