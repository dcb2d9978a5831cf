import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type TestServer } from '../harness.js';
import { SoftAuthenticator } from '../fakes/authenticator.js';
import { ORIGIN, rootOnOrigin } from './origin-server.js';


describe('passkeys (WebAuthn) with a software authenticator', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    ({ server, root } = await rootOnOrigin());
  });
  afterAll(async () => server?.destroy());

  async function register(client: ApiClient, key: SoftAuthenticator, alias?: string) {
    const begin = await client.post('/api/webauthn/registration/begin', alias ? { alias } : {});
    expect(begin.body.success, JSON.stringify(begin.body)).toBe(true);
    return client.post('/api/webauthn/registration/finish', key.create(begin.body.data.publicKey));
  }
  /** A fresh step-up with the passkey, which adding or removing another one asks for. */
  async function stepUp(client: ApiClient, key: SoftAuthenticator) {
    const options = (await client.post('/api/user/step_up/passkey')).body.data.publicKey;
    expect((await client.post('/api/user/step_up', { passkey: key.get(options) })).body.success).toBe(true);
  }
  async function login(client: ApiClient, key: SoftAuthenticator, opts: { username?: string; origin?: string; bump?: number } = {}) {
    const begin = await client.post('/api/webauthn/login/begin', { username: opts.username ?? '' });
    expect(begin.body.success, JSON.stringify(begin.body)).toBe(true);
    const assertion = key.get(begin.body.data.publicKey, opts.origin, opts.bump);
    return { assertion, res: await client.post('/api/webauthn/login/finish', assertion) };
  }

  it('registers with RP ID and origin from ServerAddress, signs in discoverably and by username, and moves the counter', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'pkuser', password: 'password123' })).body.success).toBe(true);
    const me = new ApiClient(server.app);
    const { id } = await me.login('pkuser', 'password123');
    const key = new SoftAuthenticator(ORIGIN);
    const begin = await me.post('/api/webauthn/registration/begin', { alias: 'laptop' });
    expect(begin.body.data.publicKey.rp).toMatchObject({ id: 'hub.example.com' });
    const reg = await me.post('/api/webauthn/registration/finish', key.create(begin.body.data.publicKey));
    expect(reg.body).toMatchObject({ success: true, message: 'WebAuthn注册成功' });
    // the same ceremony cannot be finished twice
    expect((await me.post('/api/webauthn/registration/finish', key.create(begin.body.data.publicKey))).status).toBe(400);

    const list = (await me.get('/api/webauthn/credentials')).body.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ alias: 'laptop', credential_id: key.credentialId.toString('base64') });

    const anon = new ApiClient(server.app);
    const first = await login(anon, key);
    expect(first.res.body.data?.id, JSON.stringify(first.res.body)).toBe(id);
    expect((await anon.get('/api/user/self')).body.data.username).toBe('pkuser');
    const row = () => server.ctx.db.selectFrom('webauthn_credentials').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow();
    expect((await row()).sign_count).toBe(1);
    expect((await login(new ApiClient(server.app), key, { username: 'pkuser' })).res.body.success).toBe(true);
    expect((await row()).sign_count).toBe(2);

    // a replayed assertion (same challenge) is refused; so is one whose counter did not move
    const replay = await new ApiClient(server.app).post('/api/webauthn/login/finish', first.assertion);
    expect(replay.status).toBe(400);
    const stale = await login(new ApiClient(server.app), key, { bump: 0 });
    expect(stale.res.status).toBe(400);
    // an assertion made for another origin is refused
    const phish = await login(new ApiClient(server.app), key, { origin: 'https://hub.example.com.evil.test' });
    expect(phish.res.status).toBe(400);
    expect(phish.res.body.message).toContain('登录验证失败');
    // a key the server never saw is refused
    expect((await login(new ApiClient(server.app), new SoftAuthenticator(ORIGIN))).res.status).toBe(400);
  });

  it('lets only the owner delete a credential, and refuses a disabled user', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'pkuser2', password: 'password123' })).body.success).toBe(true);
    const me = new ApiClient(server.app);
    const { id } = await me.login('pkuser2', 'password123');
    const key = new SoftAuthenticator(ORIGIN);
    expect((await register(me, key)).body.success).toBe(true);
    const [cred] = (await me.get('/api/webauthn/credentials')).body.data;
    expect(cred.alias).toMatch(/^\d{14}$/);

    await server.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', id).execute();
    expect((await login(new ApiClient(server.app), key)).res.status).toBe(403);
    await server.ctx.db.updateTable('users').set({ status: 1 }).where('id', '=', id).execute();

    const other = await root.delete(`/api/webauthn/credentials/${cred.id}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('凭据不存在');
    expect((await me.delete(`/api/webauthn/credentials/${cred.id}`)).body.code).toBe('step_up_required');
    await stepUp(me, key);
    expect((await me.delete(`/api/webauthn/credentials/${cred.id}`)).body.message).toBe('凭据删除成功');
    expect((await me.get('/api/webauthn/credentials')).body.data).toBeNull();
    expect((await new ApiClient(server.app).post('/api/webauthn/login/begin', { username: 'nobody-here' })).status).toBe(404);
    expect((await new ApiClient(server.app).post('/api/webauthn/login/finish', {})).status).toBe(400);
  });

  it('refuses to delete the last passkey of a user who has no other way to sign in', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'pkonly', password: 'password123' })).body.success).toBe(true);
    const me = new ApiClient(server.app);
    const { id } = await me.login('pkonly', 'password123');
    const laptop = new SoftAuthenticator(ORIGIN);
    const phone = new SoftAuthenticator(ORIGIN);
    expect((await register(me, laptop, 'laptop')).body.success).toBe(true);
    await stepUp(me, laptop);
    expect((await register(me, phone, 'phone')).body.success).toBe(true);
    // an account made through a passkey-only path: no password, no e-mail, no provider
    await server.ctx.db.updateTable('users').set({ password: '', email: '' }).where('id', '=', id).execute();
    const [first, second] = (await me.get('/api/webauthn/credentials')).body.data;
    expect((await me.delete(`/api/webauthn/credentials/${first.id}`)).body.success).toBe(true);
    const last = await me.delete(`/api/webauthn/credentials/${second.id}`);
    expect(last.status).toBe(400);
    expect(last.body.message).toContain('唯一的登录方式');
    expect((await me.get('/api/webauthn/credentials')).body.data).toHaveLength(1);
    // the remaining passkey still signs in
    expect((await login(new ApiClient(server.app), phone)).res.body.data?.id).toBe(id);
    // with another way to sign in (a bound provider) the last passkey can go
    await server.ctx.db.updateTable('users').set({ github_id: 'pk-gh' }).where('id', '=', id).execute();
    expect((await me.delete(`/api/webauthn/credentials/${second.id}`)).body.message).toBe('凭据删除成功');
  });
});
