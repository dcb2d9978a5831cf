import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { FakeLinuxDo, type LinuxDoAccount } from '../fakes/linuxdo.js';
import { FakeLark, type LarkAccount } from '../fakes/lark.js';
import { FakeWeChatLogin } from '../fakes/wechat-login.js';

/** LINUX DO, Lark and WeChat sign-in through their fakes; GitHub covers the resolver's dialect runs. */
describe('LINUX DO, Lark and WeChat sign-in', () => {
  let server: TestServer;
  let root: ApiClient;
  const linuxdo = new FakeLinuxDo('ld-client', 'ld-secret');
  const lark = new FakeLark('cli_app', 'lark-secret');
  const wechat = new FakeWeChatLogin('wx-token');
  const set = async (key: string, value: string) => expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);

  async function viaLinuxDo(client: ApiClient, account: LinuxDoAccount, aff?: string) {
    const state = (await client.get('/api/oauth/state')).body.data as string;
    return client.get(`/api/oauth/linuxdo?code=${linuxdo.authorize(account)}&state=${state}${aff ? `&aff=${aff}` : ''}`);
  }
  async function viaLark(client: ApiClient, account: LarkAccount) {
    const state = (await client.get('/api/oauth/state')).body.data as string;
    return client.get(`/api/oauth/lark?code=${lark.authorize(account)}&state=${state}`);
  }

  beforeAll(async () => {
    const [ld, lk, wx] = await Promise.all([linuxdo.start(), lark.start(), wechat.start()]);
    server = await startTestServer('sqlite', { env: { LINUXDO_BASE_URL: ld, LARK_BASE_URL: lk, CRITICAL_RATE_LIMIT: '0' } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    for (const [k, v] of [
      ['LinuxDoClientId', 'ld-client'],
      ['LinuxDoClientSecret', 'ld-secret'],
      ['LarkClientId', 'cli_app'],
      ['LarkClientSecret', 'lark-secret'],
      ['WeChatServerAddress', wx],
      ['WeChatServerToken', 'wx-token'],
    ]) {
      await set(k, v);
    }
  });
  afterAll(async () => {
    await server?.destroy();
    await Promise.all([linuxdo.close(), lark.close(), wechat.close()]);
  });

  it('LINUX DO: switched off, registers, signs in again, trust level and silenced accounts, bind and already bound', async () => {
    const off = await viaLinuxDo(new ApiClient(server.app), { id: 1, username: 'x', trust_level: 1 });
    expect(off.body.message).toBe('管理员未开启通过 LINUX DO 登录以及注册');
    await set('LinuxDoOAuthEnabled', 'true');
    expect((await new ApiClient(server.app).get('/api/status')).body.data).toMatchObject({ linuxdo_oauth: true, linuxdo_client_id: 'ld-client' });

    const client = new ApiClient(server.app);
    const first = await viaLinuxDo(client, { id: 42, username: 'neo', name: 'Neo', trust_level: 2 });
    expect(first.body.success, JSON.stringify(first.body)).toBe(true);
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ username: 'neo', display_name: 'Neo', linuxdo_id: '42', avatar_url: 'https://linux.do/avatar/42/120.png' });
    expect((await viaLinuxDo(new ApiClient(server.app), { id: 42, username: 'neo', trust_level: 2 })).body.data.id).toBe(first.body.data.id);

    await set('LinuxDoMinTrustLevel', '3');
    const low = await viaLinuxDo(new ApiClient(server.app), { id: 42, username: 'neo', trust_level: 2 });
    expect(low.status).toBe(403);
    expect(low.body.message).toContain('信任等级');
    await set('LinuxDoMinTrustLevel', '0');
    expect((await viaLinuxDo(new ApiClient(server.app), { id: 43, username: 'mute', trust_level: 3, silenced: true })).status).toBe(403);

    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'ldbinder', password: 'password123' })).body.success).toBe(true);
    const binder = new ApiClient(server.app);
    await binder.login('ldbinder', 'password123');
    expect((await viaLinuxDo(binder, { id: 44, username: 'trinity', trust_level: 1 })).body.message).toBe('bind');
    expect((await binder.get('/api/user/self')).body.data.linuxdo_id).toBe('44');
    const clash = await viaLinuxDo(binder, { id: 42, username: 'neo', trust_level: 1 });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('该 LINUX DO 账户已被绑定');
    expect((await binder.post('/api/user/unbind', { type: 'linuxdo' })).body.success).toBe(true);

    await set('LinuxDoClientSecret', 'nope');
    const badClient = await viaLinuxDo(new ApiClient(server.app), { id: 45, username: 'z', trust_level: 1 });
    expect(badClient.status).toBe(400);
    expect(badClient.body.message).toContain('invalid_client');
    await linuxdo.close();
    const down = await viaLinuxDo(new ApiClient(server.app), { id: 45, username: 'z', trust_level: 1 });
    expect(down.status).toBe(502);
    expect(down.body.message).toBe('无法连接至 LINUX DO 服务器，请稍后重试！');
    await set('LinuxDoClientSecret', 'ld-secret');
  });

  it('Lark: registers as lark_<n> without an inviter, signs in again, binds, refuses a state mismatch', async () => {
    await set('LarkAuthEnabled', 'true');
    const client = new ApiClient(server.app);
    const first = await viaLark(client, { open_id: 'ou_1', name: '小飞' });
    expect(first.body.success, JSON.stringify(first.body)).toBe(true);
    expect(first.body.data.username).toMatch(/^lark_\d+$/);
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ display_name: '小飞', lark_id: 'ou_1' });
    expect((await viaLark(new ApiClient(server.app), { open_id: 'ou_1' })).body.data.id).toBe(first.body.data.id);

    const binder = new ApiClient(server.app);
    await binder.login('root', ROOT_PASSWORD);
    const clash = await viaLark(binder, { open_id: 'ou_1' });
    expect(clash.body.message).toBe('该飞书账户已被绑定');
    expect((await viaLark(binder, { open_id: 'ou_root' })).body.message).toBe('bind');
    const wrong = await new ApiClient(server.app).get(`/api/oauth/lark?code=${lark.authorize({ open_id: 'ou_2' })}&state=abc`);
    expect(wrong.status).toBe(403);

    await set('LarkClientSecret', 'bad');
    const refused = await viaLark(new ApiClient(server.app), { open_id: 'ou_3' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('app secret invalid');
    await set('LarkClientSecret', 'lark-secret');
  });

  it('WeChat: signs in through the login server, registers as wechat_<n>, and refuses a wrong code', async () => {
    const off = await new ApiClient(server.app).get('/api/oauth/wechat?code=abc');
    expect(off.body.message).toBe('管理员未开启通过微信登录以及注册');
    await set('WeChatAuthEnabled', 'true');
    const client = new ApiClient(server.app);
    const first = await client.get(`/api/oauth/wechat?code=${wechat.issue('123456', 'wx-neo')}`);
    expect(first.body.success, JSON.stringify(first.body)).toBe(true);
    expect(first.body.data.username).toMatch(/^wechat_\d+$/);
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ wechat_id: 'wx-neo', display_name: 'WeChat User' });
    const again = await new ApiClient(server.app).get(`/api/oauth/wechat?code=${wechat.issue('654321', 'wx-neo')}`);
    expect(again.body.data.id).toBe(first.body.data.id);
    const replay = await new ApiClient(server.app).get('/api/oauth/wechat?code=654321');
    expect(replay.body.success).toBe(false);
    expect(replay.body.message).toBe('验证码错误或已过期');
  });
});
