// The guarded first run (issue 39 point 3): no root and no INITIAL_ROOT_PASSWORD → a one-time setup link.
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';
import { FakeOpenAI } from '../fakes/openai-upstream.js';
import { offerSetup, SETUP_TOKEN_KEY } from '../../src/console/setup/service.js';
import { ensureRootUser } from '../../src/console/user/seed.js';

let servers: TestServer[] = [];
let fakes: FakeOpenAI[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.destroy()));
  await Promise.all(fakes.map((f) => f.close()));
  servers = [];
  fakes = [];
});

/** A server started with no INITIAL_ROOT_PASSWORD, and a way to (re)print the link into `lines` as a restart would. */
async function fresh(dialect: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(dialect, { env: { INITIAL_ROOT_PASSWORD: '' } });
  servers.push(server);
  const lines: string[] = [];
  const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } as unknown as FastifyBaseLogger;
  const ctx = { ...server.ctx, log };
  const printLink = async () => {
    await offerSetup(ctx);
    const link = lines.at(-1)!.match(/(\S+)\/setup\?token=([A-Za-z0-9_-]+)/);
    expect(link, lines.at(-1)).not.toBeNull();
    return { base: link![1], token: link![2] };
  };
  return { server, lines, ctx, printLink };
}

const body = (token: string, extra: Record<string, unknown> = {}) => ({
  token,
  username: 'admin',
  password: 'chosen-pass-1',
  system_name: 'Acme Hub',
  server_address: 'https://hub.example.com/',
  ...extra,
});

