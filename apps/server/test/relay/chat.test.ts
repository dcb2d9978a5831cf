import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

describe.each(testDialects())('OpenAI relay on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
  });
  afterAll(async () => f?.close());

  it('relays a chat completion and bills its usage exactly', async () => {
    await f.addChannel({ key: 'json-key', models: 'test-model' });
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const answer = await f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Say hi' }] });
    expect(answer.choices[0].message.content).toBe('Hello from the fake upstream');
    expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    await f.flush();
    const user = await f.server.ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user.quota).toBe(100_000 - 15); // 10 prompt + 5 completion at ratio 1
    expect(user.used_quota).toBe(15);
    expect(user.request_count).toBe(1);
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ model_name: 'test-model', quota: 15, prompt_tokens: 10, completion_tokens: 5, is_stream: 0, estimated: 0 });
    const stat = await f.server.ctx.db.selectFrom('statistics').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(stat).toMatchObject({ request_count: 1, quota: 15 });
  });

  it('streams a chat completion intact, with usage when asked, and bills it', async () => {
    await f.addChannel({ key: 'stream-key', models: 'stream-model' });
    await f.server.ctx.db.insertInto('prices').values({ model: 'stream-model', input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const stream = await f.openai(key).chat.completions.create({
      model: 'stream-model',
      messages: [{ role: 'user', content: 'stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello from the fake upstream');
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    const upstream = f.fake.forKey('stream-key').at(-1)!;
    expect(upstream.body.stream_options).toEqual({ include_usage: true });
    await f.flush();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ quota: 15, is_stream: 1, estimated: 0 });
  });

  it('hides the usage chunk from clients that did not ask for it, and still bills', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const stream = await f.openai(key).chat.completions.create({ model: 'stream-model', messages: [{ role: 'user', content: 'x' }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.choices.length > 0)).toBe(true);
    await f.flush();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.quota).toBe(15);
  });

  it('applies model mapping and custom headers upstream, and bills the mapped model', async () => {
    await f.addChannel({
      key: 'map-key',
      models: 'alias-model',
      model_mapping: JSON.stringify({ 'alias-model': 'test-model' }),
      model_headers: JSON.stringify({ 'X-Custom-Tag': 'one-hub' }),
    });
    const { key, userId } = await f.newUser({ quota: 100_000 });
    await f.openai(key).chat.completions.create({ model: 'alias-model', messages: [{ role: 'user', content: 'hi' }] });
    const got = f.fake.forKey('map-key').at(-1)!;
    expect(got.body.model).toBe('test-model');
    expect(got.headers['x-custom-tag']).toBe('one-hub');
    expect(got.headers.authorization).toBe('Bearer map-key');
    await f.flush();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.model_name).toBe('test-model');
  });

  it('relays embeddings with upstream usage', async () => {
    await f.addChannel({ key: 'emb-key', models: 'text-embedding-3-small' });
    const { key } = await f.newUser({ quota: 100_000 });
    const res = await f.openai(key).embeddings.create({ model: 'text-embedding-3-small', input: 'hello' });
    expect(res.data[0].embedding.map((v) => Math.round(v * 10) / 10)).toEqual([0.1, 0.2]);
    expect(res.usage.prompt_tokens).toBe(7);
  });

  it('answers OpenAI-shaped errors with the right status', async () => {
    const bad = f.openai('sk-' + 'x'.repeat(48));
    await expect(bad.chat.completions.create({ model: 'test-model', messages: [] })).rejects.toMatchObject({ status: 401 });
    const limited = await f.newUser({ quota: 100_000, token: { setting: { limits: { limit_model_setting: { enabled: true, models: ['other-model'] } } } } });
    await expect(f.openai(limited.key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 403,
    });
    const { key } = await f.newUser({ quota: 100_000 });
    const err = await f.openai(key).chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(err.status).toBe(404);
    expect(err.error).toMatchObject({ code: 'model_not_found', message: expect.stringContaining('no-such-model') });
    const raw = await fetch(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json' }, body: '{bad' });
    expect(raw.status).toBe(400);
    expect((await raw.json()).error.message).toMatch(/JSON/);
    // A body in several chunks arrives whole; one declared over the 64 MB limit is refused unread.
    const parts = ['{"model":"test-model",', '"messages":[{"role":"user",', '"content":"chunked"}]}'];
    const chunked = await fetch(`${f.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: new ReadableStream({ start: (c) => { for (const part of parts) c.enqueue(new TextEncoder().encode(part)); c.close(); } }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(200);
    expect(f.fake.received.at(-1)!.body.messages).toEqual([{ role: 'user', content: 'chunked' }]);
    const huge = await new Promise<number>((resolve, reject) => {
      const req = request(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json', 'content-length': String(65 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(huge).toBe(413);
  });

  it('lists only the models the token may use', async () => {
    const { key } = await f.newUser({ token: { setting: { limits: { limit_model_setting: { enabled: true, models: ['test-model'] } } } } });
    const models = await f.openai(key).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['test-model']);
    const open = await f.newUser();
    const all = (await f.openai(open.key).models.list()).data.map((m) => m.id);
    expect(all).toEqual(expect.arrayContaining(['test-model', 'stream-model', 'alias-model']));
  });
});
