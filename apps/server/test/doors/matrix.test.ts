import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoogleGenAI } from '@google/genai';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Official clients × channel families not covered elsewhere: streams with tools and images, and the /gemini prefix. */
describe.each(testDialects())('Conversion matrix on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['mx-claude', 'mx-gemini', 'mx-openai']) await f.unitPrice(m);
    await f.addChannel({ type: 14, key: 'mx-claude', base_url: f.claude.url, models: 'mx-claude' });
    await f.addChannel({ type: 25, key: 'mx-gemini', base_url: f.gemini.url, models: 'mx-gemini' });
    await f.addChannel({ type: 1, key: 'mx-openai', models: 'mx-openai' });
  });
  afterAll(async () => f?.close());

  it('openai streams from a Gemini channel with an image and a tool call, billed from usageMetadata', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    f.gemini.behave('mx-gemini', { content: 'I see a pixel', functionCall: { name: 'describe', args: { what: 'pixel' } } });
    const stream = await f.openai(key).chat.completions.create({
      model: 'mx-gemini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } }] }],
      tools: [{ type: 'function', function: { name: 'describe', parameters: { type: 'object', properties: { what: { type: 'string' } } } } }],
    });
    let args = '';
    let name = '';
    let finish: string | null = null;
    let usage: { prompt_tokens: number } | undefined;
    for await (const chunk of stream) {
      const d = chunk.choices[0]?.delta;
      for (const call of d?.tool_calls ?? []) {
        name ||= call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(name).toBe('describe');
    expect(JSON.parse(args)).toEqual({ what: 'pixel' });
    expect(finish).toBe('tool_calls');
    expect(usage?.prompt_tokens).toBe(10);
    const got = f.gemini.forKey('mx-gemini').at(-1)!;
    expect(got.path).toBe('/v1beta/models/mx-gemini:streamGenerateContent');
    expect(got.body.contents[0].parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: PIXEL } });
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 10, estimated: 0 });
    f.gemini.behave('mx-gemini', {});
  });

  it('openai sends an image to an Anthropic channel as a base64 image block', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const answer = await f.openai(key).chat.completions.create({
      model: 'mx-claude',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } }] }],
    });
    expect(answer.choices[0].message.content).toBe('Hello from the fake Claude');
    const got = f.claude.forKey('mx-claude').at(-1)!;
    expect(got.body.messages[0].content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } });
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, estimated: 0 });
  });

  it('@google/genai through the /gemini prefix reaches Gemini and OpenAI channels, plain and streaming', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: `${f.url}/gemini` } });
    const native = await client.models.generateContent({ model: 'mx-gemini', contents: 'hello' });
    expect(native.text).toBe('Hello from the fake Gemini');
    expect(f.gemini.forKey('mx-gemini').at(-1)!.path).toBe('/v1beta/models/mx-gemini:generateContent');
    let text = '';
    for await (const chunk of await client.models.generateContentStream({ model: 'mx-openai', contents: 'hello' })) text += chunk.text ?? '';
    expect(text).toBe('Hello from the fake upstream');
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ model_name: 'mx-openai', is_stream: 1, prompt_tokens: 10, completion_tokens: 5 });
  });

  it('the Anthropic door streams tool use converted from an OpenAI channel’s tool-call deltas', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    const res = await fetch(`${f.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'mx-openai',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'call it' }],
        tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
        tool_choice: { type: 'any' },
      }),
    });
    const text = await res.text();
    const sent = f.fake.forKey('mx-openai').at(-1)!.body;
    expect(sent.tool_choice).toBe('required');
    expect(sent.tools[0]).toMatchObject({ type: 'function', function: { name: 'lookup' } });
    expect(text).toContain('event: message_start');
    expect(text).toContain('event: message_stop');
  });
});
