import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doorFixture, type DoorFixture } from './fixture.js';

const FOREIGN: Record<string, RegExp> = {
  openai: /^event: (?!error)/m,
  claude: /^event: (response\.|[a-z]+\.)/m,
  gemini: /^event:/m,
  responses: /^event: (message_|content_block|ping)/m,
};

/** Converted streams carry only the door's own framing (issue 20.12); sqlite only: nothing here touches storage. */
describe('stream framing across doors and channel families', () => {
  let f: DoorFixture;
  let key: string;
  beforeAll(async () => {
    f = await doorFixture('sqlite');
    await f.addChannel({ type: 1, key: 'sf-openai', models: 'sf-openai' });
    await f.addChannel({ type: 14, key: 'sf-claude', base_url: f.claude.url, models: 'sf-claude' });
    await f.addChannel({ type: 25, key: 'sf-gemini', base_url: f.gemini.url, models: 'sf-gemini' });
    ({ key } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  const families = ['sf-openai', 'sf-claude', 'sf-gemini'];

  it.each(families)('the OpenAI SDK gets text chunks from %s', async (model) => {
    const stream = await f.openai(key).chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const parts: string[] = [];
    for await (const c of stream) if (c.choices[0]?.delta?.content) parts.push(c.choices[0].delta.content);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toMatch(/\w+ \w+/);
  });

  it.each(families)('the Anthropic SDK gets text deltas from %s', async (model) => {
    const stream = f.anthropic(key).messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const parts: string[] = [];
    stream.on('text', (t) => parts.push(t));
    await stream.finalMessage();
    expect(parts.length).toBeGreaterThan(1);
  });

  it.each(families)('the Google SDK gets text chunks from %s', async (model) => {
    const stream = await f.genai(key).models.generateContentStream({ model, contents: 'hi' });
    const parts: string[] = [];
    for await (const c of stream) if (c.text) parts.push(c.text);
    expect(parts.length).toBeGreaterThan(1);
  });

  it.each(families)('the Responses API gets output_text deltas from %s', async (model) => {
    const stream = await f.openai(key).responses.create({ model, stream: true, input: 'hi' });
    const parts: string[] = [];
    for await (const e of stream) if (e.type === 'response.output_text.delta') parts.push(e.delta);
    expect(parts.length).toBeGreaterThan(1);
  });

  const raw = async (door: string, model: string) => {
    const [path, headers, body] =
      door === 'openai'
        ? ['/v1/chat/completions', { authorization: `Bearer ${key}` }, { model, stream: true, messages: [{ role: 'user', content: 'hi' }] }]
        : door === 'claude'
          ? ['/v1/messages', { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, { model, stream: true, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }]
          : door === 'responses'
            ? ['/v1/responses', { authorization: `Bearer ${key}` }, { model, stream: true, input: 'hi' }]
            : [`/v1beta/models/${model}:streamGenerateContent?alt=sse`, { 'x-goog-api-key': key }, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }];
    const res = await fetch(`${f.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return res.text();
  };

  it.each(['openai', 'claude', 'gemini', 'responses'].flatMap((door) => families.map((model) => [door, model])))('the %s door carries no foreign event lines from %s', async (door, model) => {
    const text = await raw(door, model);
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toMatch(FOREIGN[door]);
  });
});
