import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';
import { base32Decode, hotp, newSecret, stepAt } from '../../src/console/auth/two-factor/totp.js';

const codeAt = (secret: string, step: number) => hotp(base32Decode(secret), step);

describe.each(testDialects())('TOTP secrets encrypted at rest (%s)', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, { env: { CRITICAL_RATE_LIMIT: '0', SESSION_SECRET: 'at-rest-secret-one' } });
  });
  afterAll(async () => server?.destroy());

  const secretColumn = async (userId: number) =>
    (await server.ctx.db.selectFrom('two_factor').select('secret').where('user_id', '=', userId).executeTakeFirstOrThrow()).secret;

  async function signIn(app: TestServer['app'], name: string, code: string) {
    const client = new ApiClient(app);
    expect((await client.post('/api/user/login', { username: name, password: 'password123' })).body.message).toBe('2fa');
    return client.post('/api/user/login/2fa', { code });
  }

  it('never stores the base32 secret; codes still sign in', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'sealed', password: 'password123' })).body.success).toBe(true);
    const me = new ApiClient(server.app);
    const { id } = await me.login('sealed', 'password123');
    const { secret } = (await me.post('/api/user/2fa/setup')).body.data;
    const pending = await secretColumn(id);
    expect(pending).not.toContain(secret);
    expect(pending).toMatch(/^enc1:/);
    const step = stepAt(Date.now());
    expect((await me.post('/api/user/2fa/enable', { code: codeAt(secret, step) })).body.success).toBe(true);
    const stored = await secretColumn(id);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.toLowerCase());
    const ok = await signIn(server.app, 'sealed', codeAt(secret, step + 1));
    expect(ok.body.data?.id, JSON.stringify(ok.body)).toBe(id);
  });

  it('seals a plain secret from before at start-up, which keeps working; another SESSION_SECRET cannot read it', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'legacy', password: 'password123' })).body.success).toBe(true);
    const id = (await server.ctx.db.selectFrom('users').select('id').where('username', '=', 'legacy').executeTakeFirstOrThrow()).id;
    const secret = newSecret();
    await server.ctx.db.insertInto('two_factor').values({ user_id: id, secret, enabled: 1, last_step: 0, recovery: '[]', created_time: 1 }).execute();
    const step = stepAt(Date.now());
    // read as it is while still plain
    expect((await signIn(server.app, 'legacy', codeAt(secret, step - 1))).body.success).toBe(true);

    const restarted = await startTestServer(dialect, { reuse: server });
    try {
      const stored = await secretColumn(id);
      expect(stored).toMatch(/^enc1:/);
      expect(stored).not.toContain(secret);
      expect((await signIn(restarted.app, 'legacy', codeAt(secret, step))).body.success).toBe(true);
    } finally {
      await restarted.close();
    }

    // a server with another session secret cannot unseal it: the code is refused, not a crash
    const stranger = await startTestServer(dialect, { reuse: server, env: { SESSION_SECRET: 'another-secret' } });
    try {
      const refused = await signIn(stranger.app, 'legacy', codeAt(secret, step + 1));
      expect(refused.status).toBe(400);
      // the root can still reset it there
      const root = new ApiClient(stranger.app);
      await root.login('root', ROOT_PASSWORD);
      expect((await root.delete(`/api/user/2fa/${id}`)).body.success).toBe(true);
    } finally {
      await stranger.close();
    }
  });
});
