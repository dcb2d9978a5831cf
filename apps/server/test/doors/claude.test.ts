import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { thinkingSignature } from '../fakes/anthropic-upstream.js';
import { doorFixture, type DoorFixture } from './fixture.js';

describe.each(testDialects())('Anthropic Messages door on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.unitPrice('claude-test');
    await f.addChannel({ type: 14, key: 'claude-key', base_url: f.claude.url, models: 'claude-test' });
    await f.addChannel({ type: 1, key: 'openai-for-claude', models: 'gpt-behind-claude' });
    await f.unitPrice('gpt-behind-claude');
  });
  afterAll(async () => f?.close());

  it('passes /v1/messages through to an Anthropic channel: headers forwarded, unknown fields kept, usage billed', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    let sentVersion: string | null = null;
    const client = new Anthropic({
      apiKey: key,
      baseURL: f.url,
      maxRetries: 0,
      defaultHeaders: { 'anthropic-beta': 'prompt-caching-2024-07-31' },
      fetch: (url, init) => {
        sentVersion = new Headers(init?.headers).get('anthropic-version');
        return fetch(url, init);
      },
    });
    f.claude.behave('claude-key', { content: 'Hi there from Claude', cache: { read: 30, creation: 20 } });
    const answer = await client.messages.create({
      model: 'claude-test',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hello' }],
      metadata: { user_id: 'session-1' },
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'Hi there from Claude' }]);
    const got = f.claude.forKey('claude-key').at(-1)!;
    expect(got.path).toBe('/v1/messages');
    expect(got.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    expect(got.headers['anthropic-version']).toBe(sentVersion);
    expect(got.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(got.body.metadata).toEqual({ user_id: 'session-1' });
    expect(sentVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // A caller without anthropic-version (curl) still reaches upstream with a valid one.
    const raw = await fetch(`${f.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-test', max_tokens: 20, messages: [{ role: 'user', content: 'plain' }] }),
    });
    expect(raw.status).toBe(200);
    expect(f.claude.forKey('claude-key').at(-1)!.headers['anthropic-version']).toBe('2023-06-01');
    const log = await f.lastLog(userId);
    // 10 uncached + 30 cache read + 20 cache write in, 4 words out; unit prices.
    // Quota: 60 - trunc(30 × (1 − 0.1)) + trunc(20 × 0.25) = 38 in, 4 out.
    expect(log).toMatchObject({ model_name: 'claude-test', prompt_tokens: 60, completion_tokens: 4, cache_read_tokens: 30, cache_write_tokens: 20, quota: 42, estimated: 0 });
  });

  it('streams an Anthropic channel untouched: thinking and its signature reach the client as sent', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    f.claude.behave('claude-key', { content: 'Done thinking', thinking: 'Weigh the options' });
    const stream = f.anthropic(key).messages.stream({ model: 'claude-test', max_tokens: 2000, messages: [{ role: 'user', content: 'think' }] });
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type));
    const message = await stream.finalMessage();
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: 'Weigh the options', signature: thinkingSignature('Weigh the options') });
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'Done thinking' });
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 10, completion_tokens: 5, estimated: 0 });
  });

  it('serves /claude/v1/messages from an OpenAI channel by conversion, plain and streaming', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const client = new Anthropic({ apiKey: key, baseURL: `${f.url}/claude`, maxRetries: 0 });
    const answer = await client.messages.create({
      model: 'gpt-behind-claude',
      max_tokens: 50,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
      stop_sequences: ['END'],
    });
    expect(answer.type).toBe('message');
    expect(answer.content[0]).toMatchObject({ type: 'text', text: 'Hello from the fake upstream' });
    expect(answer.stop_reason).toBe('end_turn');
    expect(answer.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    const got = f.fake.forKey('openai-for-claude').at(-1)!;
    expect(got.path).toBe('/v1/chat/completions');
    expect(got.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(got.body.stop).toEqual(['END']);
    expect(got.body.max_tokens ?? got.body.max_completion_tokens).toBe(50);

    const stream = client.messages.stream({ model: 'gpt-behind-claude', max_tokens: 50, messages: [{ role: 'user', content: 'stream' }] });
    const types: string[] = [];
    stream.on('streamEvent', (e) => types.push(e.type));
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Hello from the fake upstream' });
    expect(types[0]).toBe('message_start');
    expect(types).toContain('content_block_delta');
    expect(types.at(-1)).toBe('message_stop');
    expect(final.usage.output_tokens).toBe(5);
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ model_name: 'gpt-behind-claude', is_stream: 1, prompt_tokens: 10, completion_tokens: 5 });
  });

  it('serves OpenAI chat completions from an Anthropic channel: system moved out, max_tokens supplied, tools mapped', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    f.claude.behave('claude-key', { toolUse: { name: 'get_weather', input: { city: 'Paris' } } });
    const answer = await f.openai(key).chat.completions.create({
      model: 'claude-test',
      messages: [
        { role: 'system', content: 'Use tools.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    });
    const call = answer.choices[0].message.tool_calls![0] as { function: { name: string; arguments: string } };
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    expect(answer.choices[0].finish_reason).toBe('tool_calls');
    const got = f.claude.forKey('claude-key').at(-1)!;
    expect(JSON.stringify(got.body.system)).toContain('Use tools.');
    expect(got.body.messages.every((m: { role: string }) => m.role !== 'system')).toBe(true);
    expect(got.body.max_tokens).toBe(8192);
    expect(got.body.tools[0]).toMatchObject({ name: 'get_weather', input_schema: { type: 'object' } });
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ model_name: 'claude-test', prompt_tokens: 10, completion_tokens: 10 + 5 });

    f.claude.behave('claude-key', { content: 'streamed words here' });
    const stream = await f.openai(key).chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'go' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('streamed words here');
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3 });
  });

  it('counts tokens locally for free: no hold, no log, no quota spent', async () => {
    await f.setOption('ClaudeCountTokensForward', false);
    const { key, userId } = await f.newUser({ quota: 1_000 });
    const before = await f.server.ctx.db.selectFrom('users').select(['quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    const counted = await f.anthropic(key).messages.countTokens({
      model: 'claude-test',
      system: 'You are a helpful assistant.',
      messages: [{ role: 'user', content: 'How many tokens is this sentence?' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(10);
    expect(counted.input_tokens).toBeLessThan(60);
    // An inline 1000×1000 image adds Anthropic's published w×h/750 = 1334 tokens.
    const header = Buffer.alloc(24);
    header.writeUInt32BE(0x89504e47, 0);
    header.writeUInt32BE(0x0d0a1a0a, 4);
    header.write('IHDR', 12, 'latin1');
    header.writeUInt32BE(1000, 16);
    header.writeUInt32BE(1000, 20);
    const withImage = await f.anthropic(key).messages.countTokens({
      model: 'claude-test',
      system: 'You are a helpful assistant.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How many tokens is this sentence?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: header.toString('base64') } }] }],
    });
    expect(withImage.input_tokens - counted.input_tokens).toBeGreaterThanOrEqual(1334);
    expect(withImage.input_tokens - counted.input_tokens).toBeLessThan(1334 + 5);
    await f.flush();
    const after = await f.server.ctx.db.selectFrom('users').select(['quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const logs = await f.server.ctx.db.selectFrom('logs').select('id').where('user_id', '=', userId).where('type', '=', 2).execute();
    expect(logs).toHaveLength(0);
    expect(f.claude.received.filter((r) => r.path === '/v1/messages/count_tokens')).toHaveLength(0);
    await f.setOption('ClaudeCountTokensForward', true);
  });

  it('ClaudeAPIEnabled off closes /v1/messages and /claude with an Anthropic-shaped 403', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    await f.setOption('ClaudeAPIEnabled', false);
    try {
      for (const baseURL of [f.url, `${f.url}/claude`]) {
        const error = await new Anthropic({ apiKey: key, baseURL, maxRetries: 0 }).messages.create({ model: 'claude-test', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
        expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
        expect(error.error.error.message).toContain('Claude API is not supported');
      }
    } finally {
      await f.setOption('ClaudeAPIEnabled', true);
    }
  });

  it('answers errors in Anthropic shape and lists models in Anthropic shape', async () => {
    const bad = f.anthropic('sk-not-a-real-key-000000000000000000000000000000');
    const error = await bad.messages.create({ model: 'claude-test', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const { key } = await f.newUser({ quota: 100_000 });
    const unknown = await f.anthropic(key).messages.create({ model: 'no-such-model', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(unknown).toBeInstanceOf(Anthropic.APIError);
    expect(unknown.error.type).toBe('error');

    const models = await f.anthropic(key).models.list();
    const ids = models.data.map((m) => m.id);
    expect(ids).toContain('claude-test');
    expect(models.data[0].type).toBe('model');
  });
});
