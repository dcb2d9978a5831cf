import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient, redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { base32Decode, hotp, stepAt } from '../../src/console/auth/two-factor/totp.js';
import { SoftAuthenticator } from '../fakes/authenticator.js';
import { ORIGIN, rootOnOrigin } from './origin-server.js';

const PASSWORD = 'password123';
const codeAt = (secret: string, step: number) => hotp(base32Decode(secret), step);

/** Issue 35: one credential model — tokens end with sessions, factor changes step up, one wrong-code counter. */
describe('one credential model', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    ({ server, root } = await rootOnOrigin());
  });
  afterAll(async () => server?.destroy());
  afterEach(() => vi.useRealTimers());

  const anon = () => new ApiClient(server.app);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const storedToken = async (id: number) =>
    (await server.ctx.db.selectFrom('users').select('access_token').where('id', '=', id).executeTakeFirstOrThrow()).access_token!;

  async function signUp(name: string, role = 1) {
    expect((await anon().post('/api/user/register', { username: name, password: PASSWORD })).body.success).toBe(true);
    if (role !== 1) await server.ctx.db.updateTable('users').set({ role }).where('username', '=', name).execute();
    const client = anon();
    const { id } = await client.login(name, PASSWORD);
    return { client, id: id as number };
  }

  async function withTwoFactor(name: string, role = 1) {
    const user = await signUp(name, role);
    const { secret } = (await user.client.post('/api/user/2fa/setup')).body.data;
    const step = stepAt(Date.now());
    const codes = (await user.client.post('/api/user/2fa/enable', { code: codeAt(secret, step) })).body.data as string[];
    expect(codes).toHaveLength(10);
    return { ...user, secret, step, codes };
  }

  /** A password sign-in up to the pending second factor. */
  async function pending(name: string) {
    const client = anon();
    expect((await client.post('/api/user/login', { username: name, password: PASSWORD })).body.message).toBe('2fa');
    return client;
  }

  it('shows no access token in any user answer but the owner’s GET /api/user/token', async () => {
    const { client: admin, id } = await signUp('cred_admin', 10);
    const rootToken = await storedToken(1);
    const answers = [
      await admin.get('/api/user/'),
      await admin.get('/api/user/?keyword=root'),
      await root.get('/api/user/1'),
      await root.get(`/api/user/${id}`),
      await admin.get('/api/user/self'),
      await root.get('/api/user/self'),
    ];
    for (const res of answers) {
      expect(res.body.success, JSON.stringify(res.body)).toBe(true);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(rootToken);
      expect(text).not.toContain(await storedToken(id));
    }
    expect(answers[2].body.data.access_token).toBe('');
    expect(answers[4].body.data.access_token).toBe('');
    const own = (await admin.get('/api/user/token')).body.data as string;
    expect(own).toMatch(/^[0-9a-f]{32}$/);
    expect((await anon().get('/api/user/self', bearer(own))).body.data.id).toBe(id);
  });

  it('ends the access token with the sessions: logout, password change, admin reset, ban', async () => {
    const loggedOut = await signUp('cred_logout');
    const t1 = (await loggedOut.client.get('/api/user/token')).body.data as string;
    expect((await anon().get('/api/user/self', bearer(t1))).status).toBe(200);
    expect((await loggedOut.client.get('/api/user/logout')).body.success).toBe(true);
    expect((await anon().get('/api/user/self', bearer(t1))).status).toBe(401);

    const reset = await signUp('cred_reset');
    const t2 = (await reset.client.get('/api/user/token')).body.data as string;
    expect((await root.put('/api/user/', { id: reset.id, password: 'adminset123' })).body.success).toBe(true);
    expect((await anon().get('/api/user/self', bearer(t2))).status).toBe(401);

    const banned = await signUp('cred_ban');
    const t3 = (await banned.client.get('/api/user/token')).body.data as string;
    expect((await root.post('/api/user/manage', { username: 'cred_ban', action: 'disable' })).body.success).toBe(true);
    expect((await root.post('/api/user/manage', { username: 'cred_ban', action: 'enable' })).body.success).toBe(true);
    expect((await anon().get('/api/user/self', bearer(t3))).status).toBe(401);
  });

  it('changes a password only with the original one (or a fresh step-up), by cookie or by token', async () => {
    const { client, id } = await signUp('cred_pw');
    const token = (await client.get('/api/user/token')).body.data as string;
    const viaToken = (body: object) => anon().put('/api/user/self', body, bearer(token));

    const missing = await viaToken({ password: 'takeover123' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, message: '修改密码须填写原密码 (original_password is required)' });
    expect((await client.put('/api/user/self', { password: 'takeover123' })).status).toBe(400);
    const wrong = await viaToken({ password: 'takeover123', original_password: 'guess-guess' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('原密码错误 (original_password is wrong)');
    await client.login('cred_pw', PASSWORD);

    const changed = await viaToken({ password: 'newpassword1', original_password: PASSWORD });
    expect(changed.body.success, JSON.stringify(changed.body)).toBe(true);
    // the change ends the token it came through, and every session
    expect((await anon().get('/api/user/self', bearer(token))).status).toBe(401);
    expect((await client.get('/api/user/self')).status).toBe(401);
    expect((await anon().login('cred_pw', 'newpassword1')).id).toBe(id);

    // an account without a password (a provider sign-up) sets its first one from its session, not by token
    const oauth = await signUp('cred_nopw');
    const oauthToken = (await oauth.client.get('/api/user/token')).body.data as string;
    await server.ctx.db.updateTable('users').set({ password: '' }).where('id', '=', oauth.id).execute();
    expect((await anon().put('/api/user/self', { password: 'firstpass1' }, bearer(oauthToken))).status).toBe(400);
    expect((await oauth.client.put('/api/user/self', { password: 'firstpass1' })).body.success).toBe(true);
    await anon().login('cred_nopw', 'firstpass1');
  });

  it('asks for a fresh step-up before a passkey is added or removed, and never takes an access token', async () => {
    const { client, secret, step, codes } = await withTwoFactor('cred_pk', 10);
    const key = new SoftAuthenticator(ORIGIN);
    const refused = await client.post('/api/webauthn/registration/begin', { alias: 'attacker' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'step_up_required', data: { two_factor: true, passkey: false } });
    expect((await client.post('/api/webauthn/registration/finish', {})).body.message).toBe('会话已过期');

    expect((await client.post('/api/user/step_up', { code: codeAt(secret, step + 1) })).body.success).toBe(true);
    const begin = await client.post('/api/webauthn/registration/begin', { alias: 'laptop' });
    expect((await client.post('/api/webauthn/registration/finish', key.create(begin.body.data.publicKey))).body.success).toBe(true);

    // another session of the same user (no step-up yet) cannot remove it
    const other = await pending('cred_pk');
    expect((await other.post('/api/user/login/2fa', { code: codes[0] })).body.success).toBe(true);
    const [cred] = (await other.get('/api/webauthn/credentials')).body.data;
    expect((await other.delete(`/api/webauthn/credentials/${cred.id}`)).body.code).toBe('step_up_required');
    // an access token never changes factors, not even with a fresh session elsewhere
    const token = (await other.get('/api/user/token')).body.data as string;
    const viaToken = await anon().post('/api/user/2fa/setup', {}, bearer(token));
    expect(viaToken.status).toBe(403);
    expect(viaToken.body.message).toContain('factor changes need a console session');
    const options = (await other.post('/api/user/step_up/passkey')).body.data.publicKey;
    expect((await other.post('/api/user/step_up', { passkey: key.get(options) })).body.success).toBe(true);
    expect((await other.delete(`/api/webauthn/credentials/${cred.id}`)).body.success).toBe(true);
    // a fresh step-up also stands in for the original password
    expect((await other.put('/api/user/self', { password: 'stepped-up-1' })).body.success).toBe(true);
    expect((await anon().post('/api/user/login', { username: 'cred_pk', password: PASSWORD })).status).toBe(401);
    expect((await anon().post('/api/user/login', { username: 'cred_pk', password: 'stepped-up-1' })).body.message).toBe('2fa');
  });

  it('lets no one reset their own two-factor by the admin path; resetting another user steps up', async () => {
    const boss = await withTwoFactor('cred_root', 100);
    const own = await boss.client.delete(`/api/user/2fa/${boss.id}`);
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('不能在此重置自己的两步验证，请在个人设置中用验证码关闭');
    const victim = await withTwoFactor('cred_victim');
    expect((await boss.client.delete(`/api/user/2fa/${victim.id}`)).body.code).toBe('step_up_required');
    expect((await boss.client.post('/api/user/step_up', { code: boss.codes[0] })).body.success).toBe(true);
    expect((await boss.client.delete(`/api/user/2fa/${boss.id}`)).status).toBe(400);
    expect((await boss.client.get('/api/user/2fa')).body.data.enabled).toBe(true);
    expect((await boss.client.delete(`/api/user/2fa/${victim.id}`)).body.success).toBe(true);
  });

  it('counts wrong codes per account across sign-in rounds, step-up and disable, then locks for 15 minutes', async () => {
    const { client, codes } = await withTwoFactor('cred_guess');
    // five wrong codes spread over three sign-in rounds
    for (const tries of [2, 2, 1]) {
      const round = await pending('cred_guess');
      for (let i = 0; i < tries; i++) expect((await round.post('/api/user/login/2fa', { code: '000000' })).status).toBe(400);
    }
    const fresh = await pending('cred_guess');
    const locked = await fresh.post('/api/user/login/2fa', { code: codes[0] });
    expect(locked.status).toBe(429);
    expect(locked.body.success).toBe(false);
    expect(locked.body.message).toMatch(/^验证码错误次数过多，请 \d+ 秒后再试/);
    // the same lock covers step-up and disable, right codes included
    expect((await client.post('/api/user/step_up', { code: codes[0] })).status).toBe(429);
    expect((await client.post('/api/user/2fa/disable', { code: codes[0] })).status).toBe(429);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 15 * 60 * 1000 + 1000);
    const later = await pending('cred_guess');
    expect((await later.post('/api/user/login/2fa', { code: codes[0] })).body.success).toBe(true);
  });

  it('limits disable guesses, and a right code starts the count again', async () => {
    const { client, codes } = await withTwoFactor('cred_disable');
    for (let i = 0; i < 4; i++) expect((await client.post('/api/user/step_up', { code: '111111' })).status).toBe(400);
    expect((await client.post('/api/user/step_up', { code: codes[0] })).body.success).toBe(true);
    for (let i = 0; i < 5; i++) expect((await client.post('/api/user/2fa/disable', { code: '222222' })).status).toBe(400);
    expect((await client.post('/api/user/2fa/disable', { code: codes[1] })).status).toBe(429);
    expect((await client.get('/api/user/2fa')).body.data.enabled).toBe(true);
  });
});

