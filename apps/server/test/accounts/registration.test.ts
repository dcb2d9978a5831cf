import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, redisAvailable, startTestServer, type TestServer } from '../harness.js';
import { issueCode } from '../../src/console/user/codes.js';

let servers: TestServer[] = [];
async function start(env: Record<string, string> = {}, redis = false) {
  const server = await startTestServer('sqlite', { env, redis });
  servers.push(server);
  const root = new ApiClient(server.app);
  await root.login('root', ROOT_PASSWORD);
  return { server, root, anon: new ApiClient(server.app) };
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.destroy()));
  servers = [];
});

describe('registration and invitations', () => {
  it('honours the register switches', async () => {
    const { root, anon } = await start();
    await root.put('/api/option/', { key: 'PasswordRegisterEnabled', value: 'false' });
    const closed = await anon.post('/api/user/register', { username: 'amy', password: 'password123' });
    expect(closed.status).toBe(403);
    expect(closed.body.message).toContain('管理员关闭了通过密码进行注册');
    await root.put('/api/option/', { key: 'PasswordRegisterEnabled', value: 'true' });
    await root.put('/api/option/', { key: 'RegisterEnabled', value: 'false' });
    expect((await anon.post('/api/user/register', { username: 'amy', password: 'password123' })).body.message).toBe('管理员关闭了新用户注册');
  });

  it('validates usernames and passwords and refuses duplicates', async () => {
    const { anon } = await start();
    expect((await anon.post('/api/user/register', { username: 'ab', password: 'password123' })).status).toBe(400);
    expect((await anon.post('/api/user/register', { username: 'abc', password: 'short' })).status).toBe(400);
    expect((await anon.post('/api/user/register', { username: 'abc', password: 'password123' })).body.success).toBe(true);
    expect((await anon.post('/api/user/register', { username: 'abc', password: 'password123' })).status).toBe(409);
  });

  it('requires a valid, single-use e-mail code when verification is on', async () => {
    const { server, root, anon } = await start();
    await root.put('/api/option/', { key: 'EmailVerificationEnabled', value: 'true' });
    const body = { username: 'mia', password: 'password123', email: 'mia@example.com' };
    expect((await anon.post('/api/user/register', body)).body.message).toContain('请输入邮箱地址和验证码');
    expect((await anon.post('/api/user/register', { ...body, verification_code: 'nope' })).body.message).toBe('验证码错误或已过期');
    const code = await issueCode(server.ctx.store, 'verify', 'mia@example.com');
    expect((await anon.post('/api/user/register', { ...body, verification_code: code })).body.success).toBe(true);
    const again = await anon.post('/api/user/register', { ...body, username: 'mia2', verification_code: code });
    expect(again.body.message).toBe('验证码错误或已过期');
  });

  it('grants new-user and invitee quota at sign-up and pays the inviter once, on the first top-up', async () => {
    const { root, anon } = await start();
    for (const [key, value] of [['QuotaForNewUser', '100'], ['QuotaForInvitee', '50'], ['QuotaForInviter', '30']]) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
    await anon.post('/api/user/register', { username: 'host', password: 'password123' });
    const host = new ApiClient(anon['app' as never]);
    await host.login('host', 'password123');
    const aff = (await host.get('/api/user/aff')).body.data;
    expect(aff).toMatch(/^[0-9a-zA-Z]{4}$/);
    await anon.post('/api/user/register', { username: 'guest', password: 'password123', aff_code: aff });
    const guest = new ApiClient(anon['app' as never]);
    await guest.login('guest', 'password123');
    const guestSelf = (await guest.get('/api/user/self')).body.data;
    expect(guestSelf.quota).toBe(150);
    expect((await host.get('/api/user/self')).body.data.quota).toBe(100); // nothing for an empty sign-up

    const keys = (await root.post('/api/redemption/', { name: 'gift', quota: 10, count: 2 })).body.data;
    await guest.post('/api/user/topup', { key: keys[0] });
    await guest.post('/api/user/topup', { key: keys[1] });
    const hostSelf = (await host.get('/api/user/self')).body.data;
    expect(hostSelf.quota).toBe(130);
    expect(hostSelf.aff_count).toBe(1);
    expect(hostSelf.aff_quota).toBe(30);
  });

  it('resets a password once through a mailed token', async () => {
    const { server, root, anon } = await start();
    await anon.post('/api/user/register', { username: 'forgetful', password: 'password123' });
    const user = (await root.get('/api/user/?keyword=forgetful')).body.data.data[0];
    await root.put('/api/user/', { id: user.id, email: 'forgetful@example.com' });
    expect((await anon.post('/api/user/reset', { email: 'forgetful@example.com', token: 'guess' })).body.message).toBe('重置链接非法或已过期');
    const token = await issueCode(server.ctx.store, 'reset', 'forgetful@example.com');
    const reset = await anon.post('/api/user/reset', { email: 'forgetful@example.com', token });
    expect(reset.body.success).toBe(true);
    const fresh = reset.body.data as string;
    expect(fresh).toMatch(/^[0-9a-f]{12}$/);
    await new ApiClient(server.app).login('forgetful', fresh);
    expect((await anon.post('/api/user/reset', { email: 'forgetful@example.com', token })).body.success).toBe(false); // single use
    const unknown = await anon.get('/api/reset_password?email=nobody@example.com');
    expect(unknown.status).toBe(404);
  });

  it('rate limits login attempts per IP with an empty 429', async () => {
    const { anon } = await start({ CRITICAL_RATE_LIMIT: '4' }); // start() spent one on the root login
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await anon.post('/api/user/login', { username: 'root', password: 'wrong-password' })).status);
    expect(codes).toEqual([401, 401, 401, 429, 429]);
    const limited = await anon.post('/api/user/login', { username: 'root', password: ROOT_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.raw.body).toBe('');
  });

  it('enforces switch prerequisites and keeps blank secrets unchanged', async () => {
    const { root, server } = await start();
    const res = await root.put('/api/option/', { key: 'GitHubOAuthEnabled', value: 'true' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('GitHub Client Id');
    await root.put('/api/option/', { key: 'SMTPToken', value: 'secret-1' });
    await root.put('/api/option/', { key: 'SMTPToken', value: '' });
    expect(server.ctx.options.get('SMTPToken')).toBe('secret-1');
  });
});

describe.skipIf(!redisAvailable())('two nodes sharing Redis', () => {
  it('applies an option saved on one node to the other at once', async () => {
    const a = await start({}, true);
    const b = await startTestServer('sqlite', { reuse: a.server, redis: true });
    servers.push(b);
    await a.root.put('/api/option/', { key: 'SystemName', value: 'Shared Hub' });
    await expect.poll(() => b.ctx.options.get('SystemName'), { timeout: 3000 }).toBe('Shared Hub');
  });

  it('falls back to memory with a warning when Redis is unreachable', async () => {
    const { server, root } = await start({ REDIS_CONN_STRING: 'redis://127.0.0.1:1', CRITICAL_RATE_LIMIT: '3' });
    expect(server.ctx.store.usesRedis).toBe(true);
    expect((await root.get('/api/status')).body.success).toBe(true);
    const anon = new ApiClient(server.app);
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await anon.post('/api/user/login', { username: 'x', password: 'y' })).status);
    expect(codes).toEqual([401, 401, 429]);
  });
});
