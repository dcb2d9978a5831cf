import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';

/** Every admin or root route of the accounts area, with a body that would pass validation. */
const PRIVILEGED: Array<[string, string, unknown?]> = [
  ['GET', '/api/user/'],
  ['GET', '/api/user/1'],
  ['POST', '/api/user/', { username: 'eve', password: 'password123' }],
  ['PUT', '/api/user/', { id: 1, display_name: 'x' }],
  ['DELETE', '/api/user/1'],
  ['POST', '/api/user/manage', { username: 'root', action: 'disable' }],
  ['POST', '/api/user/quota/1', { quota: 5 }],
  ['GET', '/api/group/'],
  ['GET', '/api/user_group/'],
  ['GET', '/api/user_group/1'],
  ['POST', '/api/user_group/', { symbol: 'x', name: 'x' }],
  ['PUT', '/api/user_group/', { id: 1, name: 'x', ratio: 1, api_rate: 1 }],
  ['PUT', '/api/user_group/enable/2'],
  ['DELETE', '/api/user_group/2'],
  ['GET', '/api/option/'],
  ['PUT', '/api/option/', { key: 'SystemName', value: 'x' }],
  ['GET', '/api/option/safe_tools'],
  ['GET', '/api/redemption/'],
  ['GET', '/api/redemption/1'],
  ['POST', '/api/redemption/', { name: 'x', quota: 1, count: 1 }],
  ['PUT', '/api/redemption/', { id: 1, name: 'x' }],
  ['DELETE', '/api/redemption/1'],
];

