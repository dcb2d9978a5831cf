import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, redisAvailable, startTestServer, type TestServer } from '../harness.js';

const stores: Array<['memory' | 'redis', boolean]> = [['memory', false]];
if (redisAvailable()) stores.push(['redis', true]);

describe.each(stores)('password login with the %s store', (_name, redis) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { redis });
    for (const username of ['owner', 'timing']) {
      const res = await new ApiClient(server.app).post('/api/user/register', { username, password: 'password123' });
      expect(res.body.success).toBe(true);
    }
  });
  afterAll(async () => server?.destroy());

  async function login(ip: string, username: string, password: string) {
    const res = await server.app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password }, remoteAddress: ip });
    return { status: res.statusCode, body: res.json() as { success: boolean; message: string } };
  }

  async function medianMs(run: () => Promise<unknown>, tries: number): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < tries; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(tries / 2)];
  }

  it('takes about as long for an unknown username as for a wrong password', async () => {
    let n = 0;
    // A new IP per try keeps the lock out of the measurement.
    const unknown = () => login(`10.1.0.${++n}`, `nobody${n}`, 'password123');
    const known = () => login(`10.2.0.${++n}`, 'timing', 'wrong-password');
    await unknown();
    await known();
    const unknownMs = await medianMs(unknown, 7);
    const knownMs = await medianMs(known, 7);
    // bcrypt at cost 10 takes tens of milliseconds; a skipped comparison takes well under one.
    expect(unknownMs).toBeGreaterThan(knownMs / 3);
    expect(knownMs).toBeGreaterThan(unknownMs / 3);
    expect((await unknown()).body.message).toBe((await known()).body.message);
  });

  it('locks one (account, IP) pair after five failures without locking the owner elsewhere', async () => {
    for (let i = 0; i < 5; i++) expect((await login('10.3.0.1', 'owner', 'wrong')).status).toBe(401);
    expect((await login('10.3.0.1', 'owner', 'wrong')).status).toBe(401);
    const blocked = await login('10.3.0.1', 'owner', 'password123');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/登录失败次数过多，请 \d+ 秒后再试/);
    // The e-mail or username spelling does not matter; another IP is unaffected.
    expect((await login('10.3.0.2', 'owner', 'password123')).status).toBe(200);
  });

  it('counts unknown usernames like known ones', async () => {
    for (let i = 0; i < 6; i++) expect((await login('10.4.0.1', 'ghost', 'wrong')).status).toBe(401);
    expect((await login('10.4.0.1', 'ghost', 'wrong')).status).toBe(429);
  });

  it('locks an account guessed from many IPs, except for the IP its owner signed in from', async () => {
    const res = await new ApiClient(server.app).post('/api/user/register', { username: 'target', password: 'password123' });
    expect(res.body.success).toBe(true);
    expect((await login('10.5.0.1', 'target', 'password123')).status).toBe(200);
    for (let i = 0; i < 50; i++) expect((await login(`10.6.${i >> 2}.${i}`, 'target', 'wrong')).status).toBe(401);
    const stranger = await login('10.7.0.1', 'target', 'password123');
    expect(stranger.status).toBe(429);
    expect(stranger.body.message).toMatch(/登录失败次数过多/);
    expect((await login('10.5.0.1', 'target', 'password123')).status).toBe(200);
  });
});
