import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { fakeEmbedding } from '../fakes/gemini-answer.js';
import { doorFixture, type DoorFixture } from './fixture.js';

/**
 * Issue 36 item 6: Gemini embeddings at the Gemini door (`:embedContent`, `:batchEmbedContents`,
 * passed through), Gemini embedding models on `/v1/embeddings` (converted), and the `v1` path
 * version beside `v1beta`. Billed on input tokens, as embeddings are.
 */
describe.each(testDialects())('Gemini embeddings and the v1 path on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  let userId: number;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.unitPrice('my-embedding-2');
    // A mapped name: the upstream's batch requests must name the model in its URL.
    await f.addChannel({ type: 25, key: 'g-embed', base_url: f.gemini.url, models: 'hub-embed,gemini-2.5-flash', model_mapping: JSON.stringify({ 'hub-embed': 'my-embedding-2' }) });
    ({ key, userId } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  const last = () => f.gemini.forKey('g-embed').at(-1)!;

  it('@google/genai embedContent goes through as batchEmbedContents and is billed on its input tokens', async () => {
    const answer = await f.genai(key).models.embedContent({ model: 'hub-embed', contents: ['What is your name?', 'Blue'], config: { outputDimensionality: 3 } });
    expect(answer.embeddings?.map((e) => e.values)).toEqual([fakeEmbedding('What is your name?', 3), fakeEmbedding('Blue', 3)]);
    const got = last();
    expect(got.path).toBe('/v1beta/models/my-embedding-2:batchEmbedContents');
    expect(got.body.requests.map((r: any) => r.model)).toEqual(['models/my-embedding-2', 'models/my-embedding-2']);
    const log = await f.lastLog(userId);
    expect(log.model_name).toBe('my-embedding-2');
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBe(0);
    expect(log.quota).toBe(log.prompt_tokens);
    expect(JSON.parse(log.metadata).door).toBe('/v1beta');
  });

  it('the v1 path serves every method: generateContent through @google/genai, embedContent by hand', async () => {
    const v1 = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.url, apiVersion: 'v1' } });
    const reply = await v1.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    expect(reply.text).toBeTruthy();
    expect(last().path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');

    const res = await fetch(`${f.url}/v1/models/hub-embed:embedContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'models/hub-embed', content: { parts: [{ text: 'Hello' }] } }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ embedding: { values: fakeEmbedding('Hello') } });
    expect(last().path).toBe('/v1beta/models/my-embedding-2:embedContent');
    expect(last().body.model).toBe('models/my-embedding-2');
  });

  it('a bad embed body is a 400 in Google shape naming the field', async () => {
    const res = await fetch(`${f.url}/v1beta/models/hub-embed:batchEmbedContents`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ requests: [] }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/^requests: must hold at least one request/);
  });

  it('OpenAI /v1/embeddings on a Gemini model is converted and answered in OpenAI shape with the billed usage', async () => {
    const answer = await f.openai(key).embeddings.create({ model: 'hub-embed', input: ['alpha', 'beta gamma'], dimensions: 3 });
    expect(answer.data.map((d) => d.index)).toEqual([0, 1]);
    answer.data[1].embedding.forEach((v, i) => expect(v).toBeCloseTo(fakeEmbedding('beta gamma', 3)[i], 5));
    const got = last();
    expect(got.path).toBe('/v1beta/models/my-embedding-2:batchEmbedContents');
    expect(got.body.requests[1]).toEqual({ model: 'models/my-embedding-2', content: { parts: [{ text: 'beta gamma' }] }, outputDimensionality: 3 });
    const log = await f.lastLog(userId);
    expect(answer.usage.prompt_tokens).toBeGreaterThan(0);
    expect(answer.usage).toEqual({ prompt_tokens: log.prompt_tokens, total_tokens: log.prompt_tokens });
    expect(log.quota).toBe(log.prompt_tokens);
  });

  it('token-array input cannot be embedded by Gemini: a 400 saying so, nothing billed', async () => {
    const before = (await f.lastLog(userId)).id;
    const error = await f.openai(key).embeddings.create({ model: 'hub-embed', input: [[1, 2, 3]] }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/input: Gemini channels embed text only/);
    expect((await f.lastLog(userId)).id).toBe(before);
  });

  it('/v1/models is the OpenAI list to OpenAI clients and Google\'s to a Gemini client on v1', async () => {
    const ids: string[] = [];
    for await (const m of f.openai(key).models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(['hub-embed', 'gemini-2.5-flash']));
    expect((await f.openai(key).models.retrieve('hub-embed')).id).toBe('hub-embed');

    const v1 = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.url, apiVersion: 'v1' } });
    const names: string[] = [];
    for await (const m of await v1.models.list()) names.push(m.name!);
    expect(names).toEqual(expect.arrayContaining(['models/hub-embed', 'models/gemini-2.5-flash']));
    expect((await v1.models.get({ model: 'hub-embed' })).name).toBe('models/hub-embed');
  });
});
