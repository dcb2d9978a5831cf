import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { FakeNativeProviders, PROMPT_TOKENS } from '../fakes/native-providers.js';
import { relayFixture, type RelayFixture } from './fixture.js';

const TEXT = 'Hello from the provider';

/** Native provider adapters through the gateway with the official SDKs, against fakes speaking each provider's wire format. */
describe.each(testDialects())('provider adapters on %s', (dialect) => {
  let f: RelayFixture;
  const up = new FakeNativeProviders();
  const MODELS = ['azure-gpt', 'ollama-llama', 'ollama-embed', 'cohere-cmd', 'cohere-rerank', 'qwen-plus', 'ERNIE-4.0-8K', 'sd3', 'black-forest-labs/flux-schnell', 'coze-bot123', 'coze-missing', 'tts-1', 'speech-01-turbo', 'hunyuan-lite', 'hunyuan-bad'];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    await up.start();
    f = await relayFixture(dialect);
    await f.server.ctx.db.deleteFrom('prices').where('model', 'in', MODELS).execute();
    await f.server.ctx.db.insertInto('prices').values(MODELS.map((model) => ({ model, type: 'tokens', channel_type: 1, input: 1, output: 1 }))).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    ids.azure = await f.addChannel({ type: 3, key: 'az-key', base_url: up.url, other: '2024-10-21', models: 'azure-gpt', model_mapping: '{"azure-gpt":"+gpt4o-deploy"}' });
    ids.ollama = await f.addChannel({ type: 39, key: 'ol-key', base_url: up.url, models: 'ollama-llama,ollama-embed' });
    ids.cohere = await f.addChannel({ type: 36, key: 'co-key', base_url: up.url, models: 'cohere-cmd,cohere-rerank' });
    ids.ali = await f.addChannel({ type: 17, key: 'ali-key', base_url: up.url, models: 'qwen-plus' });
    ids.stability = await f.addChannel({ type: 37, key: 'stab-key', base_url: up.url, models: 'sd3' });
    await f.addChannel({ type: 52, key: 'rep-key', base_url: up.url, models: 'black-forest-labs/flux-schnell' });
    ids.coze = await f.addChannel({ type: 38, key: 'coze-pat', base_url: `${up.url}/open_api`, models: 'coze-bot123,coze-missing' });
    ids.speech = await f.addChannel({ type: 24, key: 'speech-key', base_url: up.url, models: 'tts-1', plugin: { voice: { nova: 'zh-CN-XiaoxiaoNeural|cheerful' } } });
    await f.addChannel({ type: 27, key: 'mm-key', base_url: up.url, models: 'speech-01-turbo' });
    ids.hunyuan = await f.addChannel({ type: 40, key: 'hy-id|hy-secret', base_url: up.url, models: 'hunyuan-lite' });
    await f.addChannel({ type: 40, key: 'hy-id|wrong-secret', base_url: up.url, models: 'hunyuan-bad' });
    ids.baidu = await f.addChannel({ type: 15, key: `ernie-${dialect}|good-secret`, base_url: up.url, models: 'ERNIE-4.0-8K' });
  });
  afterAll(async () => {
    await f?.close();
    await up.close();
  });

  async function lastLog(userId: number) {
    await f.flush();
    return f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
  }

  async function chatBoth(model: string) {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const client = f.openai(key);
    const answer = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBe(TEXT);
    expect(answer.usage).toMatchObject({ prompt_tokens: PROMPT_TOKENS, completion_tokens: 4 });
    expect(await lastLog(userId)).toMatchObject({ model_name: model, prompt_tokens: PROMPT_TOKENS, completion_tokens: 4, quota: 14, estimated: 0 });
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: unknown;
    const named = new Set<string>();
    for await (const chunk of stream) {
      named.add(chunk.model);
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(TEXT);
    expect(usage).toMatchObject({ prompt_tokens: PROMPT_TOKENS, completion_tokens: 4 });
    expect(await lastLog(userId)).toMatchObject({ is_stream: 1, prompt_tokens: PROMPT_TOKENS, completion_tokens: 4, estimated: 0 });
    // Providers whose events name no model show the requested one.
    if (!model.startsWith('azure')) expect([...named]).toEqual([model]);
    return key;
  }

  it('Azure: deployment URL from the mapped model, api-version from other, api-key header; JSON and stream', async () => {
    await chatBoth('azure-gpt');
    const got = up.forKey('az-key').filter((r) => r.path.endsWith('/chat/completions'));
    expect(got.map((r) => r.path)).toEqual(['/openai/deployments/gpt4o-deploy/chat/completions', '/openai/deployments/gpt4o-deploy/chat/completions']);
    expect(got[0].query.get('api-version')).toBe('2024-10-21');
    expect(got[0].headers.authorization).toBeUndefined();
    expect(got[1].body.stream_options).toEqual({ include_usage: true });
  });

  it('Ollama: /api/chat JSON and NDJSON stream, /api/embed through the SDK default base64 embeddings', async () => {
    const key = await chatBoth('ollama-llama');
    const chats = up.forKey('ol-key').filter((r) => r.path === '/api/chat');
    expect(chats.map((r) => r.body.stream)).toEqual([false, true]);
    expect(chats[0].body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    const emb = await f.openai(key).embeddings.create({ model: 'ollama-embed', input: ['a', 'b'] });
    expect(emb.data.map((d) => d.embedding)).toEqual([[0.5, -0.25], [0.5, -0.25]]);
    expect(emb.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
  });

  it('Cohere: /v2/chat JSON and named SSE events, billed on billed_units; rerank through /v1/rerank', async () => {
    const key = await chatBoth('cohere-cmd');
    const res = await fetch(`${f.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'cohere-rerank', query: 'q', documents: ['first', 'second'], top_n: 2, return_documents: true }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results).toEqual([{ index: 0, relevance_score: 1, document: { text: 'first' } }, { index: 1, relevance_score: 0.5, document: { text: 'second' } }]);
    expect(up.forKey('co-key').at(-1)).toMatchObject({ path: '/v2/rerank', body: { documents: ['first', 'second'], top_n: 2 } });
  });

  it('Ali DashScope: native generation JSON and incremental SSE', async () => {
    await chatBoth('qwen-plus');
    const got = up.forKey('ali-key');
    expect(got[0]).toMatchObject({ path: '/api/v1/services/aigc/text-generation/generation', body: { input: { messages: [{ role: 'user', content: 'hi' }] }, parameters: { result_format: 'message' } } });
    expect(got[1].headers['x-dashscope-sse']).toBe('enable');
  });

  it('Baidu ERNIE: access token fetched once, model mapped to its endpoint, JSON and is_end stream', async () => {
    await chatBoth('ERNIE-4.0-8K');
    const got = up.forKey(`tok-ernie-${dialect}`);
    expect(got.map((r) => r.path)).toEqual(Array(2).fill('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro'));
    expect(up.forKey(`ernie-${dialect}`).filter((r) => r.path === '/oauth/2.0/token')).toHaveLength(1);
    expect(got[0].body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('image providers: Stability AI form upload answered as b64_json, Replicate prediction URLs', async () => {
    const { key } = await f.newUser({ quota: 1_000_000 });
    const client = f.openai(key);
    const sd = await client.images.generate({ model: 'sd3', prompt: 'a red fox', size: '1792x1024', response_format: 'b64_json' });
    expect(Buffer.from(sd.data![0].b64_json!, 'base64').toString()).toBe('PNG:a red fox');
    const form = String(up.forKey('stab-key').at(-1)!.body);
    expect(up.forKey('stab-key').at(-1)!.path).toBe('/stable-image/generate/sd3');
    expect(form).toMatch(/name="model"\r\n\r\nsd3-large\r\n/);
    expect(form).toMatch(/name="aspect_ratio"\r\n\r\n16:9\r\n/);
    const rep = await client.images.generate({ model: 'black-forest-labs/flux-schnell', prompt: 'a fox', n: 2 });
    expect(rep.data!.map((d) => d.url)).toEqual(['https://replicate.delivery/fake/0.png', 'https://replicate.delivery/fake/1.png']);
    expect(up.forKey('rep-key').at(-1)).toMatchObject({ path: '/v1/models/black-forest-labs/flux-schnell/predictions', body: { input: { prompt: 'a fox', num_outputs: 2 } } });
  });

  it('Coze: v3 chat always streamed upstream, joined for JSON callers; a missing bot is a 400', async () => {
    const key = await chatBoth('coze-bot123');
    const got = up.forKey('coze-pat');
    expect(got[0]).toMatchObject({ path: '/v3/chat', body: { bot_id: 'bot123', stream: true, additional_messages: [{ role: 'user', content: 'hi', content_type: 'text' }] } });
    const error = await f.openai(key).chat.completions.create({ model: 'coze-missing', messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.message).toContain('bot_id=missing does not exist');
  });

  it('Azure Speech: OpenAI speech as SSML with the plugin voice and style, audio bytes back', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const audio = await f.openai(key).audio.speech.create({ model: 'tts-1', input: 'Tom & Jerry', voice: 'nova', speed: 1.5 });
    expect(Buffer.from(await audio.arrayBuffer()).toString()).toBe('ID3fake-mp3');
    const got = up.forKey('speech-key').at(-1)!;
    expect(got.headers['x-microsoft-outputformat']).toBe('audio-24khz-48kbitrate-mono-mp3');
    expect(got.body).toContain('<voice name="zh-CN-XiaoxiaoNeural"><mstts:express-as style="cheerful"><prosody rate="50%">Tom &amp; Jerry</prosody>');
    expect(await lastLog(userId)).toMatchObject({ model_name: 'tts-1' });
  });

  it('MiniMax speech: hex audio from the JSON answer reaches the SDK as bytes of the asked format', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    const audio = await f.openai(key).audio.speech.create({ model: 'speech-01-turbo', input: 'hello', voice: 'alloy', response_format: 'wav' });
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await audio.arrayBuffer()).toString()).toBe('AUDIO:hello');
    expect(up.forKey('mm-key').at(-1)!.body).toMatchObject({ voice_setting: { voice_id: 'male-qn-qingse' }, audio_setting: { format: 'wav' } });
  });

  it('the Responses API reaches Cohere and DashScope through chat conversion, JSON and streamed', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    const client = f.openai(key);
    const answer = await client.responses.create({ model: 'cohere-cmd', input: 'hi' });
    expect(answer.output_text).toBe(TEXT);
    expect(answer.usage).toMatchObject({ input_tokens: PROMPT_TOKENS, output_tokens: 4 });
    const stream = await client.responses.create({ model: 'qwen-plus', input: 'hi', stream: true });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(text).toBe(TEXT);
    expect(completed).toBe(true);
  });

  it('Tencent Hunyuan: TC3-signed calls accepted by a verifying fake; a bad secret is a 401 from an HTTP 200 answer', async () => {
    const key = await chatBoth('hunyuan-lite');
    const error = await f.openai(key).chat.completions.create({ model: 'hunyuan-bad', messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    // The channel's secret is bad, not the caller's key: an outage for the caller (issue 20.3).
    expect(error.status).toBe(503);
    expect(error.message).toContain('upstream service unavailable');
  });

  it('the Gemini door streams from a Cohere channel (Cohere events → OpenAI chunks → Gemini chunks)', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    const genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.url } });
    let text = '';
    let usage: { candidatesTokenCount?: number } | undefined;
    for await (const chunk of await genai.models.generateContentStream({ model: 'cohere-cmd', contents: 'hi' })) {
      text += chunk.text ?? '';
      usage = chunk.usageMetadata ?? usage;
    }
    expect(text).toBe(TEXT);
    expect(usage?.candidatesTokenCount).toBe(4);
  });

  it('the Claude door streams from an Ollama channel (NDJSON → OpenAI chunks → Anthropic events)', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    const stream = new Anthropic({ apiKey: key, baseURL: f.url, maxRetries: 0 }).messages.stream({ model: 'ollama-llama', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    const message = await stream.finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: TEXT });
    expect(message.usage.output_tokens).toBe(4);
  });

  it('provider errors reach the caller in OpenAI shape with the provider message', async () => {
    const badId = await f.addChannel({ type: 17, key: 'ali-bad', base_url: up.url, models: 'qwen-bad' });
    up.behave('ali-bad', { status: 400 });
    const { key } = await f.newUser({ quota: 10_000_000 });
    const error = await f.openai(key).chat.completions.create({ model: 'qwen-bad', messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.message).toContain('Invalid API-key provided.');
    expect(error.error).toMatchObject({ code: 'InvalidApiKey' });
    await f.root.delete(`/api/channel/${badId}`);
  });

  it('channel tests and model lists work for native types', async () => {
    for (const id of [ids.azure, ids.ollama, ids.cohere, ids.ali, ids.baidu, ids.coze, ids.stability, ids.hunyuan]) {
      const res = await f.root.get(`/api/channel/test/${id}`);
      expect(res.body).toMatchObject({ success: true });
    }
    expect(up.forKey('stab-key').at(-1)!.path).toBe('/stable-image/generate/sd3');
    expect((await f.root.get(`/api/channel/test/${ids.speech}`)).body).toMatchObject({ success: false, message: expect.stringContaining('不支持的模型类型') });
    const list = (body: object) => f.root.post('/api/channel/provider_models_list', body);
    expect((await list({ type: 39, key: 'x', base_url: up.url })).body.data).toEqual(['llama3.2:latest', 'qwen3:8b']);
    expect((await list({ type: 36, key: 'x', base_url: up.url })).body.data).toEqual(['command-r-plus', 'command-a-03-2025']);
    expect((await list({ type: 3, key: 'x', base_url: up.url, other: '2024-10-21' })).body.data).toEqual(['gpt4o-deploy']);
  });

  it('balances through /api/channel/update_balance/:id in each provider\'s own API', async () => {
    const cases: Array<[number, string, number]> = [
      [28, up.url, 42.5],
      [29, up.url, 7],
      [45, up.url, 3.5],
      [20, `${up.url}/api`, 15.75],
      [1, up.url, 100 - 12.34],
    ];
    for (const [type, base, expected] of cases) {
      const id = await f.addChannel({ type, key: `bal-${type}`, base_url: base, models: `bal-${type}` });
      const res = await f.root.get(`/api/channel/update_balance/${id}`);
      expect(res.body, `type ${type}`).toMatchObject({ success: true });
      expect(res.body.balance).toBeCloseTo(expected);
      expect((await f.root.get(`/api/channel/${id}`)).body.data.balance).toBeCloseTo(expected);
    }
    expect(up.forKey('bal-28')[0].path).toBe('/user/balance');
    const none = await f.addChannel({ type: 30, key: 'bal-30', base_url: up.url, models: 'bal-30' });
    expect((await f.root.get(`/api/channel/update_balance/${none}`)).body).toMatchObject({ success: false, balance: 0 });
  });
});