describe.each(testDialects())('first-run setup on %s', (dialect) => {
  it('creates no root, prints a one-time link, refuses bad tokens, sets root and options once', async () => {
    const { server, lines, printLink } = await fresh(dialect);
    expect(await server.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
    const anon = new ApiClient(server.app);
    expect((await anon.get('/api/status')).body.data.setup_required).toBe(true);

    const first = await printLink();
    expect(lines).toHaveLength(1);
    expect(first.base).toBe(`http://localhost:${server.ctx.config.PORT}`);
    expect(first.token.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    // Only a hash is stored, and the status never tells the token.
    const stored = await server.ctx.db.selectFrom('options').select('value').where('key', '=', SETUP_TOKEN_KEY).executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(first.token);
    expect(JSON.stringify((await anon.get('/api/status')).body)).not.toContain(first.token);
    expect(JSON.stringify((await anon.get('/api/option/')).body)).not.toContain(SETUP_TOKEN_KEY);

    // A restart while unused prints a new link; the old one stops working.
    const { token } = await printLink();
    expect(token).not.toBe(first.token);
    const stale = await anon.get(`/api/setup?token=${first.token}`);
    expect(stale.status).toBe(403);
    expect(stale.body).toMatchObject({ success: false, code: 'setup_token_invalid' });

    // Without a token, with a wrong one: refused with a message, never a 500.
    const none = await anon.get('/api/setup');
    expect(none.status).toBe(400);
    expect(none.body.success).toBe(false);
    expect(none.body.message).toMatch(/token/);
    const wrong = await anon.post('/api/setup', body('x'.repeat(43)));
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toMatch(/设置链接无效/);
    expect((await anon.post('/api/setup', { ...body(token), token: undefined })).status).toBe(400);
    // Password rules as registration.
    const weak = await anon.post('/api/setup', body(token, { password: 'short' }));
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/password/);

    const valid = await anon.get(`/api/setup?token=${token}`);
    expect(valid.body).toMatchObject({ success: true, data: { system_name: 'One Hub', server_address: first.base } });

    const done = await anon.post('/api/setup', body(token));
    expect(done.body, JSON.stringify(done.body)).toMatchObject({ success: true, data: { username: 'admin' } });
    expect(done.body.data.channel).toBeUndefined();

    // Root signs in with the chosen name and password; the options are set.
    const me = await new ApiClient(server.app).login('admin', 'chosen-pass-1');
    expect(me).toMatchObject({ username: 'admin', role: 100 });
    const status = (await anon.get('/api/status')).body.data;
    expect(status).toMatchObject({ setup_required: false, system_name: 'Acme Hub', server_address: 'https://hub.example.com' });

    // The link is used: the same token, any token, and a new link after a restart are all refused.
    for (const again of [token, first.token, 'y'.repeat(43)]) {
      const res = await anon.post('/api/setup', body(again, { username: 'evil', password: 'evil-pass-12' }));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, code: 'setup_done' });
      expect((await anon.get(`/api/setup?token=${again}`)).status).toBe(403);
    }
    const count = lines.length;
    await offerSetup({ ...server.ctx, log: { warn: (m: string) => lines.push(m), info: (m: string) => lines.push(m) } as unknown as FastifyBaseLogger });
    expect(lines).toHaveLength(count); // root exists: no new link
    expect(await server.ctx.db.selectFrom('users').select('username').execute()).toEqual([{ username: 'admin' }]);
  });

  it('refuses an expired link', async () => {
    const { server, printLink } = await fresh(dialect);
    const { token } = await printLink();
    const row = await server.ctx.db.selectFrom('options').select('value').where('key', '=', SETUP_TOKEN_KEY).executeTakeFirstOrThrow();
    const stored = JSON.parse(row.value!) as { hash: string; expires_at: number };
    const expiresIn = stored.expires_at - Math.floor(Date.now() / 1000);
    expect(expiresIn).toBeGreaterThan(3590);
    expect(expiresIn).toBeLessThanOrEqual(3600);
    const expired = JSON.stringify({ ...stored, expires_at: Math.floor(Date.now() / 1000) - 1 });
    await server.ctx.db.updateTable('options').set({ value: expired }).where('key', '=', SETUP_TOKEN_KEY).execute();
    const anon = new ApiClient(server.app);
    const res = await anon.post('/api/setup', body(token));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('setup_token_invalid');
    expect(await server.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('creates and tests the first channel on the spot, and reports a failing test without undoing the setup', async () => {
    const fake = new FakeOpenAI();
    fakes.push(fake);
    await fake.start();
    fake.behave('bad-key', { status: 401, errorBody: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });

    const { server, printLink } = await fresh(dialect);
    const { token } = await printLink();
    const anon = new ApiClient(server.app);
    const good = await anon.post('/api/setup', body(token, { channel: { type: 1, key: 'good-key', base_url: fake.url, models: 'gpt-4o-mini' } }));
    expect(good.body, JSON.stringify(good.body)).toMatchObject({ success: true, data: { channel: { success: true } } });
    expect(fake.forKey('good-key').map((r) => r.path)).toEqual(['/v1/chat/completions']);
    const channel = await server.ctx.db.selectFrom('channels').selectAll().where('id', '=', good.body.data.channel.id).executeTakeFirstOrThrow();
    expect(channel).toMatchObject({ type: 1, key: 'good-key', base_url: fake.url, models: 'gpt-4o-mini', group: 'default', status: 1 });
    expect(channel.test_time).toBeGreaterThan(0);

    // A second fresh install whose channel test fails: root is set all the same, the failure reported.
    const other = await fresh(dialect);
    const link = await other.printLink();
    const bad = await new ApiClient(other.server.app).post(
      '/api/setup',
      body(link.token, { channel: { type: 1, key: 'bad-key', base_url: fake.url, models: 'gpt-4o-mini' } }),
    );
    expect(bad.body, JSON.stringify(bad.body)).toMatchObject({ success: true, data: { username: 'admin', channel: { success: false } } });
    expect(bad.body.data.channel.message).toMatch(/Incorrect API key/);
    expect(await new ApiClient(other.server.app).login('admin', 'chosen-pass-1')).toMatchObject({ role: 100 });
  });
});

describe('INITIAL_ROOT_PASSWORD (automation)', () => {
  it('creates root with it and no setup link; setup is refused', async () => {
    const server = await startTestServer('sqlite');
    servers.push(server);
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } as unknown as FastifyBaseLogger;
    expect(await new ApiClient(server.app).login('root', ROOT_PASSWORD)).toMatchObject({ role: 100 });
    expect(await server.ctx.db.selectFrom('options').select('key').where('key', '=', SETUP_TOKEN_KEY).execute()).toEqual([]);
    const anon = new ApiClient(server.app);
    expect((await anon.get('/api/status')).body.data.setup_required).toBe(false);
    const res = await anon.post('/api/setup', body('z'.repeat(43)));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('setup_done');

    // On an empty users table it seeds root again, never printing a password; without it nothing is created.
    await server.ctx.db.deleteFrom('logs').execute();
    await server.ctx.db.deleteFrom('users').execute();
    expect(await ensureRootUser({ ...server.ctx, log, config: { ...server.ctx.config, INITIAL_ROOT_PASSWORD: undefined } })).toBe(false);
    expect(await server.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect(await ensureRootUser({ ...server.ctx, log })).toBe(true);
    expect(lines).toEqual(['created the root user with the password from INITIAL_ROOT_PASSWORD']);
    expect(await new ApiClient(server.app).login('root', ROOT_PASSWORD)).toMatchObject({ role: 100 });
  });
});
