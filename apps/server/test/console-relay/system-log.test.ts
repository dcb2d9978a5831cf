import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { LogRing } from '../../src/common/log-ring.js';

describe('log ring', () => {
  it('keeps the newest lines, oldest first, and words errors and format strings', () => {
    const ring = new LogRing(3);
    for (let i = 1; i <= 5; i++) ring.record(30, ['line %d', i]);
    expect(ring.last(10).map((e) => e.Message)).toEqual(['line 3', 'line 4', 'line 5']);
    expect(ring.last(1)).toEqual([{ Timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), Level: 'info', Message: 'line 5' }]);
    ring.record(50, [{ err: new Error('disk full') }, 'flush failed']);
    ring.record(40, [new Error('bare error')]);
    ring.record(30, [{ channel: 3 }]);
    expect(ring.last(3).map((e) => [e.Level, e.Message])).toEqual([
      ['error', 'flush failed: disk full'],
      ['warn', 'bare error'],
      ['info', '{"channel":3}'],
    ]);
  });
});

// The feature keeps no data in the database, so one dialect is enough.
describe('server log viewer routes', () => {
  let server: TestServer;
  let root: ApiClient;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { LOG_LEVEL: 'info', GLOBAL_API_RATE_LIMIT: '3' } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => server?.destroy());

  it('answers root the last lines the server logged', async () => {
    server.ctx.log.info('hello %s', 'viewer');
    server.ctx.log.warn({ err: new Error('upstream down') }, 'balance update failed');
    const res = await root.post('/api/system_info/log', { count: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { Timestamp: expect.any(String), Level: 'info', Message: 'hello viewer' },
      { Timestamp: expect.any(String), Level: 'warn', Message: 'balance update failed: upstream down' },
    ]);
    expect((await root.post('/api/system_info/log', { count: 500 })).body.data.length).toBeGreaterThan(2);
  });

  it('rejects bad counts with 400 and non-root callers with 403', async () => {
    for (const body of [{ count: 0 }, { count: -3 }, { count: 'many' }, { count: 1.5 }, {}]) {
      const res = await root.post('/api/system_info/log', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    await new ApiClient(server.app).post('/api/user/register', { username: 'plainuser', password: 'password123' });
    const user = new ApiClient(server.app);
    await user.login('plainuser', 'password123');
    expect((await user.post('/api/system_info/log', { count: 1 })).status).toBe(403);
    expect((await new ApiClient(server.app).post('/api/system_info/log', { count: 1 })).status).toBe(401);
  });

  it('leaves /api/system_info/log outside the global limiter, unlike its /option twin', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await root.post('/api/option/system_info/log', { count: 1 })).status);
    expect(statuses).toContain(429);
    for (let i = 0; i < 4; i++) expect((await root.post('/api/system_info/log', { count: 1 })).status).toBe(200);
  });
});
