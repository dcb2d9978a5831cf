import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { STEP_UP_SECONDS } from '@one-hub/contract';
import { ApiClient, ROOT_PASSWORD, redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { base32Decode, hotp, stepAt } from '../../src/console/auth/two-factor/totp.js';
import { SoftAuthenticator } from '../fakes/authenticator.js';

const ORIGIN = 'https://hub.example.com';
const codeAt = (secret: string, step: number) => hotp(base32Decode(secret), step);

describe.each(testDialects())('step-up before revealing channel keys (%s)', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let channelId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect, { redis: dialect === 'postgres' && redisAvailable(), env: { CRITICAL_RATE_LIMIT: '0' } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    expect((await root.put('/api/option/', { key: 'ServerAddress', value: ORIGIN })).body.success).toBe(true);
    const created = await root.post('/api/channel/', { type: 1, name: 'secret-channel', key: 'sk-very-secret', models: 'gpt-4o', group: 'default', tag: 'team' });
    expect(created.body.success, JSON.stringify(created.body)).toBe(true);
    channelId = (await server.ctx.db.selectFrom('channels').select('id').where('name', '=', 'secret-channel').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => server?.destroy());
  afterEach(() => vi.useRealTimers());

  async function admin(name: string) {
    expect((await new ApiClient(server.app).post('/api/user/register', { username: name, password: 'password123' })).body.success).toBe(true);
    await server.ctx.db.updateTable('users').set({ role: 10 }).where('username', '=', name).execute();
    const client = new ApiClient(server.app);
    const { id } = await client.login(name, 'password123');
    return { client, id: id as number };
  }

  async function enableTwoFactor(client: ApiClient) {
    const { secret } = (await client.post('/api/user/2fa/setup')).body.data;
    const step = stepAt(Date.now());
    const codes = (await client.post('/api/user/2fa/enable', { code: codeAt(secret, step) })).body.data as string[];
    expect(codes).toHaveLength(10);
    return { secret, step, codes };
  }

  it('keeps revealing keys for an administrator with neither two-factor nor a passkey', async () => {
    const { client } = await admin('plainadmin');
    expect((await client.post(`/api/channel/${channelId}/key`)).body.data.key).toBe('sk-very-secret');
    expect((await client.get('/api/channel_tag/team')).body.data.key).toBe('sk-very-secret');
    expect((await client.get('/api/user/step_up')).body.data).toEqual({ two_factor: false, passkey: false });
  });

  it('asks an administrator with two-factor for a fresh code: wrong and replayed codes refused, valid for a few minutes, per session', async () => {
    const { client, id } = await admin('tfaadmin');
    const { secret, step, codes } = await enableTwoFactor(client);

    // opening a channel needs no confirmation: its detail has no key
    const detail = await client.get(`/api/channel/${channelId}`);
    expect(detail.body).toMatchObject({ success: true, data: { id: channelId, name: 'secret-channel', key: '' } });
    for (const [method, url] of [['POST', `/api/channel/${channelId}/key`], ['GET', '/api/channel_tag/team'], ['GET', '/api/channel_tag/team/list']] as const) {
      const refused = await client.request(method, url, method === 'POST' ? {} : undefined);
      expect(refused.status, url).toBe(403);
      expect(refused.body).toEqual({ success: false, message: '请先用两步验证码或通行密钥确认身份', code: 'step_up_required', data: { two_factor: true, passkey: false } });
    }
    // an update still works but its answer leaves the key out
    const updated = await client.put('/api/channel/', { id: channelId, weight: 3 });
    expect(updated.body.success, JSON.stringify(updated.body)).toBe(true);
    expect(updated.body.data.key).toBe('');

    expect((await client.post('/api/user/step_up', { code: '000000' })).status).toBe(400);
    expect((await client.post('/api/user/step_up', {})).status).toBe(400);
    // the code that enabled two-factor was used: it cannot confirm again
    const replay = await client.post('/api/user/step_up', { code: codeAt(secret, step) });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe('验证码错误');

    const ok = await client.post('/api/user/step_up', { code: codeAt(secret, step + 1) });
    expect(ok.body.success, JSON.stringify(ok.body)).toBe(true);
    expect(ok.body.data.expires_at).toBeGreaterThan(Date.now() / 1000 + STEP_UP_SECONDS - 5);
    expect((await client.post(`/api/channel/${channelId}/key`)).body.data.key).toBe('sk-very-secret');
    expect((await client.put('/api/channel/', { id: channelId, weight: 4 })).body.data.key).toBe('sk-very-secret');
    expect((await client.get('/api/channel_tag/team')).body.data.key).toBe('sk-very-secret');
    const audit = await server.ctx.db.selectFrom('audit_logs').selectAll().where('actor_id', '=', id).where('action', '=', 'reveal_key').execute();
    expect(audit).toHaveLength(1);
    // the same code cannot confirm another session; another session is not confirmed by this one
    const other = new ApiClient(server.app);
    const pending = await other.post('/api/user/login', { username: 'tfaadmin', password: 'password123' });
    expect(pending.body.message).toBe('2fa');
    expect((await other.post('/api/user/login/2fa', { code: codes[0] })).body.success).toBe(true);
    expect((await other.post(`/api/channel/${channelId}/key`)).status).toBe(403);
    expect((await other.post('/api/user/step_up', { code: codeAt(secret, step + 1) })).status).toBe(400);
    // a recovery code confirms, once
    expect((await other.post('/api/user/step_up', { code: codes[1] })).body.success).toBe(true);
    expect((await other.post(`/api/channel/${channelId}/key`)).body.data.key).toBe('sk-very-secret');
    expect((await other.post('/api/user/step_up', { code: codes[1] })).status).toBe(400);

    // after STEP_UP_SECONDS the confirmation has run out
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (STEP_UP_SECONDS + 1) * 1000);
    expect((await client.post(`/api/channel/${channelId}/key`)).status).toBe(403);
    expect((await client.post('/api/user/step_up', { code: codeAt(secret, stepAt(Date.now())) })).body.success).toBe(true);
    expect((await client.post(`/api/channel/${channelId}/key`)).body.data.key).toBe('sk-very-secret');
    vi.useRealTimers();

    // an access token cannot confirm, so it cannot reveal for such an administrator
    const token = (await client.get('/api/user/token')).body.data as string;
    const anon = new ApiClient(server.app);
    expect((await anon.post(`/api/channel/${channelId}/key`, {}, { authorization: token })).status).toBe(403);
    expect((await anon.post('/api/user/step_up', { code: codes[2] }, { authorization: token })).status).toBe(400);
  });

  it('stops guessing after five wrong codes', async () => {
    const { client } = await admin('guessadmin');
    const { secret, step } = await enableTwoFactor(client);
    for (let i = 0; i < 5; i++) expect((await client.post('/api/user/step_up', { code: '000000' })).status).toBe(400);
    expect((await client.post('/api/user/step_up', { code: codeAt(secret, step + 1) })).status).toBe(429);
    expect((await client.post(`/api/channel/${channelId}/key`)).status).toBe(403);
  });

  it('confirms with a passkey assertion; a replayed or wrong-origin assertion is refused', async () => {
    const { client } = await admin('pkadmin');
    const key = new SoftAuthenticator(ORIGIN);
    const begin = await client.post('/api/webauthn/registration/begin', { alias: 'laptop' });
    expect((await client.post('/api/webauthn/registration/finish', key.create(begin.body.data.publicKey))).body.success).toBe(true);

    const refused = await client.post(`/api/channel/${channelId}/key`);
    expect(refused.status).toBe(403);
    expect(refused.body.data).toEqual({ two_factor: false, passkey: true });
    // no two-factor: a code cannot confirm
    expect((await client.post('/api/user/step_up', { code: '123456' })).status).toBe(400);

    const phishOptions = (await client.post('/api/user/step_up/passkey')).body.data.publicKey;
    const phish = await client.post('/api/user/step_up', { passkey: key.get(phishOptions, 'https://hub.example.com.evil.test') });
    expect(phish.status).toBe(400);
    expect((await client.post(`/api/channel/${channelId}/key`)).status).toBe(403);

    const options = (await client.post('/api/user/step_up/passkey')).body.data.publicKey;
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: key.credentialId.toString('base64url') })]);
    const assertion = key.get(options);
    const ok = await client.post('/api/user/step_up', { passkey: assertion });
    expect(ok.body.success, JSON.stringify(ok.body)).toBe(true);
    expect((await client.post(`/api/channel/${channelId}/key`)).body.data.key).toBe('sk-very-secret');
    const replay = await client.post('/api/user/step_up', { passkey: assertion });
    expect(replay.status).toBe(400);

    // another user's passkey cannot confirm this administrator
    const { client: otherAdmin } = await admin('pkadmin2');
    const otherKey = new SoftAuthenticator(ORIGIN);
    const b2 = await otherAdmin.post('/api/webauthn/registration/begin', {});
    expect((await otherAdmin.post('/api/webauthn/registration/finish', otherKey.create(b2.body.data.publicKey))).body.success).toBe(true);
    const mine = (await client.post('/api/user/step_up/passkey')).body.data.publicKey;
    expect((await client.post('/api/user/step_up', { passkey: otherKey.get(mine) })).status).toBe(400);
  });
});
