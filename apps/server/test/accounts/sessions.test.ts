import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@fastify/cookie';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';

const SECRET = 'session-test-secret';

/** A signed session cookie with the given content, as a client could replay it. */
function forgedCookie(data: object): Record<string, string> {
  const value = Buffer.from(JSON.stringify(data)).toString('base64url');
  return { cookie: `session=${encodeURIComponent(sign(value, SECRET))}` };
}

describe.each(testDialects())('sessions end on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect, { env: { SESSION_SECRET: SECRET } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => server?.destroy());

  async function signUp(name: string): Promise<{ client: ApiClient; id: number }> {
    const anon = new ApiClient(server.app);
    expect((await anon.post('/api/user/register', { username: name, password: 'password123' })).body.success).toBe(true);
    const data = await anon.login(name, 'password123');
    return { client: anon, id: data.id };
  }

  const selfStatus = async (client: ApiClient) => (await client.get('/api/user/self')).status;

  it('refuses a cookie copied before logout', async () => {
    const { client } = await signUp('s_logout');
    const copy = client.withApp(server.app);
    expect(await selfStatus(copy)).toBe(200);
    expect((await client.get('/api/user/logout')).body.success).toBe(true);
    expect(await selfStatus(copy)).toBe(401);
    expect((await copy.get('/api/user/self')).body.success).toBe(false);
  });

  it('ends other sessions on a password change but keeps the one that changed it', async () => {
    const { client } = await signUp('s_passwd');
    const before = client.withApp(server.app);
    const otherDevice = new ApiClient(server.app);
    await otherDevice.login('s_passwd', 'password123');
    expect((await client.put('/api/user/self', { password: 'newpassword1', original_password: 'password123' })).body.success).toBe(true);
    expect(await selfStatus(client)).toBe(200);
    expect(await selfStatus(before)).toBe(401);
    expect(await selfStatus(otherDevice)).toBe(401);
    await new ApiClient(server.app).login('s_passwd', 'newpassword1');
  });

  it('a display-name change keeps every session', async () => {
    const { client } = await signUp('s_name');
    const copy = client.withApp(server.app);
    expect((await client.put('/api/user/self', { display_name: 'Name' })).body.success).toBe(true);
    expect(await selfStatus(copy)).toBe(200);
  });

  it('ends the sessions of a user whose password an admin resets', async () => {
    const { client, id } = await signUp('s_reset');
    expect((await root.put('/api/user/', { id, password: 'adminset123' })).body.success).toBe(true);
    expect(await selfStatus(client)).toBe(401);
  });

  it('ends sessions on a ban, and enabling again does not revive them', async () => {
    const { client } = await signUp('s_ban');
    expect((await root.post('/api/user/manage', { username: 's_ban', action: 'disable' })).body.success).toBe(true);
    expect((await root.post('/api/user/manage', { username: 's_ban', action: 'enable' })).body.success).toBe(true);
    expect(await selfStatus(client)).toBe(401);
    await new ApiClient(server.app).login('s_ban', 'password123');
  });

  it('ends sessions on a role change (manage and admin edit)', async () => {
    const promoted = await signUp('s_promote');
    expect((await root.post('/api/user/manage', { username: 's_promote', action: 'promote' })).body.data.role).toBe(10);
    expect(await selfStatus(promoted.client)).toBe(401);

    const edited = await signUp('s_role');
    expect((await root.put('/api/user/', { id: edited.id, role: 3 })).body.success).toBe(true);
    expect(await selfStatus(edited.client)).toBe(401);
  });

  it('refuses sessions without a version or issue time, or older than the cookie lifetime', async () => {
    const { id } = await signUp('s_forged');
    const anon = new ApiClient(server.app);
    const now = Math.floor(Date.now() / 1000);
    // The format written before session versions existed.
    expect((await anon.get('/api/user/self', forgedCookie({ id, username: 's_forged' }))).status).toBe(401);
    expect((await anon.get('/api/user/self', forgedCookie({ id, username: 's_forged', v: 0 }))).status).toBe(401);
    expect((await anon.get('/api/user/self', forgedCookie({ id, username: 's_forged', v: 0, iat: now - 31 * 86400 }))).status).toBe(401);
    expect((await anon.get('/api/user/self', forgedCookie({ id, username: 's_forged', v: 0, iat: now }))).status).toBe(200);
  });

  it('marks the cookie Secure only over HTTPS by default', async () => {
    const res = await new ApiClient(server.app).post('/api/user/login', { username: 'root', password: ROOT_PASSWORD });
    expect(String(res.raw.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
  });
});

describe('SESSION_SECURE_COOKIE', () => {
  it('forces the Secure flag on the session cookie', async () => {
    const server = await startTestServer('sqlite', { env: { SESSION_SECURE_COOKIE: 'true' } });
    try {
      const res = await new ApiClient(server.app).post('/api/user/login', { username: 'root', password: ROOT_PASSWORD });
      expect(String(res.raw.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    } finally {
      await server.destroy();
    }
  });
});