describe.each(testDialects())('foundation on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => server?.destroy());

  it('creates root on the first start and serves status with defaults', async () => {
    const self = await root.get('/api/user/self');
    expect(self.body.data).toMatchObject({ username: 'root', role: 100, status: 1, password: '', quota: 100_000_000 });
    // the access token is shown only by GET /api/user/token
    expect(self.body.data.access_token).toBe('');
    const status = await new ApiClient(server.app).get('/api/status');
    expect(status.body.success).toBe(true);
    expect(status.body.data).toMatchObject({ system_name: 'One Hub', quota_per_unit: 500000, display_in_currency: true, language: 'zh_CN' });
    expect(status.body.data).not.toHaveProperty('TurnstileSecretKey');
  });

  it('refuses signed-out callers with 401 and common users on every admin route with 403', async () => {
    const anon = new ApiClient(server.app);
    expect((await anon.get('/api/user/self')).status).toBe(401);
    const reg = await anon.post('/api/user/register', { username: 'carol', password: 'password123' });
    expect(reg.body).toMatchObject({ success: true });
    const carol = new ApiClient(server.app);
    await carol.login('carol', 'password123');
    for (const [method, url, body] of PRIVILEGED) {
      const res = await carol.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.success, `${method} ${url}`).toBe(false);
    }
    // An access token works in place of the cookie, with the same role limits.
    const token = (await carol.get('/api/user/token')).body.data;
    const viaToken = await anon.get('/api/user/self', { authorization: `Bearer ${token}` });
    expect(viaToken.body.data.username).toBe('carol');
    expect((await anon.get('/api/user/', { authorization: token })).status).toBe(403);
  });

  it('applies a ban to an open session at once', async () => {
    await new ApiClient(server.app).post('/api/user/register', { username: 'dave', password: 'password123' });
    const dave = new ApiClient(server.app);
    await dave.login('dave', 'password123');
    expect((await root.post('/api/user/manage', { username: 'dave', action: 'disable' })).body.data.status).toBe(2);
    // The ban ends the session: the console gets 401 and drops its stored user.
    expect((await dave.get('/api/user/self')).status).toBe(401);
    expect((await root.post('/api/user/manage', { username: 'root', action: 'demote' })).status).toBe(403);
  });

  it('credits a redemption code exactly once under 20 concurrent redeems', async () => {
    const created = await root.post('/api/redemption/', { name: 'race', quota: 7777, count: 1 });
    const [key] = created.body.data as string[];
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    await new ApiClient(server.app).post('/api/user/register', { username: 'racer', password: 'password123' });
    const racer = new ApiClient(server.app);
    await racer.login('racer', 'password123');
    const before = (await racer.get('/api/user/self')).body.data.quota;
    const results = await Promise.all(Array.from({ length: 20 }, () => racer.post('/api/user/topup', { key })));
    const wins = results.filter((r) => r.body.success);
    expect(wins).toHaveLength(1);
    expect(wins[0].body.data).toBe(7777);
    const after = (await racer.get('/api/user/self')).body.data.quota;
    expect(after - before).toBe(7777);
  });

  it('answers bad input with 4xx and a message, never 500', async () => {
    const malformed = await root.request('PUT', '/api/option/', '{"key": ', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/JSON/i);
    const wrongType = await root.post('/api/redemption/', { name: 'x', quota: 'lots', count: 1 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toMatch(/quota/);
    expect((await root.get('/api/user/999999')).status).toBe(404);
    expect((await root.get('/api/user/abc')).status).toBe(400);
    expect((await root.get('/api/user/?size=101')).body.message).toContain('size 参数不能超过 100');
    expect((await root.get('/api/user/?order=password')).status).toBe(400);
    expect((await root.put('/api/option/', { key: 'NoSuchKey', value: '1' })).status).toBe(400);
    expect((await root.put('/api/option/', { key: 'RetryTimes', value: 'many' })).status).toBe(400);
    const huge = await root.post('/api/user/login', { username: 'x'.repeat(1000), password: 'y' });
    expect(huge.status).toBe(400);
  });

  it('lists users with paging, keyword and ordering', async () => {
    const page = await root.get('/api/user/?page=1&size=2&order=-id');
    expect(page.body.data.size).toBe(2);
    expect(page.body.data.data).toHaveLength(2);
    expect(page.body.data.total_count).toBeGreaterThanOrEqual(4);
    expect(page.body.data.data[0].id).toBeGreaterThan(page.body.data.data[1].id);
    expect(page.body.data.data[0].password).toBe('');
    const found = await root.get('/api/user/?keyword=car');
    expect(found.body.data.data.map((u: { username: string }) => u.username)).toEqual(['carol']);
    // LIKE wildcards in a keyword are literal on every dialect.
    await new ApiClient(server.app).post('/api/user/register', { username: 'x_y1', password: 'password123' });
    await new ApiClient(server.app).post('/api/user/register', { username: 'xzy2', password: 'password123' });
    const literal = await root.get('/api/user/?keyword=x_');
    expect(literal.body.data.data.map((u: { username: string }) => u.username)).toEqual(['x_y1']);
  });
});

describe.each(testDialects())('restart on %s', (dialect) => {
  it('keeps options and the root user across a restart, without re-seeding', async () => {
    const first = await startTestServer(dialect);
    const root = new ApiClient(first.app);
    await root.login('root', ROOT_PASSWORD);
    expect((await root.put('/api/option/', { key: 'SystemName', value: 'Hub Prime' })).body.success).toBe(true);
    expect((await root.put('/api/option/', { key: 'RetryTimes', value: 3 })).body.success).toBe(true);
    await first.close();

    const second = await startTestServer(dialect, { reuse: first, env: { INITIAL_ROOT_PASSWORD: 'other-password-1' } });
    try {
      const resumed = root.withApp(second.app);
      expect((await resumed.get('/api/user/self')).body.data.username).toBe('root'); // the session survived
      const again = new ApiClient(second.app);
      await again.login('root', ROOT_PASSWORD); // the first password still works: root was not recreated
      const options = (await again.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
      const get = (k: string) => options.find((o) => o.key === k)?.value;
      expect(get('SystemName')).toBe('Hub Prime');
      expect(get('RetryTimes')).toBe('3');
      expect(options.some((o) => o.key === 'SMTPToken' || o.key === 'TurnstileSecretKey')).toBe(false);
      expect((await again.get('/api/status')).body.data.system_name).toBe('Hub Prime');
      expect((await again.get('/api/user/')).body.data.total_count).toBe(1);
    } finally {
      await second.destroy();
    }
  });
});
