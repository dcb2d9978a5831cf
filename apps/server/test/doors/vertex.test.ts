import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { FakeVertex } from '../fakes/vertex-upstream.js';
import { thinkingSignature } from '../fakes/anthropic-upstream.js';
import { GEMINI_SIGNATURE } from '../fakes/gemini-upstream.js';
import { startHttpProxy } from '../fakes/proxies.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const GEMINI = 'gemini-2.5-pro';
const CLAUDE = 'claude-sonnet-4-20250514';
const PREFIX = '/v1/projects/proj-relay/locations/us-east5/publishers';

describe.each(testDialects())('Vertex AI channels on %s', (dialect) => {
  let f: DoorFixture;
  const vertex = new FakeVertex();
  const email = `relay-${dialect}@proj-relay.iam.gserviceaccount.com`;
  let keyFile = '';
  /** Seeded catalogue prices are replaced by unit prices so billing reads as token counts. */
  const unitPrice = async (model: string) => {
    await f.server.ctx.db.deleteFrom('prices').where('model', '=', model).execute();
    await f.unitPrice(model);
  };

  beforeAll(async () => {
    f = await doorFixture(dialect);
    await vertex.start();
    keyFile = vertex.serviceAccount(email, 'proj-relay');
    await unitPrice(GEMINI);
    await unitPrice(CLAUDE);
    await f.addChannel({ type: 42, key: keyFile, other: 'us-east5|proj-relay', base_url: vertex.url, models: `${GEMINI},${CLAUDE}` });
  });
  afterAll(async () => {
    await f?.close();
    await vertex.close();
  });

  it('passes the Gemini door through to a Gemini model on Vertex behind an OAuth token', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    vertex.behave(email, { content: 'Vertex Gemini speaking', cachedTokens: 6 });
    const answer = await f.genai(key).models.generateContent({ model: GEMINI, contents: 'hello', config: { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' as never, threshold: 'BLOCK_NONE' as never }] } });
    expect(answer.text).toBe('Vertex Gemini speaking');
    const got = vertex.forKey(email).at(-1)!;
    expect(got.path).toBe(`${PREFIX}/google/models/${GEMINI}:generateContent`);
    expect(got.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(got.body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ model_name: GEMINI, prompt_tokens: 16, completion_tokens: 3, estimated: 0 });
  });

  it('streams a Gemini model with alt=sse; signed function calls come back untouched', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    vertex.behave(email, { content: 'Let me check', functionCall: { args: { city: 'Oslo' } } });
    const stream = await f.genai(key).models.generateContentStream({
      model: GEMINI,
      contents: 'Weather in Oslo?',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT' as never, properties: { city: { type: 'STRING' as never } } } }] }] },
    });
    let text = '';
    const parts: any[] = [];
    for await (const chunk of stream) {
      text += chunk.text ?? '';
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    }
    expect(text).toBe('Let me check');
    expect(parts.find((p) => p.functionCall)).toMatchObject({ functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: GEMINI_SIGNATURE });
    const got = vertex.forKey(email).at(-1)!;
    expect(got.path).toBe(`${PREFIX}/google/models/${GEMINI}:streamGenerateContent`);
    expect(got.query.get('alt')).toBe('sse');
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 10, completion_tokens: 13, estimated: 0 });
  });

  it('passes the Anthropic door through to a Claude model on Vertex (rawPredict, streamRawPredict)', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    vertex.behave(email, { content: 'Claude via Vertex', thinking: 'Brief plan', cache: { creation: 8 } });
    const client = new Anthropic({ apiKey: key, baseURL: f.url, maxRetries: 0, defaultHeaders: { 'anthropic-beta': 'context-1m-2025-08-07' } });
    const answer = await client.messages.create({ model: CLAUDE, max_tokens: 2000, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.content[0]).toEqual({ type: 'thinking', thinking: 'Brief plan', signature: thinkingSignature('Brief plan') });
    const plain = vertex.forKey(email).at(-1)!;
    expect(plain.path).toBe(`${PREFIX}/anthropic/models/claude-sonnet-4@20250514:rawPredict`);
    expect(plain.body.model).toBeUndefined();
    expect(plain.body.anthropic_version).toBe('vertex-2023-10-16');
    expect(plain.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    // 10 uncached + 8 cache writes (priced at 1.25) in, 2 thinking + 3 text words out.
    expect(await f.lastLog(userId)).toMatchObject({ model_name: CLAUDE, prompt_tokens: 18, completion_tokens: 5, cache_write_tokens: 8, estimated: 0 });

    const streamed = await client.messages.stream({ model: CLAUDE, max_tokens: 2000, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(streamed.content[1]).toMatchObject({ type: 'text', text: 'Claude via Vertex' });
    const sent = vertex.forKey(email).at(-1)!;
    expect(sent.path).toBe(`${PREFIX}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`);
    expect(sent.body.stream).toBe(true);
    expect(await f.lastLog(userId)).toMatchObject({ is_stream: 1, prompt_tokens: 18, completion_tokens: 5, estimated: 0 });
  });

  it('serves OpenAI chat completions from both model families of one channel by conversion', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    vertex.behave(email, { content: 'Converted answer' });
    const openai = f.openai(key);
    const fromGemini = await openai.chat.completions.create({ model: GEMINI, messages: [{ role: 'system', content: 'terse' }, { role: 'user', content: 'hi' }] });
    expect(fromGemini.choices[0].message.content).toBe('Converted answer');
    const geminiBody = vertex.forKey(email).at(-1)!.body;
    expect(geminiBody.systemInstruction).toBeDefined();
    expect(geminiBody.contents[0].role).toBe('user');
    expect(await f.lastLog(userId)).toMatchObject({ model_name: GEMINI, prompt_tokens: 10, completion_tokens: 2 });

    const stream = await openai.chat.completions.create({ model: CLAUDE, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'system', content: 'terse' }, { role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Converted answer');
    const claudeReq = vertex.forKey(email).at(-1)!;
    expect(claudeReq.path).toBe(`${PREFIX}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`);
    expect(claudeReq.body.system).toBeDefined();
    expect(claudeReq.body.max_tokens).toBeGreaterThan(0);
    expect(await f.lastLog(userId)).toMatchObject({ model_name: CLAUDE, is_stream: 1, prompt_tokens: 10, completion_tokens: 2, estimated: 0 });
  });

  it('exchanged the service-account JWT once for all those requests', () => {
    expect(vertex.forKey(email).length).toBeGreaterThanOrEqual(6);
    expect(vertex.tokensIssued).toBe(1);
    expect(vertex.received.filter((r) => r.path === '/token')).toHaveLength(1);
  });

  it('tests the channel from the console with either model family', async () => {
    const id = (await f.server.ctx.db.selectFrom('channels').select('id').where('type', '=', 42).orderBy('id').executeTakeFirstOrThrow()).id;
    vertex.behave(email, { content: 'ok' });
    for (const model of [GEMINI, CLAUDE]) {
      const test = (await f.root.get(`/api/channel/test/${id}?model=${model}`)).body;
      expect(test).toMatchObject({ success: true });
    }
    expect(vertex.forKey(email).slice(-2).map((r) => r.path.split('/').at(-1))).toEqual([`${GEMINI}:generateContent`, 'claude-sonnet-4@20250514:rawPredict']);
  });

  it('lists the Gemini publisher models page by page behind the OAuth token, plus the Claude models the channel has', async () => {
    const id = (await f.server.ctx.db.selectFrom('channels').select('id').where('type', '=', 42).orderBy('id').executeTakeFirstOrThrow()).id;
    vertex.maxPageSize = 4;
    try {
      const res = await f.root.post('/api/channel/provider_models_list', { id, type: 42, key: '', base_url: vertex.url, other: 'us-east5|proj-relay' });
      expect(res.body).toMatchObject({ success: true, data: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash-001', 'gemini-2.0-flash-lite-001', CLAUDE] });
    } finally {
      vertex.maxPageSize = 100;
    }
    const pages = vertex.forKey(email).filter((r) => r.path === '/v1beta1/publishers/google/models');
    expect(pages).toHaveLength(2);
    expect(pages[0].headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(pages[0].headers['x-goog-user-project']).toBe('proj-relay');
    expect(pages[1].query.get('pageToken')).toBeTruthy();

    // A project the service account may not use is refused with Google's message in the envelope.
    const refused = await f.root.post('/api/channel/provider_models_list', { id, type: 42, key: '', base_url: vertex.url, other: 'us-east5|someone-else' });
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toContain('does not have required permission');
  });

  it('sends the token exchange and the model call through the channel proxy', async () => {
    const proxy = await startHttpProxy();
    const other = new FakeVertex();
    await other.start();
    try {
      const proxiedEmail = 'proxied@proj-relay.iam.gserviceaccount.com';
      await unitPrice('gemini-2.0-flash');
      await f.addChannel({ type: 42, key: other.serviceAccount(proxiedEmail, 'proj-relay'), other: 'us-east5|proj-relay', base_url: other.url, models: 'gemini-2.0-flash', proxy: proxy.url });
      const { key } = await f.newUser({ quota: 100_000 });
      const answer = await f.genai(key).models.generateContent({ model: 'gemini-2.0-flash', contents: 'hi' });
      expect(answer.text).toBe('Hello from the fake Gemini');
      expect(other.received.map((r) => r.path.split(':')[0].split('/').at(-1))).toEqual(['token', 'gemini-2.0-flash']);
      const target = other.url.replace('http://', '');
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      expect(proxy.tunnels.every((t) => t === target)).toBe(true);

      // Behind a dead proxy the token endpoint is never reached directly.
      await unitPrice('gemini-2.0-flash-lite');
      await f.addChannel({ type: 42, key: other.serviceAccount('dead-proxy@proj-relay.iam.gserviceaccount.com', 'proj-relay'), other: 'us-east5|proj-relay', base_url: other.url, models: 'gemini-2.0-flash-lite', proxy: 'http://127.0.0.1:1' });
      const before = other.received.length;
      const failed = await f.genai(key).models.generateContent({ model: 'gemini-2.0-flash-lite', contents: 'hi' }).catch((e) => e);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(other.received.length).toBe(before);
    } finally {
      await other.close();
      await proxy.close();
    }
  });

  it('takes a channel whose key the token endpoint refuses out of rotation', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    await f.setOption('AutomaticDisableChannelEnabled', true);
    const stranger = new FakeVertex();
    await stranger.start();
    try {
      const foreign = JSON.parse(stranger.serviceAccount('stranger@proj-relay.iam.gserviceaccount.com', 'proj-relay'));
      foreign.token_uri = `${vertex.url}/token`;
      await unitPrice('gemini-2.5-flash');
      const id = await f.addChannel({ type: 42, key: JSON.stringify(foreign), other: 'us-east5|proj-relay', base_url: vertex.url, models: 'gemini-2.5-flash' });
      const error = await f.genai(key).models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((e) => e);
      expect(error.status).toBeGreaterThanOrEqual(400);
      // The token endpoint's refusal is the channel's problem: the user hears only that it is unavailable.
      expect(error.message).toContain('upstream service unavailable');
      expect(error.message).not.toContain('Invalid JWT Signature');
      expect(error.message).not.toContain('PRIVATE KEY');
      const status = async () => (await f.server.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      for (let i = 0; i < 50 && (await status()) === 1; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await status()).toBe(3);
    } finally {
      await stranger.close();
    }
  });
});
