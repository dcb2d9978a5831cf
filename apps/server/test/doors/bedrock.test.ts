import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { FakeBedrock } from '../fakes/bedrock-upstream.js';
import { thinkingSignature } from '../fakes/anthropic-upstream.js';
import { doorFixture, type DoorFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';

const MODEL = 'claude-3-5-sonnet-20241022';
const BEDROCK_PATH = '/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0';

describe.each(testDialects())('Bedrock channels on %s', (dialect) => {
  let f: DoorFixture;
  const bedrock = new FakeBedrock('us-east-1');
  let channelId = 0;

  beforeAll(async () => {
    f = await doorFixture(dialect);
    await bedrock.start();
    await f.unitPrice(MODEL);
    const key = bedrock.addCredentials('AKIDGATEWAY', 'gateway/secret+1', 'SESSIONTOKEN');
    channelId = await f.addChannel({ type: 32, key, base_url: bedrock.url, models: MODEL });
  });
  afterAll(async () => {
    await f?.close();
    await bedrock.close();
  });

  it('serves /v1/messages with a SigV4-signed InvokeModel: Bedrock body, supported betas in the body, usage billed', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    bedrock.behave('AKIDGATEWAY', { content: 'Hello from Bedrock', cache: { read: 40 } });
    const client = new Anthropic({ apiKey: key, baseURL: f.url, maxRetries: 0, defaultHeaders: { 'anthropic-beta': 'claude-code-20250219,token-efficient-tools-2025-02-19' } });
    const answer = await client.messages.create({ model: MODEL, max_tokens: 100, system: 'Be brief', messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'u-1' } });
    expect(answer.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from Bedrock' })]);
    const got = bedrock.forKey('AKIDGATEWAY').at(-1)!;
    expect(got.path).toBe(`${BEDROCK_PATH}/invoke`);
    expect(got.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDGATEWAY\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    expect(got.headers['x-amz-security-token']).toBe('SESSIONTOKEN');
    expect(got.body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 100,
      system: 'Be brief',
      messages: [{ role: 'user', content: 'hi' }],
      metadata: { user_id: 'u-1' },
      anthropic_beta: ['token-efficient-tools-2025-02-19'],
    });
    const log = await f.lastLog(userId);
    // 10 uncached + 40 cache read in (read priced at a tenth), 3 words out, unit prices: 50 - trunc(40 × 0.9) + 3.
    expect(log).toMatchObject({ model_name: MODEL, channel_id: channelId, prompt_tokens: 50, completion_tokens: 3, cache_read_tokens: 40, quota: 17, estimated: 0 });
  });

  it('decodes the binary event stream into Anthropic SSE: thinking signature untouched, stream usage billed', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    bedrock.behave('AKIDGATEWAY', { content: 'Streamed from Bedrock', thinking: 'Plan the reply' });
    const stream = f.anthropic(key).messages.stream({ model: MODEL, max_tokens: 2000, messages: [{ role: 'user', content: 'go' }] });
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type));
    const message = await stream.finalMessage();
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: 'Plan the reply', signature: thinkingSignature('Plan the reply') });
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'Streamed from Bedrock' });
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    expect(bedrock.forKey('AKIDGATEWAY').at(-1)!.path).toBe(`${BEDROCK_PATH}/invoke-with-response-stream`);
    expect(bedrock.forKey('AKIDGATEWAY').at(-1)!.body.stream).toBeUndefined();
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 10, completion_tokens: 6, quota: 16, estimated: 0 });
  });

  it('serves OpenAI chat completions by conversion, plain and streaming with usage', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    bedrock.behave('AKIDGATEWAY', { content: 'Converted from Claude' });
    const openai = f.openai(key);
    const done = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'terse' }, { role: 'user', content: 'hi' }] });
    expect(done.choices[0].message.content).toBe('Converted from Claude');
    expect(done.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3 });
    const sent = bedrock.forKey('AKIDGATEWAY').at(-1)!.body;
    expect(sent.system).toBeDefined();
    expect(sent.messages).toEqual([{ role: 'user', content: expect.anything() }]);
    expect(sent.max_tokens).toBeGreaterThan(0);
    expect(sent.model).toBeUndefined();

    const stream = await openai.chat.completions.create({ model: MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Converted from Claude');
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3 });
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 10, completion_tokens: 3, estimated: 0 });
  });

  it('serves the Responses API by conversion (Codex on a Bedrock channel)', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    bedrock.behave('AKIDGATEWAY', { content: 'Responses from Bedrock' });
    const response = await f.openai(key).responses.create({ model: MODEL, instructions: 'terse', input: 'hi' });
    expect(response.output_text).toBe('Responses from Bedrock');
    expect(bedrock.forKey('AKIDGATEWAY').at(-1)!.body.system).toBeDefined();
    const stream = f.openai(key).responses.stream({ model: MODEL, input: 'hi' });
    const done = await stream.finalResponse();
    expect(done.output_text).toBe('Responses from Bedrock');
    expect(done.usage).toMatchObject({ input_tokens: 10, output_tokens: 3 });
    expect(await f.lastLog(userId)).toMatchObject({ is_stream: 1, prompt_tokens: 10, completion_tokens: 3, estimated: 0 });
  });

  it('ends the stream with an Anthropic error event when Bedrock raises an exception mid-stream', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    bedrock.behave('AKIDGATEWAY', { content: 'one two three four', errorAfterChunks: 2 });
    const stream = f.anthropic(key).messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const error = await stream.finalMessage().catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(String(error.message)).toContain('modelStreamErrorException');
    expect(texts.join('')).toBe('one two');
    const log = await f.lastLog(userId);
    expect(log.content).toContain('upstream stream broke off');
    bedrock.behave('AKIDGATEWAY', {});
  });

  it('fails over, free of charge, a 200 event stream whose first frame is an exception: nothing reaches the client from it', async () => {
    const model = 'claude-3-haiku-20240307';
    await f.unitPrice(model);
    const throttled = await f.addChannel({ type: 32, key: bedrock.addCredentials('AKIDTHROTTLED', 'secret-t'), base_url: bedrock.url, models: model, priority: 10 });
    const healthy = await f.addChannel({ type: 32, key: bedrock.addCredentials('AKIDHEALTHY', 'secret-h'), base_url: bedrock.url, models: model, priority: 0 });
    bedrock.behave('AKIDTHROTTLED', { streamException: { type: 'throttlingException', message: 'Too many tokens, please wait before trying again.' } });
    bedrock.behave('AKIDHEALTHY', { content: 'Served by the second channel' });
    await f.setOption('RetryTimes', 1);
    try {
      const { key, userId } = await f.newUser({ quota: 100_000 });
      const stream = f.anthropic(key).messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
      const events: string[] = [];
      stream.on('streamEvent', (e) => events.push(e.type));
      const message = await stream.finalMessage();
      expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Served by the second channel' })]);
      expect(events.filter((e) => e === 'message_start')).toHaveLength(1);
      expect(bedrock.forKey('AKIDTHROTTLED')).toHaveLength(1);
      // Throttling froze the channel for the model, as an upstream 429 would.
      const selector = relayState(f.server.ctx).selector;
      expect(selector.isFrozen(throttled, model)).toBe(true);
      expect(selector.isFrozen(healthy, model)).toBe(false);
      await f.setOption('RetryCooldownSeconds', 0);
      selector.freeze(throttled, model, 0.001);
      await new Promise((r) => setTimeout(r, 5));
      expect(selector.isFrozen(throttled, model)).toBe(false);
      await f.flush();
      const logs = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).execute();
      expect(logs).toEqual([expect.objectContaining({ channel_id: healthy, is_stream: 1, prompt_tokens: 10, completion_tokens: 5, quota: 15 })]);
      const user = await f.server.ctx.db.selectFrom('users').select('used_quota').where('id', '=', userId).executeTakeFirstOrThrow();
      expect(Number(user.used_quota)).toBe(15);

      // With no channel left the client gets the exception as the status Bedrock uses for it, not a 200 stream.
      await f.setOption('RetryTimes', 0);
      const failed = await f.anthropic(key).messages.create({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] }).catch((e) => e);
      expect(failed).toBeInstanceOf(Anthropic.RateLimitError);
      // Upstream's own text is for the admin's error log; the caller gets the status and a generic reason.
      expect(JSON.stringify(failed.error)).toContain('upstream is busy');
      expect(bedrock.forKey('AKIDTHROTTLED')).toHaveLength(2);
      expect(bedrock.forKey('AKIDHEALTHY')).toHaveLength(1);
      expect(throttled).not.toBe(healthy);

      // A validation exception is the caller's: a 400 at once, no other channel tried.
      await f.setOption('RetryTimes', 1);
      bedrock.behave('AKIDTHROTTLED', { streamException: { type: 'validationException', message: 'prompt is too long: 300000 tokens > 200000 maximum' } });
      const refused = await f.anthropic(key).messages.create({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] }).catch((e) => e);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect(JSON.stringify(refused.error)).toContain('prompt is too long');
      expect(bedrock.forKey('AKIDHEALTHY')).toHaveLength(1);
    } finally {
      await f.setOption('RetryTimes', 0);
      await f.setOption('RetryCooldownSeconds', 5);
    }
  });

  it('treats a 200 JSON answer to a stream request as the error it reports (relay.md §5.8)', async () => {
    const model = 'claude-3-haiku-20240307';
    bedrock.behave('AKIDTHROTTLED', { plainStreamAnswer: { message: 'Model is getting throttled. Try your request again.' } });
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const failed = await f.anthropic(key).messages.create({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] }).catch((e) => e);
    expect(failed).toBeInstanceOf(Anthropic.APIError);
    expect(failed.status).toBe(502);
    expect(JSON.stringify(failed.error)).toContain('upstream error');
    await f.flush();
    const user = await f.server.ctx.db.selectFrom('users').select(['used_quota', 'quota']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(Number(user.used_quota)).toBe(0);
    expect(Number(user.quota)).toBe(100_000);

    // The same answer to a plain request is a normal JSON body, passed on as Bedrock's answer.
    bedrock.behave('AKIDTHROTTLED', {});
    const plain = await f.anthropic(key).messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    expect(plain.content[0]).toMatchObject({ type: 'text' });
  });

  it('signs nothing for a Bedrock API key channel and sends it as Bearer; the console channel test works', async () => {
    await f.unitPrice('claude-opus-4-1-20250805');
    const id = await f.addChannel({ type: 32, key: bedrock.addApiKey('ABSKgatewaykey'), base_url: bedrock.url, models: 'claude-opus-4-1-20250805' });
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const answer = await f.anthropic(key).messages.create({ model: 'claude-opus-4-1-20250805', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.model).toBe('claude-opus-4-1-20250805');
    const got = bedrock.forKey('ABSKgatewaykey').at(-1)!;
    expect(got.headers.authorization).toBe('Bearer ABSKgatewaykey');
    expect(got.path).toBe('/model/anthropic.claude-opus-4-1-20250805-v1%3A0/invoke');
    expect(await f.lastLog(userId)).toMatchObject({ channel_id: id, prompt_tokens: 10, completion_tokens: 5 });
    const test = (await f.root.get(`/api/channel/test/${channelId}`)).body;
    expect(test).toMatchObject({ success: true });
    expect(bedrock.forKey('AKIDGATEWAY').at(-1)!.body.max_tokens).toBeGreaterThan(0);
  });

  it('lists the Anthropic models of the account for the channel form (signed ListFoundationModels)', async () => {
    const res = await f.root.post('/api/channel/provider_models_list', { id: channelId, type: 32, key: '', base_url: bedrock.url });
    expect(res.body).toMatchObject({ success: true, data: ['claude-3-5-sonnet-20241022', 'claude-3-haiku-20240307', 'claude-sonnet-4-20250514'] });
    const got = bedrock.forKey('AKIDGATEWAY').at(-1)!;
    expect(got.path).toBe('/foundation-models');
    expect(got.query.get('byProvider')).toBe('Anthropic');
  });

  it('maps Bedrock throttling to a 429 and a refused signature to an auth failure that takes the channel out', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    bedrock.behave('AKIDGATEWAY', { status: 429 });
    const limited = await f.anthropic(key).messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(limited.error.error.message).toContain('upstream is busy');
    bedrock.behave('AKIDGATEWAY', {});

    await f.setOption('AutomaticDisableChannelEnabled', true);
    const wrongKey = bedrock.addCredentials('AKIDWRONG', 'the-real-secret').replace('the-real-secret', 'a-stale-secret');
    await f.unitPrice('claude-sonnet-4-20250514');
    const wrongId = await f.addChannel({ type: 32, key: wrongKey, base_url: bedrock.url, models: 'claude-sonnet-4-20250514' });
    const refused = await f.anthropic(key).messages.create({ model: 'claude-sonnet-4-20250514', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(refused).toBeInstanceOf(Anthropic.APIError);
    expect(refused.status).toBe(503); // the channel's credentials, not the caller's
    expect(JSON.stringify(refused.error)).toContain('upstream service unavailable');
    expect(bedrock.forKey('AKIDWRONG')).toHaveLength(1);
    expect(JSON.stringify(refused.error)).not.toContain('a-stale-secret');
    const status = async () => (await f.server.ctx.db.selectFrom('channels').select('status').where('id', '=', wrongId).executeTakeFirstOrThrow()).status;
    for (let i = 0; i < 50 && (await status()) === 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await status()).toBe(3);
  });
});
