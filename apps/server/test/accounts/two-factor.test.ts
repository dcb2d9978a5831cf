import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { base32Decode, hotp, stepAt } from '../../src/console/auth/two-factor/totp.js';
import { FakeWeChatLogin } from '../fakes/wechat-login.js';

describe('two-factor sign-in (TOTP)', () => {
  let server: TestServer;
  let root: ApiClient;
  const wechat = new FakeWeChatLogin('wx-token');
  const codeAt = (secret: string, step: number) => hotp(base32Decode(secret), step);

  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { CRITICAL_RATE_LIMIT: '0' } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    for (const [key, value] of [['WeChatServerAddress', await wechat.start()], ['WeChatServerToken', 'wx-token'], ['WeChatAuthEnabled', 'true']]) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  });
  afterAll(async () => {
    await server?.destroy();
    await wechat.close();
  });

  async function passwordStep(name: string) {
    const client = new ApiClient(server.app);
    const res = await client.post('/api/user/login', { username: name, password: 'password123' });
    return { client, res };
  }

  it('enables with a first code, then asks every password sign-in for a code that works once; recovery codes work once', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'tfa', password: 'password123' })).body.success).toBe(true);
    const me = new ApiClient(server.app);
    const { id } = await me.login('tfa', 'password123');
    expect((await me.get('/api/user/2fa')).body.data).toEqual({ enabled: false, recovery_codes_left: 0 });
    const setup = (await me.post('/api/user/2fa/setup')).body.data;
    expect(setup.uri).toBe(`otpauth://totp/One%20Hub%3Atfa?secret=${setup.secret}&issuer=One+Hub&algorithm=SHA1&digits=6&period=30`);
    const now = stepAt(Date.now());
    expect((await me.post('/api/user/2fa/enable', { code: codeAt(setup.secret, now - 5) })).status).toBe(400);
    const enabled = await me.post('/api/user/2fa/enable', { code: codeAt(setup.secret, now) });
    expect(enabled.body.success, JSON.stringify(enabled.body)).toBe(true);
    const recovery = enabled.body.data as string[];
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    const stored = await server.ctx.db.selectFrom('two_factor').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(stored.recovery).not.toContain(recovery[0]);

    // the password alone does not sign in
    const first = await passwordStep('tfa');
    expect(first.res.body).toEqual({ success: true, message: '2fa' });
    expect((await first.client.get('/api/user/self')).status).toBe(401);
    // the code used to enable is not accepted again; the next step's code is, once
    const replay = await first.client.post('/api/user/login/2fa', { code: codeAt(setup.secret, now) });
    expect(replay.status).toBe(400);
    const ok = await first.client.post('/api/user/login/2fa', { code: codeAt(setup.secret, now + 1) });
    expect(ok.body.data.username, JSON.stringify(ok.body)).toBe('tfa');
    expect((await first.client.get('/api/user/self')).body.data.id).toBe(id);
    const second = await passwordStep('tfa');
    expect((await second.client.post('/api/user/login/2fa', { code: codeAt(setup.secret, now + 1) })).status).toBe(400);

    // a recovery code works once
    expect((await second.client.post('/api/user/login/2fa', { code: recovery[3] })).body.success).toBe(true);
    const third = await passwordStep('tfa');
    expect((await third.client.post('/api/user/login/2fa', { code: recovery[3] })).status).toBe(400);
    expect((await second.client.get('/api/user/2fa')).body.data).toEqual({ enabled: true, recovery_codes_left: 9 });

    // guessing is cut off after five wrong codes
    for (let i = 0; i < 4; i++) expect((await third.client.post('/api/user/login/2fa', { code: '000000' })).status).toBe(400);
    expect((await third.client.post('/api/user/login/2fa', { code: recovery[5] })).status).toBe(429);
    expect((await new ApiClient(server.app).post('/api/user/login/2fa', { code: recovery[5] })).status).toBe(400);

    // an administrator resets it (lost phone): the password signs in again
    expect((await second.client.delete(`/api/user/2fa/${id}`)).status).toBe(403);
    expect((await root.delete(`/api/user/2fa/${id}`)).body.success).toBe(true);
    const after = await passwordStep('tfa');
    expect(after.res.body.data.username).toBe('tfa');
  });

  it('disables only with a valid code', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'tfa2', password: 'password123' })).body.success).toBe(true);
    const me = new ApiClient(server.app);
    await me.login('tfa2', 'password123');
    const { secret } = (await me.post('/api/user/2fa/setup')).body.data;
    const codes = (await me.post('/api/user/2fa/enable', { code: codeAt(secret, stepAt(Date.now())) })).body.data as string[];
    expect((await me.post('/api/user/2fa/disable', { code: '123456' })).status).toBe(400);
    expect((await me.post('/api/user/2fa/disable', { code: codes[0] })).body.success).toBe(true);
    expect((await me.get('/api/user/2fa')).body.data.enabled).toBe(false);
  });

  it('asks a provider sign-in (WeChat) for the second factor as well', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'tfa3', password: 'password123' })).body.success).toBe(true);
    const me = new ApiClient(server.app);
    const { id } = await me.login('tfa3', 'password123');
    const { secret } = (await me.post('/api/user/2fa/setup')).body.data;
    const codes = (await me.post('/api/user/2fa/enable', { code: codeAt(secret, stepAt(Date.now())) })).body.data as string[];
    await server.ctx.db.updateTable('users').set({ wechat_id: 'wx-tfa3' }).where('id', '=', id).execute();
    const phone = new ApiClient(server.app);
    const first = await phone.get(`/api/oauth/wechat?code=${wechat.issue('777777', 'wx-tfa3')}`);
    expect(first.body).toEqual({ success: true, message: '2fa' });
    expect((await phone.get('/api/user/self')).status).toBe(401);
    expect((await phone.post('/api/user/login/2fa', { code: codes[9] })).body.data.id).toBe(id);
  });

  it('can require two-factor for administrators', async () => {
    const admin = new ApiClient(server.app);
    await admin.login('root', ROOT_PASSWORD);
    expect((await admin.put('/api/option/', { key: 'TwoFactorRequiredForAdmins', value: 'true' })).body.success).toBe(true);
    const refused = await admin.get('/api/user/');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('管理员须先在个人设置中开启两步验证');
    // user routes stay open, so the administrator can set it up
    const { secret } = (await admin.post('/api/user/2fa/setup')).body.data;
    expect((await admin.post('/api/user/2fa/enable', { code: codeAt(secret, stepAt(Date.now())) })).body.success).toBe(true);
    expect((await admin.get('/api/user/')).body.success).toBe(true);
    expect((await admin.put('/api/option/', { key: 'TwoFactorRequiredForAdmins', value: 'false' })).body.success).toBe(true);
  });
});
