import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';

/** Failures no ordinary request meets, provoked through the route that meets them, with their listed codes. */
describe('rare account failures keep their codes', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { SMTP_CA_FILE: '/nonexistent/one-hub-ca.pem', CRITICAL_RATE_LIMIT: '0' } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('answers a mail with an unreadable SMTP_CA_FILE with 500 smtp_ca_unreadable, naming the file', async () => {
    for (const [key, value] of Object.entries({ SMTPServer: 'localhost', SMTPPort: '25' }))
      expect((await root.put('/api/option/', { key, value })).body.success, key).toBe(true);
    const res = await new ApiClient(server.app).get('/api/verification?email=someone@example.com');
    expect([res.status, res.body.success, res.body.code]).toEqual([500, false, 'smtp_ca_unreadable']);
    expect(res.body.args.detail).toContain('/nonexistent/one-hub-ca.pem');
  });

  it('answers a registration whose row cannot be read back with 500 user_create_failed, and writes no bonus', async () => {
    // The insert succeeds, the row is gone before the service reads it back (as a concurrent delete would do).
    await sql.raw("CREATE TRIGGER vanish AFTER INSERT ON users WHEN NEW.username = 'ghost' BEGIN DELETE FROM users WHERE id = NEW.id; END").execute(server.ctx.db);
    try {
      const res = await new ApiClient(server.app).post('/api/user/register', { username: 'ghost', password: 'password123' });
      expect([res.status, res.body]).toEqual([500, { success: false, message: 'user was not created', code: 'user_create_failed' }]);
      const ok = await new ApiClient(server.app).post('/api/user/register', { username: 'someone', password: 'password123' });
      expect(ok.body.success, JSON.stringify(ok.body)).toBe(true);
    } finally {
      await sql.raw('DROP TRIGGER vanish').execute(server.ctx.db);
    }
  });
});
