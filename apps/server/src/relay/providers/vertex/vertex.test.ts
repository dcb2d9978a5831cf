import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HubError } from '../../../common/errors.js';
import { parseVertexOther, vertexClaudeBody, vertexClaudeModel, vertexDialect, vertexUrl } from './request.js';
import { CLOUD_PLATFORM_SCOPE, parseServiceAccount, serviceAccountAssertion } from './service-account.js';
import { VertexTokenCache, type TokenPoster } from './token.js';

const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyFile = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'proj-a',
    private_key_id: 'kid-1',
    private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: 'relay@proj-a.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...extra,
  });
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString());

describe('service account', () => {
  it('reads the key file fields, defaulting the token URI', () => {
    const { token_uri: _drop, ...noUri } = JSON.parse(keyFile());
    expect(parseServiceAccount(JSON.stringify(noUri))).toMatchObject({
      clientEmail: 'relay@proj-a.iam.gserviceaccount.com', privateKeyId: 'kid-1', projectId: 'proj-a', tokenUri: 'https://oauth2.googleapis.com/token',
    });
  });

  it.each([['not json', 'service-account JSON key file'], ['{"client_email":"x"}', 'lacks client_email or private_key']])('refuses %s', (key, message) => {
    expect(() => parseServiceAccount(key)).toThrow(message);
  });

  it('signs an RS256 JWT for the token endpoint with the cloud-platform scope, valid one hour', () => {
    const jwt = serviceAccountAssertion(parseServiceAccount(keyFile()), 1_700_000_000);
    const [head, body, sig] = jwt.split('.');
    expect(decode(head)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
    expect(decode(body)).toEqual({ iss: 'relay@proj-a.iam.gserviceaccount.com', scope: CLOUD_PLATFORM_SCOPE, aud: 'https://oauth2.googleapis.com/token', iat: 1_700_000_000, exp: 1_700_003_600 });
    expect(verify('sha256', Buffer.from(`${head}.${body}`), pair.publicKey, Buffer.from(sig, 'base64url'))).toBe(true);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(verify('sha256', Buffer.from(`${head}.${body}`), other.publicKey, Buffer.from(sig, 'base64url'))).toBe(false);
  });

  it('answers a clear error for a private key that is not one', () => {
    expect(() => serviceAccountAssertion(parseServiceAccount(keyFile({ private_key: 'garbage' })), 0)).toThrow('not a usable RSA key');
  });
});

describe('token cache', () => {
  const sa = parseServiceAccount(keyFile());
  const setup = (answer: (n: number) => { status: number; body: string }) => {
    let clock = 1_700_000_000_000;
    const calls: { url: string; form: URLSearchParams }[] = [];
    const post: TokenPoster = async (url, form) => {
      calls.push({ url, form: new URLSearchParams(form) });
      return answer(calls.length);
    };
    const cache = new VertexTokenCache(post, () => clock);
    return { cache, calls, advance: (ms: number) => (clock += ms) };
  };
  const ok = (n: number) => ({ status: 200, body: JSON.stringify({ access_token: `tok-${n}`, expires_in: 3600, token_type: 'Bearer' }) });

  it('exchanges a JWT bearer grant once and reuses the token until five minutes before expiry', async () => {
    const { cache, calls, advance } = setup(ok);
    expect(await cache.get(sa)).toBe('tok-1');
    expect(calls[0].url).toBe('https://oauth2.googleapis.com/token');
    expect(calls[0].form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(decode(calls[0].form.get('assertion')!.split('.')[1]).iss).toBe(sa.clientEmail);
    advance(54 * 60_000);
    expect(await cache.get(sa)).toBe('tok-1');
    advance(2 * 60_000);
    expect(await cache.get(sa)).toBe('tok-2');
    expect(calls).toHaveLength(2);
  });

  it('shares one exchange between concurrent requests and keeps accounts apart', async () => {
    const { cache, calls } = setup(ok);
    const other = parseServiceAccount(keyFile({ client_email: 'other@proj-a.iam.gserviceaccount.com' }));
    const tokens = await Promise.all([cache.get(sa), cache.get(sa), cache.get(other), cache.get(sa)]);
    expect(tokens).toEqual(['tok-1', 'tok-1', 'tok-2', 'tok-1']);
    expect(calls).toHaveLength(2);
  });

  it('turns a refused grant into a retryable 401 with Google’s reason, and tries again next time', async () => {
    const { cache, calls } = setup((n) => (n === 1 ? { status: 400, body: JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }) } : ok(n)));
    const err = await cache.get(sa).catch((e) => e);
    expect(err).toBeInstanceOf(HubError);
    expect(err).toMatchObject({ status: 401, retryable: true, message: 'vertex token exchange failed: Invalid JWT Signature.' });
    expect(await cache.get(sa)).toBe('tok-2');
    expect(calls).toHaveLength(2);
  });

  it('turns an unreachable token endpoint into a retryable 502', async () => {
    const cache = new VertexTokenCache(async () => {
      throw new Error('connect ECONNREFUSED');
    });
    await expect(cache.get(sa)).rejects.toMatchObject({ status: 502, retryable: true });
  });
});

