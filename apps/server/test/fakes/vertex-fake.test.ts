import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vertexClaudeBody, vertexUrl } from '../../src/relay/providers/vertex/request.js';
import { parseServiceAccount } from '../../src/relay/providers/vertex/service-account.js';
import { VertexTokenCache } from '../../src/relay/providers/vertex/token.js';
import { FakeVertex } from './vertex-upstream.js';
import { setPrivateNetworksAllowed } from '../../src/egress/guard.js';

// Our token exchange meets the fake's token endpoint; then the official SDKs call the model routes with the
// token: @google/genai in Vertex mode, and @anthropic-ai/sdk with its requests reshaped the way Vertex wants them.

const EMAIL = 'relay@proj-v.iam.gserviceaccount.com';

describe('FakeVertex', () => {
  const fake = new FakeVertex();
  let url = '';
  let keyFile = '';
  let token = '';

  beforeAll(async () => {
    setPrivateNetworksAllowed(true); // the fake token endpoint listens on loopback
    url = await fake.start();
    keyFile = fake.serviceAccount(EMAIL, 'proj-v');
    token = await new VertexTokenCache().get(parseServiceAccount(keyFile));
  });
  afterAll(() => fake.close());

  const genai = (accessToken: string) => {
    const authClient = new OAuth2Client();
    authClient.setCredentials({ access_token: accessToken, expiry_date: Date.now() + 3600_000 });
    return new GoogleGenAI({ vertexai: true, project: 'proj-v', location: 'us-central1', googleAuthOptions: { authClient }, httpOptions: { baseUrl: url, apiVersion: 'v1' } });
  };

  /** What @anthropic-ai/vertex-sdk does: model into the URL, version into the body, Bearer token. */
  const claude = (accessToken: string, project = 'proj-v') =>
    new Anthropic({
      apiKey: 'unused',
      baseURL: url,
      maxRetries: 0,
      fetch: async (input, init) => {
        const body = JSON.parse(String(init?.body));
        const target = vertexUrl({ baseUrl: url, region: 'us-east5', project, model: body.model, stream: Boolean(body.stream) });
        return fetch(target, { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify(vertexClaudeBody(body, Boolean(body.stream))) });
      },
    });

  it('issues a token for a JWT signed by the trusted key, once', async () => {
    expect(token).toMatch(/^ya29\.fake-/);
    expect(fake.tokensIssued).toBe(1);
    const stranger = new FakeVertex();
    await stranger.start();
    try {
      // A key file the fake never trusted, pointed at the fake's token endpoint.
      const foreign = JSON.parse(stranger.serviceAccount(EMAIL, 'proj-v'));
      foreign.token_uri = `${url}/token`;
      const err = await new VertexTokenCache().get(parseServiceAccount(JSON.stringify(foreign))).catch((e) => e);
      expect(err).toMatchObject({ status: 401, message: 'vertex token exchange failed: Invalid JWT Signature.' });
    } finally {
      await stranger.close();
    }
  });

  it('answers Gemini generateContent and streams for @google/genai in Vertex mode', async () => {
    fake.behave(EMAIL, { content: 'Vertex says hi', thought: 'briefly', cachedTokens: 4 });
    const ai = genai(token);
    const res = await ai.models.generateContent({ model: 'gemini-2.5-pro', contents: 'hello' });
    expect(res.text).toBe('Vertex says hi');
    expect(res.usageMetadata).toMatchObject({ promptTokenCount: 14, cachedContentTokenCount: 4, candidatesTokenCount: 3, thoughtsTokenCount: 1 });
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-pro', contents: 'hello' })) text += chunk.text ?? '';
    expect(text).toBe('Vertex says hi');
    const paths = fake.forKey(EMAIL).map((r) => `${r.path}?${r.query}`);
    expect(paths).toEqual([
      '/v1/projects/proj-v/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent?',
      '/v1/projects/proj-v/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    ]);
  });

  it('answers Claude rawPredict and streamRawPredict in Anthropic’s shapes', async () => {
    fake.behave(EMAIL, { content: 'Claude on Vertex', thinking: 'hm ok', cache: { read: 9 } });
    const api = claude(token);
    const msg = await api.messages.create({ model: 'claude-sonnet-4-20250514', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(msg.model).toBe('claude-sonnet-4');
    expect(msg.usage).toMatchObject({ input_tokens: 10, cache_read_input_tokens: 9, output_tokens: 5 });
    const streamed = await api.messages.stream({ model: 'claude-3-5-sonnet-20241022', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(streamed.content[1]).toMatchObject({ type: 'text', text: 'Claude on Vertex' });
    const [plain, stream] = fake.forKey(EMAIL).slice(-2);
    expect(plain.path).toBe('/v1/projects/proj-v/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict');
    expect(plain.body.model).toBeUndefined();
    expect(plain.body.anthropic_version).toBe('vertex-2023-10-16');
    expect(stream.path).toBe('/v1/projects/proj-v/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:streamRawPredict');
    expect(stream.body.stream).toBe(true);
  });

  it('refuses bad tokens, foreign projects and bad Claude bodies', async () => {
    const unauth = await genai('ya29.forged').models.generateContent({ model: 'gemini-2.5-pro', contents: 'x' }).catch((e) => e);
    expect(unauth.status).toBe(401);
    expect(JSON.parse(unauth.message).error.status).toBe('UNAUTHENTICATED');
    const foreign = await claude(token, 'someone-else').messages.create({ model: 'claude-sonnet-4-20250514', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(foreign.status).toBe(403);
    fake.behave(EMAIL, {});
    const raw = await fetch(vertexUrl({ baseUrl: url, region: 'us-east5', project: 'proj-v', model: 'claude-sonnet-4-20250514', stream: false }), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ model: 'claude-sonnet-4-20250514', anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'model: Extra inputs are not permitted' } });
  });

  it('stops accepting a token after it expired', async () => {
    fake.tokenTtlSeconds = 0;
    try {
      const cache = new VertexTokenCache();
      const short = await cache.get(parseServiceAccount(keyFile));
      await new Promise((r) => setTimeout(r, 5));
      const err = await genai(short).models.generateContent({ model: 'gemini-2.5-pro', contents: 'x' }).catch((e) => e);
      expect(err.status).toBe(401);
      // The cache saw a lifetime inside the renewal margin, so the next call exchanges again.
      const renewed = await cache.get(parseServiceAccount(keyFile));
      expect(renewed).not.toBe(short);
    } finally {
      fake.tokenTtlSeconds = 3599;
    }
  });
});
