import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, redisAvailable, startTestServer, type TestServer } from '../harness.js';
import { FakeSmtp } from './fake-smtp.js';

let smtp: FakeSmtp;
let smtpPort: number;
let servers: TestServer[] = [];

beforeAll(async () => {
  smtp = new FakeSmtp();
  smtpPort = await smtp.start();
});
afterAll(async () => smtp.close());
afterEach(async () => {
  await Promise.all(servers.map((s) => s.destroy()));
  servers = [];
});

async function start(redis = false) {
  const server = await startTestServer('sqlite', { redis });
  servers.push(server);
  const root = new ApiClient(server.app);
  await root.login('root', ROOT_PASSWORD);
  return { server, root };
}

async function configureMail(root: ApiClient) {
  for (const [key, value] of [
    ['SMTPServer', '127.0.0.1'],
    ['SMTPPort', String(smtpPort)],
    ['SMTPFrom', 'hub@example.com'],
    ['SystemName', 'Mail Hub'],
  ]) {
    expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
  }
}

const codeIn = (mail: string | undefined) => mail?.match(/<strong>([0-9a-f]{6})<\/strong>/)?.[1];

describe('mail flows through SMTP', () => {
  it('answers a clear 4xx while SMTP is not configured', async () => {
    const { server } = await start();
    const res = await new ApiClient(server.app).get('/api/verification?email=someone@example.com');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('SMTP');
  });

  it('signs up with a mailed verification code inside the domain whitelist', async () => {
    const { server, root } = await start();
    await configureMail(root);
    await root.put('/api/option/', { key: 'EmailVerificationEnabled', value: 'true' });
    await root.put('/api/option/', { key: 'EmailDomainWhitelist', value: 'example.com' });
    await root.put('/api/option/', { key: 'EmailDomainRestrictionEnabled', value: 'true' });
    const anon = new ApiClient(server.app);

    const outside = await anon.get('/api/verification?email=eve@elsewhere.org');
    expect(outside.status).toBe(400);
    expect(outside.body.message).toContain('白名单');
    expect((await anon.get('/api/verification?email=not-an-email')).status).toBe(400);

    expect((await anon.get('/api/verification?email=zoe@example.com')).body.success).toBe(true);
    const code = codeIn(smtp.lastTo('zoe@example.com'));
    expect(code).toMatch(/^[0-9a-f]{6}$/);
    expect(smtp.mails.at(-1)!.data).toContain('Mail Hub');
    const reg = await anon.post('/api/user/register', { username: 'zoe', password: 'password123', email: 'zoe@example.com', verification_code: code });
    expect(reg.body.success, JSON.stringify(reg.body)).toBe(true);
    const zoe = new ApiClient(server.app);
    await zoe.login('zoe@example.com', 'password123');
    expect((await zoe.get('/api/user/self')).body.data.email).toBe('zoe@example.com');
    // The address is taken now, also as a +alias.
    expect((await anon.get('/api/verification?email=zoe@example.com')).status).toBe(409);
    expect((await anon.get('/api/verification?email=zoe%2Bspare@example.com')).status).toBe(409);
  });

  it('writes the mail in the language the browser asks for (issue 17)', async () => {
    const { server, root } = await start();
    await configureMail(root);
    const anon = new ApiClient(server.app);
    for (const [lang, text] of [['ja-JP,ja;q=0.9', '確認コード'], ['zh-TW', '驗證碼'], ['en-GB,en;q=0.8', 'Your verification code'], ['fr-FR', '您的验证码']] as const) {
      const to = `lang-${lang.slice(0, 2)}-${text.length}@example.com`;
      expect((await anon.get(`/api/verification?email=${to}`, { 'accept-language': lang })).body.success).toBe(true);
      expect(smtp.lastTo(to), lang).toContain(text);
      expect(codeIn(smtp.lastTo(to))).toMatch(/^[0-9a-f]{6}$/);
    }
    expect((await anon.get('/api/reset_password?email=nobody@example.com', { 'accept-language': 'en' })).status).toBe(404);
  });

  it('resets a password through the mailed link', async () => {
    const { server, root } = await start();
    await configureMail(root);
    await new ApiClient(server.app).post('/api/user/register', { username: 'ivan', password: 'password123' });
    const ivan = (await root.get('/api/user/?keyword=ivan')).body.data.data[0];
    await root.put('/api/user/', { id: ivan.id, email: 'ivan@example.com' });
    const anon = new ApiClient(server.app);
    expect((await anon.get('/api/reset_password?email=ivan@example.com')).body.success).toBe(true);
    const link = smtp.lastTo('ivan@example.com')?.match(/href="([^"]+)"/)?.[1];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.pathname).toBe('/user/reset');
    const reset = await anon.post('/api/user/reset', { email: url.searchParams.get('email'), token: url.searchParams.get('token') });
    expect(reset.body.success).toBe(true);
    await new ApiClient(server.app).login('ivan', reset.body.data);
  });
});

describe.skipIf(!redisAvailable())('codes shared through Redis', () => {
  it('accepts on one node a code mailed by another', async () => {
    const a = await start(true);
    await configureMail(a.root);
    await a.root.put('/api/option/', { key: 'EmailVerificationEnabled', value: 'true' });
    const b = await startTestServer('sqlite', { reuse: a.server, redis: true });
    servers.push(b);
    await expect.poll(() => b.ctx.options.get('EmailVerificationEnabled'), { timeout: 3000 }).toBe(true);
    expect((await new ApiClient(a.server.app).get('/api/verification?email=nina@example.com')).body.success).toBe(true);
    const code = codeIn(smtp.lastTo('nina@example.com'));
    const reg = await new ApiClient(b.app).post('/api/user/register', { username: 'nina', password: 'password123', email: 'nina@example.com', verification_code: code });
    expect(reg.body.success, JSON.stringify(reg.body)).toBe(true);
  });
});
