import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';
import { FakeSmtp } from './fake-smtp.js';

/** A WeChat login server: `GET /api/wechat/user?code=` with the shared token answers the account id. */
function fakeWeChat(token: string, ids: Record<string, string>) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '', 'http://x');
    seen.push(String(req.headers.authorization));
    const id = req.headers.authorization === token ? ids[url.searchParams.get('code') ?? ''] : undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(id ? { success: true, message: '', data: id } : { success: false, message: '验证码错误或已过期', data: '' }));
  });
  return {
    seen,
    start: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => new Promise((r) => server.close(r)),
  };
}

describe.each(testDialects())('profile bindings on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let smtp: FakeSmtp;
  const wechat = fakeWeChat('wx-secret', { good: 'wx-alice', other: 'wx-bob' });

  const newUser = async (name: string) => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: name, password: 'password123' })).body.success).toBe(true);
    const client = new ApiClient(server.app);
    const me = await client.login(name, 'password123');
    return { client, id: me.id as number };
  };
  const set = async (key: string, value: string) => expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);

  beforeAll(async () => {
    smtp = new FakeSmtp();
    const smtpPort = await smtp.start();
    const wechatUrl = await wechat.start();
    server = await startTestServer(dialect);
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    await set('SMTPServer', '127.0.0.1');
    await set('SMTPPort', String(smtpPort));
    await set('SMTPFrom', 'hub@example.com');
    await set('WeChatServerAddress', wechatUrl);
    await set('WeChatServerToken', 'wx-secret');
  });
  afterAll(async () => {
    await server?.destroy();
    await smtp?.close();
    await wechat.close();
  });

  it('binds an e-mail proven by the mailed code, once, and refuses a wrong code or a taken address', async () => {
    const { client } = await newUser('mailbind');
    const anon = new ApiClient(server.app);
    expect((await anon.get('/api/oauth/email/bind?email=a@example.com&code=x')).status).toBe(401);
    expect((await client.get('/api/verification?email=mb@example.com')).body.success).toBe(true);
    const code = smtp.lastTo('mb@example.com')!.match(/<strong>([0-9a-f]{6})<\/strong>/)![1];
    const wrong = await client.get('/api/oauth/email/bind?email=mb@example.com&code=000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('验证码错误或已过期');
    expect((await client.get('/api/oauth/email/bind?email=not-mail&code=1')).status).toBe(400);
    const bound = await client.get(`/api/oauth/email/bind?email=mb@example.com&code=${code}`);
    expect(bound.body.success, JSON.stringify(bound.body)).toBe(true);
    expect((await client.get('/api/user/self')).body.data.email).toBe('mb@example.com');
    // the code worked once
    expect((await client.get(`/api/oauth/email/bind?email=mb@example.com&code=${code}`)).status).toBe(400);

    // another account cannot take the address even with a valid code (stored by hand: mailing refuses taken addresses)
    const other = await newUser('mailbind2');
    await server.ctx.store.set('code:verify:mb@example.com', 'abc123', 600);
    const taken = await other.client.get('/api/oauth/email/bind?email=mb@example.com&code=abc123');
    expect(taken.status).toBe(409);
    expect((await other.client.get('/api/user/self')).body.data.email).toBe('');
  });

  it('binds WeChat through the login server and refuses an account bound elsewhere', async () => {
    const alice = await newUser('wxalice');
    const off = await alice.client.get('/api/oauth/wechat/bind?code=good');
    expect(off.status).toBe(403);
    await set('WeChatAuthEnabled', 'true');
    const bad = await alice.client.get('/api/oauth/wechat/bind?code=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('验证码错误或已过期');
    expect((await alice.client.get('/api/oauth/wechat/bind')).status).toBe(400);
    expect((await alice.client.get('/api/oauth/wechat/bind?code=good')).body.success).toBe(true);
    expect(wechat.seen.at(-1)).toBe('wx-secret');
    expect((await alice.client.get('/api/user/self')).body.data.wechat_id).toBe('wx-alice');
    const bob = await newUser('wxbob');
    const clash = await bob.client.get('/api/oauth/wechat/bind?code=good');
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('该微信账号已被绑定');
  });

  it('unbinds each external sign-in and rejects unknown kinds', async () => {
    const { client, id } = await newUser('unbinder');
    await server.ctx.db.updateTable('users').set({ github_id: 'gh1', github_id_new: 77, wechat_id: 'wx9', lark_id: 'lk', oidc_id: 'oi' }).where('id', '=', id).execute();
    for (const type of ['github', 'wechat', 'lark', 'oidc']) {
      const res = await client.post('/api/user/unbind', { type });
      expect(res.body.success, type).toBe(true);
    }
    const row = await server.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.github_id, Number(row.github_id_new), row.wechat_id, row.lark_id, row.oidc_id]).toEqual(['', 0, '', '', '']);
    const unknown = await client.post('/api/user/unbind', { type: 'telegram' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('未知的绑定类型');
    expect((await new ApiClient(server.app).post('/api/user/unbind', { type: 'github' })).status).toBe(401);
  });
});