describe('Vertex request shaping', () => {
  it.each([
    ['us-east5|proj-b', undefined, { region: 'us-east5', project: 'proj-b' }],
    ['global', 'proj-from-key', { region: 'global', project: 'proj-from-key' }],
  ])('reads other=%s', (other, fallback, expected) => {
    expect(parseVertexOther(other, fallback)).toEqual(expected);
  });

  it('refuses a channel without region or project', () => {
    expect(() => parseVertexOther('', 'p')).toThrow('Region|ProjectID');
    expect(() => parseVertexOther('us-east5')).toThrow('Region|ProjectID');
  });

  it.each([
    ['gemini-2.5-pro', 'gemini'],
    ['claude-sonnet-4-20250514', 'anthropic'],
  ])('knows %s speaks %s', (model, dialect) => {
    expect(vertexDialect(model)).toBe(dialect);
  });

  it('refuses models of other families', () => {
    expect(() => vertexDialect('llama-3')).toThrow(HubError);
  });

  it.each([
    ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-v2@20241022'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4@20250514'],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1@20250805'],
    ['claude-3-5-haiku@20241022', 'claude-3-5-haiku@20241022'],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5'],
  ])('maps %s to the Vertex id %s', (model, id) => {
    expect(vertexClaudeModel(model)).toBe(id);
  });

  it.each([
    [{ region: 'us-central1', model: 'gemini-2.5-pro', stream: false }, 'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent'],
    [{ region: 'us-central1', model: 'gemini-2.5-pro', stream: true }, 'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse'],
    [{ region: 'global', model: 'gemini-2.5-flash', stream: false }, 'https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-2.5-flash:generateContent'],
    [{ region: 'us-east5', model: 'claude-sonnet-4-20250514', stream: false }, 'https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict'],
    [{ region: 'us-east5', model: 'claude-3-5-sonnet-20241022', stream: true }, 'https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:streamRawPredict'],
  ])('builds the URL for %o', (input, url) => {
    expect(vertexUrl({ baseUrl: '', project: 'p', ...input })).toBe(url);
  });

  it('uses the channel base URL as host when set', () => {
    expect(vertexUrl({ baseUrl: 'http://127.0.0.1:5/', region: 'r', project: 'p', model: 'gemini-x', stream: false })).toBe('http://127.0.0.1:5/v1/projects/p/locations/r/publishers/google/models/gemini-x:generateContent');
  });

  it('shapes the Claude body: no model, the Vertex version, stream only when streaming', () => {
    const body = { model: 'claude-x', max_tokens: 5, messages: [], stream: true, anthropic_version: '2023-06-01' };
    expect(vertexClaudeBody(body, true)).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages: [], stream: true });
    expect(vertexClaudeBody(body, false)).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages: [] });
  });
});
