import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, readChatStream, type DoorFixture } from '../doors/fixture.js';

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hello there' }] });

describe.each(testDialects())('broken successes, caller errors and unknown models on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.setOption('RetryTimes', 2);
  });
  afterAll(async () => f?.close());

  async function balance(userId: number) {
    await f.flush();
    return f.server.ctx.db.selectFrom('users').select(['quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
  }

  it.each([
    ['truncated JSON', { status: 200, contentType: 'application/json', body: '{"id":"chatcmpl-x","choices":[{"index":0,"mess' }],
    ['an empty 200', { status: 200, contentType: 'application/json', body: '' }],
    ['an HTML 200', { status: 200, contentType: 'text/html', body: '<html><body>Welcome to nginx!</body></html>' }],
    ['JSON of another shape', { status: 200, contentType: 'application/json', body: '{"status":"ok"}' }],
    ['a huge invalid body', { status: 200, contentType: 'application/json', body: 'x'.repeat(2_000_000) }],
  ])('a 200 with %s fails over, free of charge', async (name, raw) => {
    const model = `broken-${name.replace(/\W+/g, '-')}`;
    await f.unitPrice(model);
    await f.addChannel({ key: `${model}-bad`, models: model, priority: 10 });
    await f.addChannel({ key: `${model}-good`, models: model, priority: 0 });
    f.fake.behave(`${model}-bad`, { raw });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const answer = await f.openai(key).chat.completions.create(ask(model));
    expect(answer.choices[0].message.content).toBe('Hello from the fake upstream');
    expect(f.fake.forKey(`${model}-bad`)).toHaveLength(1);
    // Billed once, for the good answer only (10 prompt + 5 completion at 1 per token).
    expect(await balance(userId)).toMatchObject({ quota: 1_000_000 - 15, request_count: 1 });
  });

  it('a stream whose first frame is not JSON fails over before a byte reaches the client', async () => {
    const model = 'broken-first-frame';
    await f.addChannel({ key: 'bff-bad', models: model, priority: 10 });
    await f.addChannel({ key: 'bff-good', models: model, priority: 0 });
    f.fake.behave('bff-bad', { rawStream: ['data: <html><body>502 Bad Gateway</body></html>\n\n'] });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const stream = await f.openai(key).chat.completions.create({ ...ask(model), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the fake upstream');
    expect(f.fake.forKey('bff-bad')).toHaveLength(1);
  });

  it('a stream that opens with a byte-order mark and splits characters across chunks arrives intact', async () => {
    const model = 'split-utf8';
    await f.addChannel({ key: 'su8', models: model });
    const frame = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${frame('你好')}${frame('🌍 world')}data: [DONE]\n\n`)]);
    // Cut inside 好 (three bytes) and inside 🌍 (four bytes).
    const cuts = [bytes.indexOf(Buffer.from('好')) + 1, bytes.indexOf(Buffer.from('🌍')) + 2];
    f.fake.behave('su8', { rawStream: [bytes.subarray(0, cuts[0]), bytes.subarray(cuts[0], cuts[1]), bytes.subarray(cuts[1])], rawStreamGapMs: 30 });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const stream = await f.openai(key).chat.completions.create({ ...ask(model), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('你好🌍 world');
  });

  it('a client that stops reading pauses upstream instead of the gateway buffering the stream, then gets all of it', async () => {
    const model = 'slow-reader';
    await f.unitPrice(model);
    await f.addChannel({ key: 'slow', models: model });
    // 6 000 frames of 8 KB: far more than the sockets on both sides can hold.
    const content = 'x'.repeat(8192);
    const frame = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const usage = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: 7, completion_tokens: 6000, total_tokens: 6007 } })}\n\n`;
    const progress = { written: 0, done: false };
    f.fake.behave('slow', { rawStream: [...Array<string>(6000).fill(frame), usage, 'data: [DONE]\n\n'], rawStreamProgress: progress });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, resolve);
      req.on('error', reject);
      req.end(JSON.stringify({ ...ask(model), stream: true, stream_options: { include_usage: true } }));
    });
    res.pause();
    // Upstream stalls once every buffer between it and the client is full; were the gateway
    // reading on into memory, upstream would keep going until it had handed over all 48 MB.
    for (let seen = -1; progress.written !== seen && !progress.done; ) {
      seen = progress.written;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(progress.done).toBe(false);
    expect(progress.written).toBeLessThan(6000);
    let text = '';
    res.setEncoding('utf8');
    for await (const piece of res) text += piece;
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames.filter((fr) => fr === frame.trim())).toHaveLength(6000);
    expect(frames.slice(-2)).toEqual([usage.trim(), 'data: [DONE]']);
    expect(progress).toEqual({ written: 6002, done: true });
    expect(await f.lastLog(userId)).toMatchObject({ prompt_tokens: 7, completion_tokens: 6000, quota: 6007 });
  });

  it('a broken frame after the first byte ends the stream with an error event and bills what was delivered', async () => {
    const model = 'broken-mid-frame';
    await f.unitPrice(model);
    await f.addChannel({ key: 'bmf', models: model });
    const chunk = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    f.fake.behave('bmf', { rawStream: [chunk('one two'), 'data: {"id":"c","choices":[{"delta":{"content":" thr\n\n', chunk(' never sent')] });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const stream = await f.openai(key).chat.completions.create({ ...ask(model), stream: true });
    const { text, err } = await readChatStream(stream);
    expect(text).toBe('one two');
    expect(String(err?.message ?? err)).toContain('broken stream frame');
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ completion_tokens: 2, estimated: 1 });
    expect(log.content).toContain('broken stream frame');
  });

  it('a 400 echoing a disable keyword neither disables nor fails over nor counts against the channel', async () => {
    await f.setOption('AutomaticDisableChannelEnabled', true);
    const id = await f.addChannel({ key: 'kw-echo', models: 'kw-model', priority: 10 });
    await f.addChannel({ key: 'kw-spare', models: 'kw-model', priority: 0 });
    f.fake.behave('kw-echo', { status: 400, errorBody: { error: { message: "Invalid value for 'tool_choice': 'Permission denied'", type: 'invalid_request_error', param: 'tool_choice' } } });
    const { key } = await f.newUser({ quota: 1_000_000 });
    const err = await f.openai(key).chat.completions.create(ask('kw-model')).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.error.message).toContain('Permission denied');
    expect(f.fake.forKey('kw-spare')).toHaveLength(0);
    await new Promise((r) => setImmediate(r));
    expect((await f.root.get(`/api/channel/${id}`)).body.data.status).toBe(1);
    // The same keyword in an upstream account error still disables.
    f.fake.behave('kw-echo', { status: 403, errorBody: { error: { message: 'Permission denied for this organization', type: 'permission_error' } } });
    const answer = await f.openai(key).chat.completions.create(ask('kw-model'));
    expect(answer.choices[0].message.content).toContain('fake upstream');
    await expect.poll(async () => (await f.root.get(`/api/channel/${id}`)).body.data.status).toBe(3);
    await f.setOption('AutomaticDisableChannelEnabled', false);
  });

  it('an unknown model is a 404 model_not_found at every door; a known model with no live channel stays 503', async () => {
    const { key } = await f.newUser({ quota: 1_000_000 });
    const oa = await f.openai(key).chat.completions.create(ask('no-such-model-x')).catch((e) => e);
    expect(oa.status).toBe(404);
    expect(oa.code).toBe('model_not_found');
    const an = await f.anthropic(key).messages.create({ model: 'no-such-model-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(an.status).toBe(404);
    expect(an.error.error.type).toBe('not_found_error');
    const ge = await f.genai(key).models.generateContent({ model: 'no-such-model-x', contents: 'hi' }).catch((e) => e);
    expect(ge.status).toBe(404);
    const id = await f.addChannel({ key: 'down-key', models: 'down-model' });
    await f.root.put('/api/channel/', { id, status: 2 });
    const down = await f.openai(key).chat.completions.create(ask('down-model')).catch((e) => e);
    expect(down.status).toBe(503);
  });
});
