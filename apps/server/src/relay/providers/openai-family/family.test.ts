import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adapterFor } from '../index.js';
import { BinaryAnswer, type ChannelTarget, type Endpoint, type UpstreamRequest } from '../types.js';
import { routeTo } from '../../pipeline/flow/attempt.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import { zhipuToken } from './auth.js';
import { sparkModel } from './urls.js';

/** A channel as the relay resolves it (catalogue default base URL when the row has none). */
function route(type: number, fields: Partial<ChannelRow> = {}) {
  const row = { id: 7, type, key: 'sk-test', base_url: '', other: '', model_mapping: null, model_headers: null, plugin: null, ...fields } as ChannelRow;
  return routeTo(row, 'm');
}
const target = (type: number, fields: Partial<ChannelRow> = {}): ChannelTarget => route(type, fields).target;

function build(type: number, endpoint: Endpoint, body: Record<string, unknown>, fields: Partial<ChannelRow> = {}, stream = false): UpstreamRequest {
  const model = String(body.model ?? '');
  return route(type, fields).adapter.buildRequest(endpoint, body, target(type, fields), { stream, raw: false, model });
}

describe('OpenAI-dialect provider profiles', () => {
  it.each([
    [28, 'chat/completions', 'https://api.deepseek.com/v1/chat/completions'],
    [29, 'chat/completions', 'https://api.moonshot.cn/v1/chat/completions'],
    [30, 'embeddings', 'https://api.mistral.ai/v1/embeddings'],
    [31, 'chat/completions', 'https://api.groq.com/openai/v1/chat/completions'],
    [20, 'chat/completions', 'https://openrouter.ai/api/v1/chat/completions'],
    [45, 'rerank', 'https://api.siliconflow.cn/v1/rerank'],
    [47, 'rerank', 'https://api.jina.ai/v1/rerank'],
    [49, 'embeddings', 'https://models.inference.ai.azure.com/embeddings'],
    [56, 'chat/completions', 'https://api.x.ai/v1/chat/completions'],
    [26, 'chat/completions', 'https://api.baichuan-ai.com/v1/chat/completions'],
    [27, 'chat/completions', 'https://api.minimax.chat/v1/text/chatcompletion_v2'],
    [33, 'chat/completions', 'https://api.lingyiwanwu.com/v1/chat/completions'],
    [16, 'chat/completions', 'https://open.bigmodel.cn/api/paas/v4/chat/completions'],
    [15, 'chat/completions', 'https://qianfan.baidubce.com/v2/chat/completions'],
    [18, 'chat/completions', 'https://spark-api-open.xf-yun.com/v1/chat/completions'],
    [51, 'images/generations', 'https://external.api.recraft.ai/v1/images/generations'],
  ] as const)('type %i %s → %s with a bearer key', (type, endpoint, url) => {
    const req = build(type, endpoint, { model: 'm' });
    expect(req.url).toBe(url);
    if (type !== 16 && type !== 18) expect(req.headers.authorization).toBe('Bearer sk-test');
  });

  it('a channel base URL wins over every default (360 has none of its own)', () => {
    expect(build(19, 'chat/completions', { model: 'm' }, { base_url: 'https://ai.360.example/' }).url).toBe('https://ai.360.example/v1/chat/completions');
    expect(build(15, 'chat/completions', { model: 'm' }, { base_url: 'https://my-qianfan.example' }).url).toBe('https://my-qianfan.example/v2/chat/completions');
  });

  it('serves only the endpoints the provider has', () => {
    expect(adapterFor(28)!.endpoints.has('embeddings')).toBe(false);
    expect(adapterFor(47)!.endpoints.has('chat/completions')).toBe(false);
    expect(adapterFor(45)!.endpoints.has('rerank')).toBe(true);
    expect(adapterFor(1)!.endpoints.has('audio/speech')).toBe(true);
  });

  it('asks for stream usage where upstream honours it and strips it elsewhere', () => {
    const asked = { model: 'm', stream: true, stream_options: { include_usage: true } };
    expect(build(28, 'chat/completions', { model: 'm', stream: true }, {}, true).body).toMatchObject({ stream_options: { include_usage: true } });
    expect(build(30, 'chat/completions', asked, {}, true).body).not.toHaveProperty('stream_options');
    const untouched = { model: 'm', stream: true };
    expect(build(30, 'chat/completions', untouched, {}, true).body).toBe(untouched);
  });

  it('drops what xAI reasoning models reject and recounts their completion tokens', () => {
    const body = build(56, 'chat/completions', { model: 'grok-4', stop: ['x'], presence_penalty: 1, reasoning_effort: 'high', temperature: 0.2 }).body;
    expect(body).toEqual({ model: 'grok-4', temperature: 0.2 });
    expect(build(56, 'chat/completions', { model: 'grok-3-mini', reasoning_effort: 'high' }).body).toEqual({ model: 'grok-3-mini', reasoning_effort: 'high' });
    const usage = adapterFor(56)!.parseUsage('chat/completions', { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 40 } });
    expect(usage).toMatchObject({ promptTokens: 10, completionTokens: 30 });
    const mapper = adapterFor(56)!.createStreamMapper({ forwardUsage: false });
    mapper.onEvent(JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 40 } }));
    expect(mapper.usage()).toMatchObject({ completionTokens: 30 });
  });

  it('Azure: deployment path, api-version from other, api-key header', () => {
    const req = build(3, 'chat/completions', { model: 'gpt-4.1' }, { base_url: 'https://res.openai.azure.com/', other: '2024-10-21' });
    expect(req.url).toBe('https://res.openai.azure.com/openai/deployments/gpt-4.1/chat/completions?api-version=2024-10-21');
    expect(req.headers['api-key']).toBe('sk-test');
    expect(req.headers.authorization).toBeUndefined();
    expect(build(3, 'embeddings', { model: 'emb' }, { base_url: 'https://res.openai.azure.com' }).url).toBe(
      'https://res.openai.azure.com/openai/deployments/emb/embeddings?api-version=2024-05-01-preview',
    );
    expect(build(3, 'responses', { model: 'o3' }, { base_url: 'https://res.openai.azure.com', other: '2025-04-01-preview' }).url).toBe(
      'https://res.openai.azure.com/openai/responses?api-version=2025-04-01-preview',
    );
    const gateway = 'https://gateway.ai.cloudflare.com/v1/acc/gw/azure-openai/res';
    expect(build(3, 'chat/completions', { model: 'gpt-4o' }, { base_url: gateway, other: 'v' }).url).toBe(`${gateway}/gpt-4o/chat/completions?api-version=v`);
    expect(adapterFor(3)!.modelsRequest!(target(3, { base_url: 'https://res.openai.azure.com' })).url).toBe(
      'https://res.openai.azure.com/openai/deployments?api-version=2023-03-15-preview',
    );
  });

  it('Azure v1: /openai/v1 paths, the version only when set', () => {
    expect(build(55, 'chat/completions', { model: 'gpt-4o' }, { base_url: 'https://res.openai.azure.com/openai/v1', other: 'preview' }).url).toBe(
      'https://res.openai.azure.com/openai/v1/chat/completions?api-version=preview',
    );
    expect(build(55, 'responses', { model: 'gpt-4o' }, { base_url: 'https://res.openai.azure.com' }).url).toBe('https://res.openai.azure.com/openai/v1/responses');
  });

  it('Azure Databricks: serving endpoint named by the model, Basic token auth', () => {
    const req = build(54, 'chat/completions', { model: 'llama-70b' }, { base_url: 'https://adb-1.azuredatabricks.net', key: 'dapi123' });
    expect(req.url).toBe('https://adb-1.azuredatabricks.net/serving-endpoints/llama-70b/invocations');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('token:dapi123').toString('base64')}`);
  });

  it('Cloudflare: account from the key, token as bearer; a key without both parts is a channel fault', () => {
    const req = build(35, 'chat/completions', { model: '@cf/meta/llama-3-8b-instruct' }, { key: 'acc123|tok456' });
    expect(req.url).toBe('https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer tok456');
    expect(() => build(35, 'chat/completions', { model: 'x' }, { key: 'only-token' })).toThrow(/accountId\|apiToken/);
    expect(adapterFor(35)!.parseModels!({ result: [{ name: '@cf/a' }, { name: '@hf/b' }], success: true })).toEqual(['@cf/a', '@hf/b']);
    const image = build(35, 'images/generations', { model: '@cf/black-forest-labs/flux-1-schnell', prompt: 'a cat', n: 1, size: '1024x1024' }, { key: 'acc123|tok456' });
    expect(image.url).toBe('https://api.cloudflare.com/client/v4/accounts/acc123/ai/run/@cf/black-forest-labs/flux-1-schnell');
    expect(image.body).toEqual({ prompt: 'a cat' });
    const cf = adapterFor(35)!;
    expect(cf.transformResponse!('images/generations', { result: { image: 'QUJD' }, success: true, errors: [] }, {})).toMatchObject({ data: [{ b64_json: 'QUJD' }] });
    expect(() => cf.transformResponse!('images/generations', { success: false, errors: [{ message: 'model not found' }] }, {})).toThrow('model not found');
    const chat = { id: 'x', choices: [] };
    expect(cf.transformResponse!('chat/completions', chat, {})).toBe(chat);
  });

  it('Zhipu: HS256 token with sign_type SIGN and millisecond claims, verifiable with the secret', () => {
    const now = 1_700_000_000_000;
    const token = zhipuToken('my-id.my-secret', now);
    const [h, p, sig] = token.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    expect(JSON.parse(Buffer.from(p, 'base64url').toString())).toEqual({ api_key: 'my-id', exp: now + 86_400_000, timestamp: now });
    expect(sig).toBe(createHmac('sha256', 'my-secret').update(`${h}.${p}`).digest('base64url'));
    expect(build(16, 'chat/completions', { model: 'glm-4' }, { key: 'my-id.my-secret' }).headers.authorization).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(zhipuToken('plainkey')).toBe('Bearer plainkey');
  });

  it('Spark: APIKey:APISecret bearer from APPID|APISecret|APIKey, SparkDesk versions to domains, 200 errors raised', () => {
    expect(build(18, 'chat/completions', { model: 'SparkDesk-v3.5' }, { key: 'app|sec|key' }).headers.authorization).toBe('Bearer key:sec');
    expect(build(18, 'chat/completions', { model: 'SparkDesk-v3.5' }, { key: 'app|sec|key' }).body).toEqual({ model: 'generalv3.5' });
    expect([sparkModel('SparkDesk'), sparkModel('SparkDesk-v4.0'), sparkModel('SparkDesk-v9'), sparkModel('lite'), sparkModel('SparkDesk', 'v3.1')]).toEqual(['general', '4.0Ultra', 'generalv9', 'lite', 'generalv3']);
    expect(build(18, 'chat/completions', { model: 'SparkDesk' }, { key: 'app|sec|key', other: 'v2.1' }).body).toEqual({ model: 'generalv2' });
    expect(() => adapterFor(18)!.transformResponse!('chat/completions', { code: 10013, message: 'input content audit failed' }, {})).toThrow(/audit failed \(code 10013\)/);
    const fine = { code: 0, message: 'Success', choices: [] };
    expect(adapterFor(18)!.transformResponse!('chat/completions', fine, {})).toBe(fine);
  });

  it('MiniMax speech: T2A v2 body with mapped voice, GroupId from a two-part key, hex audio decoded, base_resp errors raised', () => {
    const plugin = JSON.stringify({ voice: { nova: 'female-tianmei|happy' } });
    const req = build(27, 'audio/speech', { model: 'speech-01-turbo', input: 'hi', voice: 'nova', response_format: 'wav' }, { key: 'mm-key|group-7', plugin });
    expect(req.url).toBe('https://api.minimax.chat/v1/t2a_v2?GroupId=group-7');
    expect(req.headers.authorization).toBe('Bearer mm-key');
    expect(req.body).toMatchObject({ model: 'speech-01-turbo', text: 'hi', output_format: 'hex', voice_setting: { voice_id: 'female-tianmei', emotion: 'happy', speed: 1 }, audio_setting: { format: 'wav' } });
    const mm = adapterFor(27)!;
    const audio = mm.transformResponse!('audio/speech', { data: { audio: Buffer.from('RIFF').toString('hex'), status: 2 }, extra_info: { audio_format: 'wav' }, base_resp: { status_code: 0, status_msg: 'success' } }, {});
    expect(audio).toBeInstanceOf(BinaryAnswer);
    expect(audio).toMatchObject({ contentType: 'audio/wav', bytes: Buffer.from('RIFF') });
    expect(() => mm.transformResponse!('chat/completions', { base_resp: { status_code: 1004, status_msg: 'authorized error' } }, {})).toThrow(expect.objectContaining({ status: 401 }));
    expect(build(27, 'audio/speech', { model: 's', input: 'x', voice: 'custom-voice' }).body).toMatchObject({ voice_setting: { voice_id: 'custom-voice' } });
  });

  it('maps OpenAI-style and Mistral-style errors and scrubs keys', () => {
    const mistral = adapterFor(30)!.mapError(401, JSON.stringify({ object: 'error', message: 'Unauthorized key sk-abcdefghijklmnop', type: 'invalid_request_error', code: '1000' }));
    expect(mistral).toMatchObject({ status: 401, type: 'invalid_request_error', code: '1000' });
    expect(mistral.message).toBe('Provider API error: Unauthorized key sk-***');
    const openai = adapterFor(28)!.mapError(402, JSON.stringify({ error: { message: 'Insufficient Balance', type: 'unknown_error' } }));
    expect(openai).toMatchObject({ status: 402, message: 'Provider API error: Insufficient Balance' });
    expect(adapterFor(54)!.mapError(500, 'gateway down').message).toBe('Provider API error: gateway down');
    expect(adapterFor(35)!.mapError(401, JSON.stringify({ success: false, errors: [{ code: 10000, message: 'Authentication error' }], result: null }))).toMatchObject({ message: 'Provider API error: Authentication error', code: '10000' });
  });

  it('model lists only where the provider has one', () => {
    expect(adapterFor(28)!.modelsRequest!(target(28)).url).toBe('https://api.deepseek.com/v1/models');
    expect(adapterFor(49)!.modelsRequest!(target(49)).url).toBe('https://models.inference.ai.azure.com/models');
    expect(adapterFor(49)!.parseModels!([{ name: 'gpt-4o', publisher: 'OpenAI' }, { name: 'Phi-4', publisher: 'Microsoft' }])).toEqual(['gpt-4o', 'Phi-4']);
    expect(adapterFor(28)!.parseModels!({ object: 'list', data: [{ id: 'deepseek-chat' }, { id: 'deepseek-reasoner' }] })).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect(adapterFor(54)!.modelsRequest).toBeUndefined();
    expect(adapterFor(47)!.modelsRequest).toBeUndefined();
  });
});

describe('channel plugins', () => {
  const customize = (paths: Record<string, string>) => ({ base_url: 'https://relay.example', plugin: JSON.stringify({ customize: paths }) });

  it('Custom: customize paths per relay mode, disable answers 501, unset modes keep /v1', () => {
    expect(build(8, 'chat/completions', { model: 'm' }, customize({ '1': '/api/chat/send' })).url).toBe('https://relay.example/api/chat/send');
    expect(build(8, 'embeddings', { model: 'm' }, customize({ '1': '/api/chat/send' })).url).toBe('https://relay.example/v1/embeddings');
    expect(() => build(8, 'images/generations', { model: 'm' }, customize({ '5': 'disable' }))).toThrow(expect.objectContaining({ status: 501 }));
    expect(build(8, 'chat/completions', { model: 'm' }, { base_url: 'https://relay.example', plugin: 'not json' }).url).toBe('https://relay.example/v1/chat/completions');
  });

  it('Ali: use_openai_api selects compatible mode (with or without the segment in the base URL); web_search turns on search', () => {
    const on = { plugin: JSON.stringify({ use_openai_api: { enable: true } }) };
    expect(route(17, on).adapter.name).toBe('ali-compatible');
    expect(build(17, 'chat/completions', { model: 'qwen-plus' }, on).url).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions');
    expect(build(17, 'embeddings', { model: 'e' }, { ...on, base_url: 'https://dashscope.aliyuncs.com/compatible-mode' }).url).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/embeddings');
    expect(route(17, { plugin: JSON.stringify({ use_openai_api: { enable: false } }) }).adapter.name).toBe('ali');
    const native = build(17, 'chat/completions', { model: 'qwen-plus', messages: [] }, { plugin: JSON.stringify({ web_search: { enable: true } }) });
    expect((native.body as { parameters: Record<string, unknown> }).parameters.enable_search).toBe(true);
  });

  it('OpenRouter: provider preferences from the plugin unless the caller sent some', () => {
    const plugin = { plugin: JSON.stringify({ other: { provider: '{"order":["openai"],"allow_fallbacks":false}' } }) };
    expect(build(20, 'chat/completions', { model: 'm' }, plugin).body).toEqual({ model: 'm', provider: { order: ['openai'], allow_fallbacks: false } });
    expect(build(20, 'chat/completions', { model: 'm', provider: { sort: 'price' } }, plugin).body).toEqual({ model: 'm', provider: { sort: 'price' } });
    const untouched = { model: 'm' };
    expect(build(20, 'chat/completions', untouched, { plugin: JSON.stringify({ other: { provider: '{broken' } }) }).body).toBe(untouched);
  });

  it('Zhipu: plugin tools appended to the caller\'s own (retrieval, web search, All Tools)', () => {
    const plugin = JSON.stringify({ retrieval: { knowledge_id: 'kb-1', prompt_template: '{{knowledge}} {{question}}' }, web_search: { enable: true }, drawing_tool: { enable: false }, code_interpreter: { sandbox: 'none' } });
    const own = { type: 'function', function: { name: 'f' } };
    expect(build(16, 'chat/completions', { model: 'glm-4', tools: [own] }, { key: 'id.secret', plugin }).body).toEqual({
      model: 'glm-4',
      tools: [own, { type: 'retrieval', retrieval: { knowledge_id: 'kb-1', prompt_template: '{{knowledge}} {{question}}' } }, { type: 'web_search', web_search: { enable: true } }, { type: 'code_interpreter', code_interpreter: { sandbox: 'none' } }],
    });
    const plain = { model: 'embedding-2', input: 'x' };
    expect(build(16, 'embeddings', plain, { key: 'id.secret', plugin }).body).toBe(plain);
  });

  it('Baidu: use_openai_api forces Qianfan v2 even for a two-part key', () => {
    const req = build(15, 'chat/completions', { model: 'ernie-4.0-8k' }, { key: 'a|b', plugin: JSON.stringify({ use_openai_api: { enable: true } }) });
    expect(req.url).toBe('https://qianfan.baidubce.com/v2/chat/completions');
  });
});

describe('balance queries', () => {
  /** Answers canned JSON per URL path and records the requests. */
  function fakeGet(answers: Record<string, unknown>) {
    const seen: UpstreamRequest[] = [];
    const get = async (req: UpstreamRequest) => {
      seen.push(req);
      const path = new URL(req.url).pathname;
      if (!(path in answers)) throw new Error(`unexpected ${req.url}`);
      return answers[path];
    };
    return { seen, get };
  }

  it.each([
    [28, '/user/balance', { is_available: true, balance_infos: [{ currency: 'CNY', total_balance: '110.50' }] }, 110.5],
    [29, '/v1/users/me/balance', { code: 0, data: { available_balance: 70, voucher_balance: 0, cash_balance: 70 }, status: true }, 10],
    [45, '/v1/user/info', { code: 20000, data: { totalBalance: '8.88', balance: '8.88' } }, 8.88],
    [20, '/api/v1/credits', { data: { total_credits: 25, total_usage: 7.5 } }, 17.5],
    [51, '/v1/users/me', { credits: 2500, id: 'u' }, 2.5],
  ] as const)('type %i reads %s', async (type, path, answer, expected) => {
    const { seen, get } = fakeGet({ [path]: answer });
    expect(await adapterFor(type)!.fetchBalance!(target(type), get)).toBeCloseTo(expected);
    expect(seen[0].headers.authorization).toBe('Bearer sk-test');
  });

  it('OpenAI: hard limit minus this month\'s usage (cents), 100 days back without a payment method', async () => {
    const { seen, get } = fakeGet({
      '/v1/dashboard/billing/subscription': { hard_limit_usd: 120, has_payment_method: true },
      '/v1/dashboard/billing/usage': { total_usage: 2050 },
    });
    expect(await adapterFor(1)!.fetchBalance!(target(1, { base_url: 'https://api.openai.com' }), get)).toBeCloseTo(99.5);
    const usageUrl = new URL(seen[1].url);
    expect(usageUrl.searchParams.get('start_date')).toMatch(/^\d{4}-\d{2}-01$/);
    expect(usageUrl.searchParams.get('end_date')).toBe(new Date().toISOString().slice(0, 10));
    const trial = fakeGet({ '/v1/dashboard/billing/subscription': { hard_limit_usd: 5, has_payment_method: false }, '/v1/dashboard/billing/usage': { total_usage: 0 } });
    await adapterFor(1)!.fetchBalance!(target(1, { base_url: 'https://api.openai.com' }), trial.get);
    const start = new URL(trial.seen[1].url).searchParams.get('start_date')!;
    expect(Math.round((Date.now() - Date.parse(start)) / 86_400_000)).toBeGreaterThanOrEqual(99);
  });

  it('Moonshot international reports USD already', async () => {
    const { get } = fakeGet({ '/v1/users/me/balance': { code: 0, data: { available_balance: 12.5 }, status: true } });
    expect(await adapterFor(29)!.fetchBalance!(target(29, { base_url: 'https://api.moonshot.ai' }), get)).toBe(12.5);
  });

  it('answers null when the provider answer lacks the figure, and no query at all where there is no balance API', async () => {
    expect(await adapterFor(28)!.fetchBalance!(target(28), fakeGet({ '/user/balance': { balance_infos: [] } }).get)).toBeNull();
    expect(adapterFor(30)!.fetchBalance).toBeUndefined();
    expect(adapterFor(3)!.fetchBalance).toBeUndefined();
  });
});
