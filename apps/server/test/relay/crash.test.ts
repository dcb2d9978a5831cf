import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FakeOpenAI } from '../fakes/openai-upstream.js';
import { GATEWAY_ARGS, SERVER_DIR, gatewayProcessEnv } from '../gateway-process.js';

const PASSWORD = 'crash-root-password';

/** The gateway as its own process (so it can be killed), listening on a free port. */
function startGateway(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, GATEWAY_ARGS, { cwd: SERVER_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (d: Buffer) => {
      out += String(d);
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ child, url: `http://127.0.0.1:${m[1]}` });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += String(d)));
    child.on('exit', (code) => reject(new Error(`gateway exited (${code}): ${out.slice(-2000)}`)));
  });
}

/** Pitfall "crash loses holds": after SIGKILL under load, quota plus used quota is what it was. */
describe('a gateway killed under load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-crash-'));
  const fake = new FakeOpenAI();
  const env = gatewayProcessEnv(dir, PASSWORD);
  let gateway: { child: ChildProcess; url: string } | undefined;

  beforeAll(async () => {
    await fake.start();
    fake.behave('crash-key', { delayMs: 30 });
  });
  afterAll(async () => {
    gateway?.child.kill('SIGKILL');
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const books = () => {
    const db = new Database(env.SQLITE_PATH, { readonly: true });
    try {
      const user = db.prepare('SELECT quota, used_quota FROM users WHERE username = ?').get('root') as { quota: number; used_quota: number };
      const leased = (db.prepare('SELECT COALESCE(SUM(amount), 0) AS n FROM quota_leases').get() as { n: number }).n;
      return { total: user.quota + user.used_quota, leased, used: user.used_quota };
    } finally {
      db.close();
    }
  };

  it('conserves quota exactly once the dead node\'s leases expire', async () => {
    gateway = await startGateway(env);
    const api = async (path: string, body?: unknown, cookie = '', method = body === undefined ? 'GET' : 'POST') => {
      const res = await fetch(`${gateway!.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { res, json: (await res.json()) as any };
    };
    const login = await api('/api/user/login', { username: 'root', password: PASSWORD });
    const cookie = String(login.res.headers.get('set-cookie')).split(';')[0];
    // The fake listens on loopback.
    expect((await api('/api/option/', { key: 'FetchAllowPrivateNetworks', value: 'true' }, cookie, 'PUT')).json.success).toBe(true);
    expect((await api('/api/channel/', { type: 1, name: 'crash', key: 'crash-key', base_url: fake.url, models: 'gpt-4o-mini', group: 'default' }, cookie)).json.success).toBe(true);
    expect((await api('/api/token/', { name: 'crash', unlimited_quota: true }, cookie)).json.success).toBe(true);
    const key = (await api('/api/token/', undefined, cookie)).json.data.data[0].key;
    const start = books().total;

    // Forty callers keep requests in flight until the process dies.
    let served = 0;
    let alive = true;
    const caller = async () => {
      while (alive) {
        const res = await fetch(`${gateway!.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}` },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 200 }),
        }).catch(() => undefined);
        if (res?.ok) served++;
        await res?.arrayBuffer().catch(() => undefined);
      }
    };
    const callers = Array.from({ length: 40 }, caller);
    await expect.poll(() => served, { timeout: 20_000, interval: 50 }).toBeGreaterThan(300);
    gateway.child.kill('SIGKILL');
    alive = false;
    await Promise.all(callers);

    // Killed: slices it had taken are out of the balance, recorded only in its lease rows.
    const dead = books();
    expect(dead.leased).toBeGreaterThan(0);
    expect(dead.total + dead.leased).toBe(start);

    gateway = await startGateway(env);
    await expect.poll(() => books().leased, { timeout: 15_000, interval: 200 }).toBe(0);
    const after = books();
    expect(after.total).toBe(start);
    expect(after.used).toBeGreaterThan(0);
  }, 60_000);
});
