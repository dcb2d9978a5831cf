import { createServer as createHttpServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.destroy()));
  servers = [];
});
async function start(env: Record<string, string> = {}) {
  const server = await startTestServer('sqlite', { env });
  servers.push(server);
  return server;
}
const fromIp = (server: TestServer, ip: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, remoteAddress: ip, ...(payload ? { payload } : {}) });

describe('IP rate limiters', () => {
  it('shares one critical counter across login, register, reset and verification, per IP', async () => {
    const server = await start({ CRITICAL_RATE_LIMIT: '4' });
    const ip = '10.0.0.7';
    const statuses = [
      (await fromIp(server, ip, 'POST', '/api/user/register', { username: 'rl1', password: 'password123' })).statusCode,
      (await fromIp(server, ip, 'GET', '/api/reset_password?email=nobody@example.com')).statusCode,
      (await fromIp(server, ip, 'GET', '/api/verification?email=x@example.com')).statusCode,
      (await fromIp(server, ip, 'POST', '/api/user/reset', { email: 'a@example.com', token: 'x' })).statusCode,
    ];
    expect(statuses).toEqual([200, 404, 400, 400]);
    const limited = await fromIp(server, ip, 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toBe('');
    expect(limited.headers['retry-after']).toBe('1200');
    // Another address has its own counter; non-critical routes are not counted.
    expect((await fromIp(server, '10.0.0.8', 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD })).statusCode).toBe(200);
    expect((await fromIp(server, ip, 'GET', '/api/status')).statusCode).toBe(200);
  });

  it('limits every /api route per IP with the global limiter', async () => {
    const server = await start({ GLOBAL_API_RATE_LIMIT: '3' });
    const ip = '10.0.1.1';
    const codes = [];
    for (const url of ['/api/status', '/api/notice', '/api/user/self', '/api/about']) codes.push((await fromIp(server, ip, 'GET', url)).statusCode);
    expect(codes).toEqual([200, 200, 401, 429]);
    expect((await fromIp(server, ip, 'GET', '/api/home_page_content')).body).toBe('');
    expect((await fromIp(server, '10.0.1.2', 'GET', '/api/status')).statusCode).toBe(200);
  });
});

describe('public site content', () => {
  it('serves notice, about and home page content from the options', async () => {
    const server = await start();
    const root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    const anon = new ApiClient(server.app);
    expect((await anon.get('/api/notice')).body).toEqual({ success: true, message: '', data: '' });
    await root.put('/api/option/', { key: 'Notice', value: '**maintenance** tonight' });
    await root.put('/api/option/', { key: 'About', value: 'https://example.com/about' });
    await root.put('/api/option/', { key: 'HomePageContent', value: '<h1>Hi</h1>' });
    expect((await anon.get('/api/notice')).body.data).toBe('**maintenance** tonight');
    expect((await anon.get('/api/about')).body.data).toBe('https://example.com/about');
    expect((await anon.get('/api/home_page_content')).body.data).toBe('<h1>Hi</h1>');
  });
});

describe('Turnstile', () => {
  let verifier: Server | undefined;
  afterEach(() => verifier?.close());

  it('guards registration and sign-in until a session has passed once', async () => {
    const seen: string[] = [];
    let broken = false;
    verifier = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push(`${form.get('secret')}:${form.get('response')}`);
        if (broken) return res.end('verifier-internal-secret');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: form.get('response') === 'good' }));
      });
    });
    await new Promise<void>((resolve) => verifier!.listen(0, '127.0.0.1', resolve));
    const port = (verifier.address() as { port: number }).port;
    const server = await start({ TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/siteverify` });
    const root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    await root.put('/api/option/', { key: 'TurnstileSiteKey', value: 'site' });
    await root.put('/api/option/', { key: 'TurnstileSecretKey', value: 'shh' });
    expect((await root.put('/api/option/', { key: 'TurnstileCheckEnabled', value: 'true' })).body.success).toBe(true);

    const anon = new ApiClient(server.app);
    const body = { username: 'tina', password: 'password123' };
    expect((await anon.post('/api/user/register', body)).body.message).toBe('Turnstile token 为空');
    expect((await anon.post('/api/user/register?turnstile=bad', body)).body.message).toBe('Turnstile 校验失败，请刷新重试！');
    expect((await anon.post('/api/user/register?turnstile=good', body)).body.success).toBe(true);
    // The session passed once: no token needed for the next guarded call.
    expect((await anon.post('/api/user/register', { ...body, username: 'tina2' })).body.success).toBe(true);
    expect(seen).toEqual(['shh:bad', 'shh:good']);

    // password sign-in is guarded too (issue 17)
    const fresh = new ApiClient(server.app);
    expect((await fresh.post('/api/user/login', body)).body.message).toBe('Turnstile token 为空');
    expect((await fresh.post('/api/user/login?turnstile=bad', body)).body.message).toBe('Turnstile 校验失败，请刷新重试！');
    expect((await fresh.post('/api/user/login?turnstile=good', body)).body.data.username).toBe('tina');

    // a verifier answering garbage: a generic 502, its answer never reflected to the anonymous caller
    broken = true;
    const garbled = await new ApiClient(server.app).post('/api/user/login?turnstile=good', body);
    expect(garbled.status).toBe(502);
    expect(garbled.body.message).toBe('Turnstile 校验服务暂不可用，请稍后重试 (Turnstile unavailable)');
    expect(JSON.stringify(garbled.body)).not.toContain('verifier-i'); // JSON.parse's message quotes the answer's start
  });
});