describe.runIf(testDialects().includes('postgres') && redisAvailable())('the wrong-code lock across nodes (PostgreSQL + Redis)', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer('postgres', { redis: true, env: { CRITICAL_RATE_LIMIT: '0' } });
    b = await startTestServer('postgres', { reuse: a, redis: true });
  });
  afterAll(async () => {
    await b?.close();
    await a?.destroy();
  });

  it('holds on the other node', async () => {
    expect((await new ApiClient(a.app).post('/api/user/register', { username: 'nodes', password: PASSWORD })).body.success).toBe(true);
    const onA = new ApiClient(a.app);
    await onA.login('nodes', PASSWORD);
    const { secret } = (await onA.post('/api/user/2fa/setup')).body.data;
    const codes = (await onA.post('/api/user/2fa/enable', { code: codeAt(secret, stepAt(Date.now())) })).body.data as string[];
    for (let i = 0; i < 5; i++) expect((await onA.post('/api/user/step_up', { code: '000000' })).status).toBe(400);
    const onB = new ApiClient(b.app);
    expect((await onB.post('/api/user/login', { username: 'nodes', password: PASSWORD })).body.message).toBe('2fa');
    expect((await onB.post('/api/user/login/2fa', { code: codes[0] })).status).toBe(429);
  });
});
