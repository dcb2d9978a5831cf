import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';

describe.each(testDialects())('user administration on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  async function signUp(username: string): Promise<{ client: ApiClient; id: number }> {
    const res = await new ApiClient(server.app).post('/api/user/register', { username, password: 'password123' });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    const client = new ApiClient(server.app);
    const me = await client.login(username, 'password123');
    return { client, id: me.id };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => server?.destroy());

  it('logs in by e-mail too, records the login and signs out', async () => {
    const { id } = await signUp('lena');
    await root.put('/api/user/', { id, email: 'lena@example.com' });
    const client = new ApiClient(server.app);
    const me = await client.login('lena@example.com', 'password123');
    expect(me).toMatchObject({ id, username: 'lena', password: '' });
    const stored = (await root.get(`/api/user/${id}`)).body.data;
    expect(stored.last_login_time).toBeGreaterThan(0);
    expect(stored.last_login_ip).not.toBe('');
    expect((await client.get('/api/user/logout')).body.success).toBe(true);
    expect((await client.get('/api/user/self')).status).toBe(401);
    await root.put('/api/option/', { key: 'PasswordLoginEnabled', value: 'false' });
    expect((await new ApiClient(server.app).post('/api/user/login', { username: 'lena', password: 'password123' })).status).toBe(403);
    await root.put('/api/option/', { key: 'PasswordLoginEnabled', value: 'true' });
  });

  it('updates the own profile: display name and password only', async () => {
    const { client, id } = await signUp('paul');
    const res = await client.put('/api/user/self', { username: 'a-much-too-long-name', display_name: 'Paul P', password: 'newpassword1', original_password: 'password123', role: 100, quota: 10 ** 9 });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    const me = (await client.get('/api/user/self')).body.data;
    expect(me).toMatchObject({ id, username: 'paul', display_name: 'Paul P', role: 1, quota: 0 });
    await new ApiClient(server.app).login('paul', 'newpassword1');
    expect((await client.put('/api/user/self', { password: 'short' })).status).toBe(400);
    const oldToken = (await client.get('/api/user/token')).body.data;
    const newToken = (await client.get('/api/user/token')).body.data;
    expect(newToken).not.toBe(oldToken);
    expect((await new ApiClient(server.app).get('/api/user/self', { authorization: oldToken })).status).toBe(401);
    expect((await new ApiClient(server.app).get('/api/user/self', { authorization: newToken })).body.data.id).toBe(id);
  });

  it('creates users as common users, updates them and deletes them softly', async () => {
    const created = await root.post('/api/user/', { username: 'made', password: 'password123', role: 10 });
    expect(created.body.success).toBe(true);
    const made = (await root.get('/api/user/?keyword=made')).body.data.data[0];
    expect(made).toMatchObject({ username: 'made', display_name: 'made', role: 1, group: 'default' });
    expect((await root.post('/api/user/', { username: 'made', password: 'password123' })).status).toBe(409);

    expect((await root.put('/api/user/', { id: made.id, display_name: 'Made', group: 'vip', role: 3 })).body.success).toBe(true);
    expect((await root.put('/api/user/', { id: made.id, group: 'no-such-group' })).status).toBe(400);
    expect((await root.put('/api/user/', { id: 999999, display_name: 'x' })).status).toBe(404);
    expect((await root.get(`/api/user/${made.id}`)).body.data).toMatchObject({ display_name: 'Made', group: 'vip', role: 3 });

    const deleted = await root.delete(`/api/user/${made.id}`);
    expect(deleted.body).toMatchObject({ success: true }); // an envelope, not the original's empty body
    expect((await root.get(`/api/user/${made.id}`)).status).toBe(404);
    expect((await root.delete(`/api/user/${made.id}`)).status).toBe(404);
    // The name is free again.
    expect((await root.post('/api/user/', { username: 'made', password: 'password123' })).body.success).toBe(true);
    expect((await root.delete('/api/user/1')).status).toBe(403); // root itself
  });

  it('applies the rank rule to admins', async () => {
    const { client: admin } = await signUp('ada');
    const { id: peerId } = await signUp('peer');
    const { id: plainId } = await signUp('plain');
    expect((await root.post('/api/user/manage', { username: 'ada', action: 'promote' })).body.data.role).toBe(10);
    expect((await root.post('/api/user/manage', { username: 'peer', action: 'promote' })).body.data.role).toBe(10);
    await admin.login('ada', 'password123'); // the role change ended the old session

    expect((await admin.get(`/api/user/${plainId}`)).body.data.username).toBe('plain');
    expect((await admin.get(`/api/user/${peerId}`)).status).toBe(403);
    expect((await admin.get('/api/user/1')).status).toBe(403);
    expect((await admin.post('/api/user/manage', { username: 'peer', action: 'disable' })).status).toBe(403);
    expect((await admin.post('/api/user/manage', { username: 'plain', action: 'promote' })).status).toBe(403);
    expect((await admin.post('/api/user/manage', { username: 'plain', action: 'set_reliable' })).body.data.role).toBe(3);
    expect((await admin.put('/api/user/', { id: plainId, role: 10 })).status).toBe(403);
    expect((await admin.delete(`/api/user/${peerId}`)).status).toBe(403);
    expect((await admin.post('/api/user/', { username: 'newbie', password: 'password123', role: 10 })).status).toBe(403);
    // Quota changes follow the rank rule too (the original had none).
    expect((await admin.post('/api/user/quota/1', { quota: 5 })).status).toBe(403);
    // Options are root-only.
    expect((await admin.get('/api/option/')).status).toBe(403);
    expect((await admin.put('/api/option/', { key: 'SystemName', value: 'x' })).status).toBe(403);

    expect((await root.post('/api/user/manage', { username: 'peer', action: 'demote' })).body.data.role).toBe(1);
    expect((await root.post('/api/user/manage', { username: 'root', action: 'disable' })).status).toBe(403);
    expect((await root.post('/api/user/manage', { username: 'root', action: 'delete' })).status).toBe(403);
    expect((await root.post('/api/user/manage', { username: 'root', action: 'promote' })).status).toBe(403);
  });

  it('rejects manage calls without a username or with an unknown action', async () => {
    expect((await root.post('/api/user/manage', { username: '', action: 'disable' })).status).toBe(400);
    expect((await root.post('/api/user/manage', { username: 'root', action: 'explode' })).status).toBe(400);
    expect((await root.post('/api/user/manage', { username: 'nobody-here', action: 'enable' })).status).toBe(404);
    const self = (await root.get('/api/user/self')).body.data;
    expect(self.status).toBe(1);
  });

  it('changes quota by a signed delta with a floor at zero and one manage log', async () => {
    const { id } = await signUp('quinn');
    expect((await root.post(`/api/user/quota/${id}`, { quota: 500, remark: 'gift' })).body.success).toBe(true);
    expect((await root.post(`/api/user/quota/${id}`, { quota: -200 })).body.success).toBe(true);
    expect((await root.post(`/api/user/quota/${id}`, { quota: -301 })).status).toBe(400);
    expect((await root.post(`/api/user/quota/${id}`, { quota: 0 })).body.message).toContain('不能为0');
    expect((await root.post('/api/user/quota/999999', { quota: 5 })).status).toBe(404);
    expect((await root.get(`/api/user/${id}`)).body.data.quota).toBe(300);

    // A profile update that carries a different quota changes nothing and logs nothing.
    await root.put('/api/user/', { id, quota: 10 ** 9, display_name: 'Quinn' });
    expect((await root.get(`/api/user/${id}`)).body.data.quota).toBe(300);
    const logs = await server.ctx.db.selectFrom('logs').select(['type', 'quota', 'content']).where('user_id', '=', id).orderBy('id').execute();
    expect(logs.map((l) => [l.type, Number(l.quota)])).toEqual([
      [3, 500],
      [3, -200],
    ]);
    expect(logs[0].content).toContain('备注: gift');
    // The console renders the message key in the reader's language; the API keeps the Chinese text.
    const listed = (await root.get('/api/log/?log_type=3&username=quinn')).body.data.data as Array<{ content: string; metadata: Record<string, unknown> }>;
    expect(listed.map((l) => l.metadata?.msg)).toEqual(
      expect.arrayContaining([
        { key: 'admin_quota_remark', args: { quota: 500, remark: 'gift' } },
        { key: 'admin_quota', args: { quota: -200, remark: '' } },
      ]),
    );
  });

  it('accepts a long stored username sent back unchanged, but validates a new one', async () => {
    const { id } = await signUp('shorty');
    const long = 'oauth_user_with_long_name';
    await server.ctx.db.updateTable('users').set({ username: long }).where('id', '=', id).execute();
    expect((await root.put('/api/user/', { id, username: long, display_name: 'OAuth' })).body.success).toBe(true);
    const renamed = await root.put('/api/user/', { id, username: 'another_long_name' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toContain('username');
    expect((await root.put('/api/user/', { id, username: 'root' })).status).toBe(409);
  });
});
