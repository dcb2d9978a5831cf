import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { FakeOidc } from '../fakes/oidc.js';

const CONSOLE = 'http://hub.test';

describe('OIDC sign-in against a real OpenID Provider', () => {
  let server: TestServer;
  let root: ApiClient;
  const idp = new FakeOidc('hub-client', 'hub-secret-long-enough-for-hs256-0123456789', `${CONSOLE}/oauth/oidc`);
  const set = async (key: string, value: string) => expect((await root.put('/api/option/', { key, value })).body.success, key).toBe(true);

  /** The console's round trip: the endpoint's URL, the person at the IdP, then the callback with its query. */
  async function signIn(client: ApiClient, sub: string, tamper?: (q: URLSearchParams) => void) {
    const endpoint = await client.get('/api/oauth/endpoint');
    expect(endpoint.body.success, JSON.stringify(endpoint.body)).toBe(true);
    const query = await idp.approve(endpoint.body.data, sub);
    tamper?.(query);
    return client.get(`/api/oauth/oidc?${query}`);
  }

  beforeAll(async () => {
    await idp.start();
    server = await startTestServer('sqlite', { env: { CRITICAL_RATE_LIMIT: '0' } });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    for (const [k, v] of [
      ['ServerAddress', CONSOLE],
      ['OIDCClientId', 'hub-client'],
      ['OIDCClientSecret', idp.clientSecret],
      ['OIDCIssuer', idp.issuer],
      ['OIDCScopes', 'openid,profile,email'],
      ['OIDCUsernameClaims', 'preferred_username'],
    ]) {
      await set(k, v);
    }
    idp.accounts.set('sub-alice', { preferred_username: 'alice', name: 'Alice', email: 'alice@idp.example', email_verified: true });
    idp.accounts.set('sub-root', { preferred_username: 'root', email: 'evil@idp.example', email_verified: true });
    idp.accounts.set('sub-nameless', { name: 'No Name' });
  });
  afterAll(async () => {
    await server?.destroy();
    await idp.close();
  });

  it('is refused while off, then registers and signs in by subject with PKCE and nonce', async () => {
    expect((await new ApiClient(server.app).get('/api/oauth/endpoint')).body.message).toBe('管理员未开启通过OIDC登录');
    await set('OIDCAuthEnabled', 'true');
    const client = new ApiClient(server.app);
    const endpoint = await client.get('/api/oauth/endpoint');
    const url = new URL(endpoint.body.data);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(`${CONSOLE}/oauth/oidc`);

    const first = await signIn(client, 'sub-alice');
    expect(first.body.success, JSON.stringify(first.body)).toBe(true);
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ username: 'alice', display_name: 'Alice', email: 'alice@idp.example', oidc_id: 'sub-alice' });
    const again = await signIn(new ApiClient(server.app), 'sub-alice');
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  it('never turns an IdP account named root into root', async () => {
    const res = await signIn(new ApiClient(server.app), 'sub-root');
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.id).not.toBe(1);
    expect(res.body.data.username).toMatch(/^oidc_\d+$/);
    expect(res.body.data.role).toBe(1);
    const rootRow = await server.ctx.db.selectFrom('users').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(rootRow.oidc_id).toBe('');
  });

  it('refuses a replayed callback, a swapped state and a missing username claim', async () => {
    const client = new ApiClient(server.app);
    const endpoint = await client.get('/api/oauth/endpoint');
    const query = await idp.approve(endpoint.body.data, 'sub-alice');
    expect((await client.get(`/api/oauth/oidc?${query}`)).body.success).toBe(true);
    expect((await client.get(`/api/oauth/oidc?${query}`)).status).toBe(403);

    // a code issued for another state (and so another nonce and verifier) does not pass
    const a = new ApiClient(server.app);
    const b = new ApiClient(server.app);
    const qa = await idp.approve((await a.get('/api/oauth/endpoint')).body.data, 'sub-alice');
    const stateB = new URL((await b.get('/api/oauth/endpoint')).body.data).searchParams.get('state')!;
    qa.set('state', stateB);
    const swapped = await b.get(`/api/oauth/oidc?${qa}`);
    expect(swapped.status).toBe(400);
    expect(swapped.body.message).toContain('Failed to exchange token');

    const nameless = await signIn(new ApiClient(server.app), 'sub-nameless');
    expect(nameless.status).toBe(403);
    expect(nameless.body.message).toBe('用户没有OIDC登录权限');
  });

  it('applies a changed client secret without a restart', async () => {
    await set('OIDCClientSecret', 'a-wrong-secret-that-the-provider-does-not-know');
    const refused = await signIn(new ApiClient(server.app), 'sub-alice');
    expect(refused.status).toBe(400);
    await set('OIDCClientSecret', idp.clientSecret);
    expect((await signIn(new ApiClient(server.app), 'sub-alice')).body.success).toBe(true);
  });
});
