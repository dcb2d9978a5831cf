import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../harness.js';
import { doorFixture, type DoorFixture } from '../doors/fixture.js';
import { buildCorpus, type FuzzRequest } from './fuzz-corpus.js';

const chat = { model: 'fuzz-gpt', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], max_tokens: 20, temperature: 0.5, stream: false };
const messages = (model: string) => ({
  model,
  max_tokens: 50,
  system: [{ type: 'text', text: 'terse' }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'ok' }] }] },
  ],
  tools: [{ name: 'f', input_schema: { type: 'object' } }],
});
const gemini = {
  contents: [{ role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }, { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] }],
  systemInstruction: { parts: [{ text: 'terse' }] },
  tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object' } }] }],
  generationConfig: { maxOutputTokens: 20, temperature: 0.5, stopSequences: ['x'] },
};

function bases(ids: { tokenId: number; channelId: number; userId: number }): FuzzRequest[] {
  const r = (method: FuzzRequest['method'], url: string, auth: FuzzRequest['auth'], body?: unknown): FuzzRequest => ({ name: url, method, url, auth, body });
  return [
    r('POST', '/api/user/login', 'none', { username: 'nobody', password: 'password123' }),
    r('POST', '/api/user/register', 'none', { username: 'fuzzer', password: 'password123', email: 'a@b.c' }),
    r('POST', '/api/token/', 'user', { name: 't', remain_quota: 100, unlimited_quota: false, expired_time: -1, setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['127.0.0.1'] } } } }),
    r('PUT', '/api/token/', 'user', { id: ids.tokenId, name: 't2', remain_quota: 5, setting: { heartbeat: { enabled: false, timeout_seconds: 0 } } }),
    r('POST', '/api/channel/', 'root', { type: 1, name: 'c', key: 'k', base_url: 'http://127.0.0.1:9', models: 'fuzz-created', group: 'default', priority: 0, weight: 1 }),
    r('PUT', '/api/channel/', 'root', { id: ids.channelId, name: 'c2', base_url: 'http://127.0.0.1:9', models: 'fuzz-dummy', weight: 1 }),
    r('PUT', '/api/user/', 'root', { id: ids.userId, username: 'targetx', display_name: 'T', group: 'default', quota: 10 }),
    r('POST', `/api/user/quota/${ids.userId}`, 'root', { quota: 100, remark: 'r' }),
    r('POST', '/api/redemption/', 'root', { name: 'r', quota: 100, count: 1 }),
    r('PUT', '/api/option/', 'root', { key: 'QuotaForNewUser', value: '10' }),
    r('PUT', '/api/option/', 'root', { key: 'ChatLinks', value: '[]' }),
    r('POST', '/api/user/topup', 'user', { key: 'abc' }),
    r('POST', '/api/user/order', 'user', { uuid: 'x', amount: 10 }),
    r('GET', '/api/log/self?p=1&size=10&start_timestamp=0', 'user'),
    r('GET', '/api/log/?p=0&size=10&type=2&model_name=x', 'root'),
    r('GET', '/api/token/?p=1&size=10&keyword=x', 'user'),
    r('POST', '/v1/chat/completions', 'key', chat),
    r('POST', '/v1/completions', 'key', { model: 'fuzz-gpt', prompt: ['hi', 'there'], max_tokens: 5 }),
    r('POST', '/v1/embeddings', 'key', { model: 'fuzz-gpt', input: ['a', 'b'], encoding_format: 'float' }),
    r('POST', '/v1/responses', 'key', { model: 'fuzz-gpt', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], instructions: 'x', max_output_tokens: 20 }),
    r('POST', '/v1/responses', 'key', { model: 'fuzz-claude', input: [{ type: 'message', role: 'user', content: 'hi' }, { type: 'function_call_output', call_id: 'c', output: 'x' }] }),
    r('POST', '/v1/images/generations', 'key', { model: 'fuzz-gpt', prompt: 'cat', n: 1, size: '1024x1024' }),
    r('POST', '/v1/audio/speech', 'key', { model: 'fuzz-gpt', input: 'hello', voice: 'alloy' }),
    r('POST', '/v1/rerank', 'key', { model: 'fuzz-gpt', query: 'q', documents: ['a', 'b'], top_n: 1 }),
    r('POST', '/v1/moderations', 'key', { model: 'fuzz-gpt', input: 'x' }),
    r('GET', '/v1/models?after=x', 'key'),
    r('POST', '/v1/messages', 'key', messages('fuzz-gpt')),
    r('POST', '/v1/messages', 'key', messages('fuzz-claude')),
    r('POST', '/v1/messages', 'key', messages('fuzz-gemini')),
    r('POST', '/v1beta/models/fuzz-gpt:generateContent', 'key', gemini),
    r('POST', '/v1beta/models/fuzz-claude:streamGenerateContent?alt=sse', 'key', gemini),
    r('POST', '/v1beta/models/fuzz-gemini:generateContent', 'key', gemini),
    r('POST', '/v1/chat/completions', 'key', { ...chat, model: 'fuzz-claude', tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] }),
    r('POST', '/v1/chat/completions', 'key', { ...chat, model: 'fuzz-gemini', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }] }),
  ];
}

