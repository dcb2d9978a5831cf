import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, readChatStream, type DoorFixture } from '../doors/fixture.js';
import { firstByteTiming } from '../../src/relay/pipeline/flow/first-byte.js';

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: `hello ${model}` }] });
const chatChunk = (model: string, content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Issue 35 (7, 8): broken 200s and silent upstreams are failed attempts; broken frames later end the stream in the door's shape. */
describe.each(testDialects())('failover from broken answers and silent channels on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    // FirstByteTimeoutSeconds counts tenths of a second here.
    firstByteTiming.secondMs = 100;
  });
  afterAll(async () => {
    firstByteTiming.secondMs = 1_000;
    f?.server.app.server.closeAllConnections();
    await f?.close();
  });

  const quotaOf = async (userId: number) => {
    await f.flush();
    return Number((await f.server.ctx.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);
  };
  const withRetries = async (times: number, run: () => Promise<void>) => {
    await f.setOption('RetryTimes', times);
    try {
      await run();
    } finally {
      await f.setOption('RetryTimes', 0);
    }
  };

  it('a truncated 200 freezes its channel: with RetryTimes 0 the SDK retry gets the lower-priority healthy one, billed once', async () => {
    const model = 'fo-truncated';
    await f.unitPrice(model);
    await f.addChannel({ key: 'fo-trunc-bad', models: model, priority: 10 });
    await f.addChannel({ key: 'fo-trunc-good', models: model, priority: 0 });
    f.fake.behave('fo-trunc-bad', { raw: { status: 200, contentType: 'application/json', body: '{"id":"chatcmpl-x","choices":[{"index":0,"mess' } });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const answer = await f.openai(key, { maxRetries: 2 }).chat.completions.create(ask(model));
    expect(answer.choices[0].message.content).toBe('Hello from the fake upstream');
    expect(f.fake.forKey('fo-trunc-bad')).toHaveLength(1);
    // The next request skips the frozen channel too.
    await f.openai(key).chat.completions.create(ask(model));
    expect(f.fake.forKey('fo-trunc-bad')).toHaveLength(1);
    expect(f.fake.forKey('fo-trunc-good')).toHaveLength(2);
    expect(await quotaOf(userId)).toBe(1_000_000 - 2 * 15);
  });

  it('a silent channel is given up after FirstByteTimeoutSeconds, the lower tier answers, and the next request does not wait on it again', async () => {
    await f.setOption('FirstByteTimeoutSeconds', 5);
    const model = 'fo-silent';
    await f.unitPrice(model);
    await f.addChannel({ key: 'fo-silent-key', models: model, priority: 10 });
    await f.addChannel({ key: 'fo-twin-key', models: model, priority: 0 });
    f.fake.behave('fo-silent-key', { silent: true });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await withRetries(1, async () => {
      const first = await f.openai(key).chat.completions.create(ask(model));
      expect(first.choices[0].message.content).toBe('Hello from the fake upstream');
      const started = Date.now();
      await f.openai(key).chat.completions.create(ask(model));
      expect(Date.now() - started).toBeLessThan(400);
    });
    expect(f.fake.forKey('fo-silent-key')).toHaveLength(1);
    expect(f.fake.forKey('fo-twin-key')).toHaveLength(2);
    expect(await quotaOf(userId)).toBe(1_000_000 - 2 * 15);
    await f.setOption('FirstByteTimeoutSeconds', 60);
  });

  it.each([
    ['a frame that only looks like JSON', ['data: {not json}\n\n', 'data: [DONE]\n\n']],
    ['no event at all', []],
  ])('a stream opening with %s fails over before a byte reaches the client, free of charge, and freezes its channel', async (name, rawStream) => {
    const model = `fo-first-${name.replace(/\W+/g, '-')}`;
    await f.unitPrice(model);
    await f.addChannel({ key: `${model}-bad`, models: model, priority: 10 });
    await f.addChannel({ key: `${model}-good`, models: model, priority: 0 });
    f.fake.behave(`${model}-bad`, { rawStream });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const streamText = async () => {
      const stream = await f.openai(key).chat.completions.create({ ...ask(model), stream: true, stream_options: { include_usage: true } });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      return text;
    };
    await withRetries(1, async () => expect(await streamText()).toBe('Hello from the fake upstream'));
    expect(await streamText()).toBe('Hello from the fake upstream');
    expect(f.fake.forKey(`${model}-bad`)).toHaveLength(1);
    expect(await quotaOf(userId)).toBe(1_000_000 - 2 * 15);
    expect(await f.lastLog(userId)).toMatchObject({ quota: 15, content: '' });
  });

  it('a broken frame midway ends an OpenAI chat stream with an error chunk and no [DONE]; what was delivered is billed and the row says so', async () => {
    const model = 'fo-mid-chat';
    await f.unitPrice(model);
    await f.addChannel({ key: 'fo-mid-chat', models: model });
    f.fake.behave('fo-mid-chat', { rawStream: [chatChunk(model, 'one two'), 'data: {not json}\n\n', chatChunk(model, ' three'), 'data: [DONE]\n\n'] });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const stream = await f.openai(key).chat.completions.create({ ...ask(model), stream: true });
    const { text, err } = await readChatStream(stream);
    expect(text).toBe('one two');
    expect(String(err?.message)).toContain('broken stream frame');
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ completion_tokens: 2, estimated: 1 });
    expect(log.content).toBe('upstream stream broke off: upstream sent a broken stream frame');
    expect(log.quota).toBe(log.prompt_tokens + 2);
    const raw = await (
      await fetch(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...ask(model), stream: true }) })
    ).text();
    expect(raw).not.toContain('not json');
    expect(raw).not.toContain('three');
    expect(raw).not.toContain('[DONE]');
    expect(raw).toContain('"code":"stream_interrupted"');
  });

  it('a broken frame midway ends a Claude door stream with event: error, not message_stop', async () => {
    const model = 'fo-mid-claude';
    await f.addChannel({ type: 14, key: 'fo-mid-claude', base_url: f.claude.url, models: model });
    f.claude.behave('fo-mid-claude', {
      rawStream: [
        sse('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } }),
        sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } }),
        'event: content_block_delta\ndata: {"type":"content_block_delta",,"index":0}\n\n',
        sse('message_stop', { type: 'message_stop' }),
      ],
    });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const stream = await f.anthropic(key).messages.create({ model, max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const types: string[] = [];
    const err = await (async () => {
      for await (const e of stream) types.push(e.type);
    })().catch((e) => e);
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(String(err?.message)).toContain('broken stream frame');
  });

  it('a broken frame midway in a converted stream (Claude door, OpenAI channel) ends it with event: error naming the broken frame', async () => {
    const model = 'fo-mid-converted';
    await f.addChannel({ key: 'fo-mid-conv', models: model });
    f.fake.behave('fo-mid-conv', { rawStream: [chatChunk(model, 'partial'), 'data: {"id":"c",,"choices":[]}\n\n', chatChunk(model, ' never'), 'data: [DONE]\n\n'] });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const stream = await f.anthropic(key).messages.create({ model, max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    const err = await (async () => {
      for await (const e of stream) if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
    })().catch((e) => e);
    expect(text).toBe('partial');
    expect(String(err?.message)).toContain('broken stream frame');
  });

  it('a broken frame midway ends a Gemini door stream with an error chunk', async () => {
    const model = 'fo-mid-gemini';
    await f.addChannel({ type: 25, key: 'fo-mid-gemini', base_url: f.gemini.url, models: model });
    const part = (text: string) => `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }] })}\n\n`;
    f.gemini.behave('fo-mid-gemini', { rawStream: [part('first'), 'data: {"candidates":[,]}\n\n', part('never')] });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const texts: string[] = [];
    const err = await (async () => {
      for await (const c of await f.genai(key).models.generateContentStream({ model, contents: 'hi' })) texts.push(c.text ?? '');
    })().catch((e) => e);
    expect(texts).toEqual(['first']);
    expect(err?.status).toBe(502);
    expect(String(err?.message)).toContain('broken stream frame');
  });

  it('a broken frame midway ends a Responses stream with response.failed, not response.completed', async () => {
    const model = 'fo-mid-responses';
    await f.addChannel({ key: 'fo-mid-resp', models: model });
    const response = { id: 'resp_1', object: 'response', created_at: 1, model, status: 'in_progress', output: [] };
    f.fake.behave('fo-mid-resp', {
      rawStream: [
        sse('response.created', { type: 'response.created', sequence_number: 0, response }),
        sse('response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 1, item_id: 'm', output_index: 0, content_index: 0, delta: 'partial' }),
        'event: response.output_text.delta\ndata: {"type":"response.output_text.delta",,}\n\n',
        sse('response.completed', { type: 'response.completed', sequence_number: 3, response: { ...response, status: 'completed' } }),
      ],
    });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const events: Array<{ type: string; response?: { id?: string; status?: string; error?: { message?: string } } }> = [];
    for await (const e of await f.openai(key).responses.create({ model, input: 'hi', stream: true })) events.push(e as never);
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.output_text.delta', 'response.failed']);
    expect(events[2].response).toMatchObject({ id: 'resp_1', status: 'failed' });
    expect(events[2].response?.error?.message).toContain('broken stream frame');
  });
});
