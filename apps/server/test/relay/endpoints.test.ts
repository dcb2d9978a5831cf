import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { testDialects } from '../harness.js';
import { SPEECH_BYTES } from '../fakes/openai-endpoints.js';
import { countText } from '../../src/relay/tokenizer.js';
import { relayFixture, type RelayFixture } from './fixture.js';

/** Every non-chat OpenAI endpoint through the official SDK: answers intact, billed per relay.md §4.4/§4.11. */
describe.each(testDialects())('OpenAI endpoints on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    // One channel serves every model below; each model is priced 1 quota per token both ways.
    const models = ['test-model', 'dall-e-3', 'gpt-image-1', 'tts-test', 'whisper-test', 'moderation-test', 'rerank-test'];
    await f.server.ctx.db.deleteFrom('prices').where('model', 'in', models.slice(1)).execute(); // replaces the seeded defaults
    await f.server.ctx.db.insertInto('prices').values(models.slice(1).map((model) => ({ model, type: 'tokens', channel_type: 1, input: 1, output: 1 }))).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    await f.addChannel({ key: 'endpoints-key', models: models.join(',') });
  });
  afterAll(async () => f?.close());

  async function lastLog(userId: number) {
    await f.flush();
    return f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
  }

  it('completions: JSON and streamed, billed on upstream usage', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const answer = await f.openai(key).completions.create({ model: 'test-model', prompt: 'Once upon' });
    expect(answer.choices[0].text).toBe('Hello from the fake upstream');
    expect(await lastLog(userId)).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, quota: 9, estimated: 0 });
    const stream = await f.openai(key).completions.create({ model: 'test-model', prompt: 'Once upon', stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('Hello from the fake upstream');
    expect(f.fake.forKey('endpoints-key').at(-1)!.body.stream_options).toEqual({ include_usage: true });
    expect(await lastLog(userId)).toMatchObject({ quota: 9, is_stream: 1, estimated: 0 });
  });

  it('image generation: DALL·E billed by size and quality, gpt-image-1 by its token usage', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const images = await f.openai(key).images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', n: 1, size: '1792x1024', quality: 'hd' });
    expect(images.data?.[0].url).toBe('https://images.example/fake-0.png');
    expect(await lastLog(userId)).toMatchObject({ model_name: 'dall-e-3', prompt_tokens: 3000, quota: 3000, estimated: 1 });
    await f.openai(key).images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse' });
    expect(await lastLog(userId)).toMatchObject({ model_name: 'gpt-image-1', prompt_tokens: 50, completion_tokens: 4160, quota: 4210, estimated: 0 });
  });

  it('image edits: the multipart upload reaches upstream byte for byte and is billed per image', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10, 0x80]);
    const res = await f.openai(key).images.edit({ model: 'dall-e-3', image: await toFile(png, 'in.png', { type: 'image/png' }), prompt: 'add a boat', n: 2 });
    expect(res.data).toHaveLength(2);
    const got = f.fake.forKey('endpoints-key').at(-1)!;
    expect(got.path).toBe('/v1/images/edits');
    expect(got.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(got.raw).toContain(png.toString('latin1'));
    expect(got.raw).toContain('add a boat');
    expect(await lastLog(userId)).toMatchObject({ model_name: 'dall-e-3', quota: 2000 });
  });

  it('speech: audio bytes pass through; billed on the input length', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const res = await f.openai(key).audio.speech.create({ model: 'tts-test', voice: 'alloy', input: 'hello world' });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(SPEECH_BYTES);
    expect(await lastLog(userId)).toMatchObject({ prompt_tokens: 11, completion_tokens: 0, quota: 11 });
  });

  it('transcriptions and translations: billed on the returned text, JSON or plain text', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const wav = await toFile(Buffer.from('RIFF....WAVEfmt fake audio'), 'a.wav', { type: 'audio/wav' });
    const text = 'Hello from the fake upstream';
    const tokens = await countText('whisper-test', text);
    const json = await f.openai(key).audio.transcriptions.create({ model: 'whisper-test', file: wav });
    expect(json.text).toBe(text);
    expect(await lastLog(userId)).toMatchObject({ prompt_tokens: 0, completion_tokens: tokens, quota: tokens });
    const plain = await f.openai(key).audio.translations.create({ model: 'whisper-test', file: wav, response_format: 'text' });
    expect(String(plain).trim()).toBe(text);
    expect(f.fake.forKey('endpoints-key').at(-1)!.path).toBe('/v1/audio/translations');
    expect((await lastLog(userId)).completion_tokens).toBeGreaterThanOrEqual(tokens);
  });

  it('moderations: answered intact, the input counted locally', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const res = await f.openai(key).moderations.create({ model: 'moderation-test', input: ['first text', 'second'] });
    expect(res.results).toHaveLength(2);
    const log = await lastLog(userId);
    expect(log.prompt_tokens).toBe(await countText('moderation-test', 'first text\nsecond'));
    expect(log).toMatchObject({ estimated: 1, completion_tokens: 0 });
  });

  it('rerank: documents ranked upstream, billed on its usage', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const res = await fetch(`${f.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rerank-test', query: 'capital of France', documents: ['Paris', 'Berlin'] }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).results.map((r: { index: number }) => r.index)).toEqual([0, 1]);
    expect(await lastLog(userId)).toMatchObject({ prompt_tokens: 12, quota: 12 });
  });

  it('responses: JSON and streamed events pass through, billed on input/output usage', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const res = await f.openai(key).responses.create({ model: 'test-model', input: 'Say hello' });
    expect(res.output_text).toBe('Hello from the fake upstream');
    expect(await lastLog(userId)).toMatchObject({ prompt_tokens: 9, completion_tokens: 5, quota: 14, is_stream: 0 });
    const stream = await f.openai(key).responses.create({ model: 'test-model', input: 'Say hello', stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe('Hello from the fake upstream');
    expect(types.at(-1)).toBe('response.completed');
    expect(await lastLog(userId)).toMatchObject({ quota: 14, is_stream: 1, estimated: 0 });
  });

  it('forwards an unchanged JSON body exactly as the client sent it', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    const sent = '{ "model":"test-model",\n  "messages":[{"role":"user","content":"keep   my   spacing"}], "temperature": 0.50 }';
    const res = await fetch(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: sent });
    expect(res.status).toBe(200);
    expect(f.fake.forKey('endpoints-key').at(-1)!.raw).toBe(sent);
  });
});