const CHANNEL_KEYS = ['fuzz-secret-openai', 'fuzz-secret-claude', 'fuzz-secret-gemini'];

describe('fuzz: malformed requests at every door (sqlite)', () => {
  let f: DoorFixture;
  let corpus: FuzzRequest[];
  const headers: Record<string, Record<string, string>> = { none: {} };
  beforeAll(async () => {
    f = await doorFixture('sqlite');
    for (const model of ['fuzz-gpt', 'fuzz-claude', 'fuzz-gemini']) await f.unitPrice(model);
    // The default models of image and moderation requests without a model are served too.
    await f.addChannel({ type: 1, key: CHANNEL_KEYS[0], models: 'fuzz-gpt,dall-e-2,text-moderation-latest' });
    await f.addChannel({ type: 14, key: CHANNEL_KEYS[1], base_url: f.claude.url, models: 'fuzz-claude' });
    await f.addChannel({ type: 25, key: CHANNEL_KEYS[2], base_url: f.gemini.url, models: 'fuzz-gemini' });
    const channelId = await f.addChannel({ type: 1, key: 'dummy-key', models: 'fuzz-dummy', base_url: 'http://127.0.0.1:9' });
    const caller = await f.newUser({ quota: 1_000_000_000 });
    const target = await f.newUser();
    const spare = await caller.client.post('/api/token/', { name: 'spare' });
    expect(spare.body.success).toBe(true);
    const tokenId = (await caller.client.get('/api/token/')).body.data.data.find((t: { name: string }) => t.name === 'spare').id;
    const cookie = (c: ApiClient) => (c as unknown as { cookie: string }).cookie;
    headers.user = { cookie: cookie(caller.client) };
    headers.root = { cookie: cookie(f.root) };
    headers.key = { authorization: `Bearer ${caller.key}`, 'x-api-key': caller.key.slice(3), 'x-goog-api-key': caller.key };
    corpus = buildCorpus(bases({ tokenId, channelId, userId: target.userId }), 14);
  });
  afterAll(async () => f?.close());

  it('answers every one of 300+ malformed requests without a 5xx or a leaked secret, and stays up', async () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    const hosts = [f.fake.url, f.claude.url, f.gemini.url].map((u) => new URL(u).host);
    const failures: string[] = [];
    for (const req of corpus) {
      const json = req.raw === undefined;
      const res = await f.server.app.inject({
        method: req.method,
        url: req.url,
        headers: { ...headers[req.auth], ...(req.method === 'GET' ? {} : { 'content-type': req.contentType ?? 'application/json' }) },
        ...(req.method === 'GET' ? {} : { payload: json ? JSON.stringify(req.body ?? null) : req.raw }),
      });
      const text = res.body;
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${req.name}: ${text.slice(0, 200)}`);
      // Admins may see channel keys and hosts; nobody else may.
      if (req.auth !== 'root') for (const secret of [...CHANNEL_KEYS, ...hosts]) if (text.includes(secret)) failures.push(`leak of ${secret} in ${req.name}`);
    }
    console.info(`fuzz: ${corpus.length} requests, ${failures.length} failures`);
    expect(failures).toEqual([]);
    // Still up and serving.
    const ok = await f.server.app.inject({ method: 'POST', url: '/v1/chat/completions', headers: { ...headers.key, 'content-type': 'application/json' }, payload: JSON.stringify({ model: 'fuzz-gpt', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(ok.statusCode).toBe(200);
  }, 60_000);
});
