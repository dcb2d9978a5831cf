import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';
import { FakeGitHub, type GitHubAccount } from '../fakes/github.js';

describe.each(testDialects())('GitHub sign-in on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  const github = new FakeGitHub('gh-client', 'gh-secret');
  const set = async (key: string, value: string) => expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
  const row = (id: number) => server.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** The console's round trip: a state from the server, the person approves at GitHub, the callback. */
  async function signIn(client: ApiClient, account: GitHubAccount, opts: { scope?: string; aff?: string } = {}) {
    const state = (await client.get('/api/oauth/state')).body.data as string;
    const code = github.authorize(account, opts.scope);
    return client.get(`/api/oauth/github?code=${code}&state=${state}${opts.aff ? `&aff=${opts.aff}` : ''}`);
  }

  beforeAll(async () => {
    const url = await github.start();
    server = await startTestServer(dialect, { env: { GITHUB_BASE_URL: url, GITHUB_API_BASE_URL: url, CRITICAL_RATE_LIMIT: '0' } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    await set('GitHubClientId', 'gh-client');
    await set('GitHubClientSecret', 'gh-secret');
  });
  afterAll(async () => {
    await server?.destroy();
    await github.close();
  });

  it('refuses while switched off, and without, with a wrong or a replayed state', async () => {
    const client = new ApiClient(server.app);
    const off = await signIn(client, { id: 1, login: 'someone' });
    expect(off.status).toBe(403);
    expect(off.body.message).toBe('管理员未开启通过 GitHub 登录以及注册');
    await set('GitHubOAuthEnabled', 'true');

    const state = (await client.get('/api/oauth/state')).body.data as string;
    expect(state).toMatch(/^[0-9a-zA-Z]{12}$/);
    for (const query of [`code=${github.authorize({ id: 2, login: 'x' })}`, `code=${github.authorize({ id: 2, login: 'x' })}&state=wrongstate12`]) {
      const res = await new ApiClient(server.app).get(`/api/oauth/github?${query}`);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('state is empty or not same');
    }
    const first = await client.get(`/api/oauth/github?code=${github.authorize({ id: 3, login: 'replayer' })}&state=${state}`);
    expect(first.body.success, JSON.stringify(first.body)).toBe(true);
    // the same state again, even with a fresh code and from a fresh copy of the old cookie, is refused
    const replay = await new ApiClient(server.app).get(`/api/oauth/github?code=${github.authorize({ id: 3, login: 'replayer' })}&state=${state}`);
    expect(replay.status).toBe(403);
  });

  it('refuses a state older than ten minutes', async () => {
    const client = new ApiClient(server.app);
    const state = (await client.get('/api/oauth/state')).body.data as string;
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 601_000);
    try {
      const res = await client.get(`/api/oauth/github?code=${github.authorize({ id: 4, login: 'late' })}&state=${state}`);
      expect(res.status).toBe(403);
    } finally {
      clock.mockRestore();
    }
  });

  it('registers on first sign-in with the verified primary e-mail and the invite bonus, then signs the same account in', async () => {
    await set('QuotaForInvitee', '700');
    const inviter = (await root.get('/api/user/aff')).body.data as string;
    const account: GitHubAccount = {
      id: 501,
      login: 'octo-cat',
      name: 'Octo Cat',
      avatar_url: 'https://avatars.example/501',
      emails: [
        { email: 'unverified@example.com', primary: false, verified: false },
        { email: 'octo@example.com', primary: true, verified: true },
      ],
    };
    const client = new ApiClient(server.app);
    const res = await signIn(client, account, { aff: inviter });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.username).toBe('octo-cat');
    const me = (await client.get('/api/user/self')).body.data;
    expect(me).toMatchObject({ username: 'octo-cat', display_name: 'Octo Cat', email: 'octo@example.com', github_id: 'octo-cat', github_id_new: 501, inviter_id: 1, quota: 700 });
    expect(me.avatar_url).toBe('https://avatars.example/501');
    const logs = await server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', me.id).execute();
    expect(logs.some((l) => l.quota === 700)).toBe(true);

    // renamed on GitHub: found by the numeric id, the login is refreshed
    const again = await signIn(new ApiClient(server.app), { ...account, login: 'octo-renamed' });
    expect(again.body.data.id).toBe(me.id);
    expect((await row(me.id)).github_id).toBe('octo-renamed');
    await set('QuotaForInvitee', '0');
  });

  it('never lands on root through an empty e-mail or the name root', async () => {
    const res = await signIn(new ApiClient(server.app), { id: 600, login: 'root' }, { scope: '' });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.id).not.toBe(1);
    expect(res.body.data.username).toMatch(/^github_\d+$/);
    expect(res.body.data.role).toBe(1);
    // an unverified address is not used to find an account either
    await server.ctx.db.updateTable('users').set({ email: 'root@example.com' }).where('id', '=', 1).execute();
    const unverified = await signIn(new ApiClient(server.app), { id: 601, login: 'eve', emails: [{ email: 'root@example.com', primary: true, verified: false }] });
    expect(unverified.body.data.id).not.toBe(1);
    expect((await row(unverified.body.data.id)).email).toBe('');
    await server.ctx.db.updateTable('users').set({ email: '' }).where('id', '=', 1).execute();
  });

  it('links to the local account holding the same verified e-mail', async () => {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'mailer', password: 'password123' })).body.success).toBe(true);
    const local = await server.ctx.db.selectFrom('users').selectAll().where('username', '=', 'mailer').executeTakeFirstOrThrow();
    await server.ctx.db.updateTable('users').set({ email: 'mailer@example.com' }).where('id', '=', local.id).execute();
    const res = await signIn(new ApiClient(server.app), { id: 700, login: 'mailer-gh', emails: [{ email: 'mailer@example.com', primary: true, verified: true }] });
    expect(res.body.data.id).toBe(local.id);
    expect(Number((await row(local.id)).github_id_new)).toBe(700);
  });

  it('binds to the signed-in user and refuses a GitHub account bound elsewhere', async () => {
    for (const name of ['binder', 'other']) {
      expect((await new ApiClient(server.app).post('/api/user/register', { username: name, password: 'password123' })).body.success).toBe(true);
    }
    const binder = new ApiClient(server.app);
    const me = await binder.login('binder', 'password123');
    const bound = await signIn(binder, { id: 800, login: 'binder-gh', avatar_url: 'https://a/800' });
    expect(bound.body).toMatchObject({ success: true, message: 'bind' });
    expect((await binder.get('/api/user/self')).body.data).toMatchObject({ id: me.id, github_id: 'binder-gh', github_id_new: 800, avatar_url: 'https://a/800' });

    const other = new ApiClient(server.app);
    await other.login('other', 'password123');
    const clash = await signIn(other, { id: 800, login: 'binder-gh' });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('该 GitHub 账户已被绑定');
  });

  it('refuses a disabled user and honours GitHubOldIdCloseEnabled', async () => {
    const first = await signIn(new ApiClient(server.app), { id: 900, login: 'banned-gh' });
    await server.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', first.body.data.id).execute();
    const banned = await signIn(new ApiClient(server.app), { id: 900, login: 'banned-gh' });
    expect(banned.status).toBe(403);
    expect(banned.body.message).toBe('用户已被封禁');

    // an account bound before numeric ids were stored: found by login unless the old lookup is closed
    expect((await new ApiClient(server.app).post('/api/user/register', { username: 'oldtimer', password: 'password123' })).body.success).toBe(true);
    const old = await server.ctx.db.selectFrom('users').selectAll().where('username', '=', 'oldtimer').executeTakeFirstOrThrow();
    await server.ctx.db.updateTable('users').set({ github_id: 'old-login' }).where('id', '=', old.id).execute();
    await set('GitHubOldIdCloseEnabled', 'true');
    const closed = await signIn(new ApiClient(server.app), { id: 1000, login: 'old-login' });
    expect(closed.body.data.id).not.toBe(old.id);
    await server.ctx.db.updateTable('users').set({ github_id: '', github_id_new: 0 }).where('id', '=', closed.body.data.id).execute();
    await set('GitHubOldIdCloseEnabled', 'false');
    const open = await signIn(new ApiClient(server.app), { id: 1000, login: 'old-login' });
    expect(open.body.data.id).toBe(old.id);
    expect(Number((await row(old.id)).github_id_new)).toBe(1000);
  });

  it('keeps the last way to sign in, and answers clear errors for a closed registration or a refused exchange', async () => {
    const client = new ApiClient(server.app);
    await signIn(client, { id: 1100, login: 'only-gh' });
    const last = await client.post('/api/user/unbind', { type: 'github' });
    expect(last.status).toBe(400);
    expect(last.body.message).toContain('唯一的登录方式');

    await set('RegisterEnabled', 'false');
    const closed = await signIn(new ApiClient(server.app), { id: 1200, login: 'latecomer' });
    expect(closed.status).toBe(403);
    expect(closed.body.message).toBe('管理员关闭了新用户注册');
    await set('RegisterEnabled', 'true');

    await set('GitHubClientSecret', 'wrong-secret');
    const refused = await signIn(new ApiClient(server.app), { id: 1300, login: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('incorrect');
    await set('GitHubClientSecret', 'gh-secret');
    // a code works once at GitHub too
    const c = new ApiClient(server.app);
    const code = github.authorize({ id: 1400, login: 'once' });
    const s1 = (await c.get('/api/oauth/state')).body.data;
    expect((await c.get(`/api/oauth/github?code=${code}&state=${s1}`)).body.success).toBe(true);
    const s2 = (await c.get('/api/oauth/state')).body.data;
    expect((await c.get(`/api/oauth/github?code=${code}&state=${s2}`)).body.message).toContain('incorrect or expired');
  });
});
