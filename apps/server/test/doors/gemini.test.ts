import { ApiError } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { GEMINI_SIGNATURE } from '../fakes/gemini-answer.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Weather of a city',
      parametersJsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, properties: { city: { type: 'string' } } },
    },
  ],
};

describe.each(testDialects())('Gemini door on %s', (dialect) => {
  let f: DoorFixture;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.unitPrice('gemini-test');
    await f.unitPrice('gpt-behind-gemini');
    await f.unitPrice('claude-behind-gemini');
    await f.addChannel({ type: 25, key: 'gemini-key', base_url: f.gemini.url, models: 'gemini-test' });
    await f.addChannel({ type: 1, key: 'openai-for-gemini', models: 'gpt-behind-gemini' });
    await f.addChannel({ type: 14, key: 'claude-for-gemini', base_url: f.claude.url, models: 'claude-behind-gemini' });
  });
  afterAll(async () => f?.close());

  it('passes generateContent through to a Gemini channel, model in the URL, billed from usageMetadata', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    f.gemini.behave('gemini-key', { content: 'Bonjour from Gemini', cachedTokens: 4 });
    const answer = await f.genai(key).models.generateContent({
      model: 'gemini-test',
      contents: 'Say hello',
      config: { systemInstruction: 'Be kind', safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' as never, threshold: 'BLOCK_NONE' as never }] },
    });
    expect(answer.text).toBe('Bonjour from Gemini');
    const got = f.gemini.forKey('gemini-key').at(-1)!;
    expect(got.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(got.body.model).toBeUndefined();
    expect(got.body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    const log = await f.lastLog(userId);
    // promptTokenCount = 10 uncached + 4 cached (Gemini reports the cached share inside the prompt).
    expect(log).toMatchObject({ model_name: 'gemini-test', prompt_tokens: 14, completion_tokens: 3, estimated: 0 });
  });

  it('streams a Gemini channel with alt=sse and as a JSON array; thought signatures survive', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    f.gemini.behave('gemini-key', { content: 'one two three', thought: 'pondering' });
    let text = '';
    for await (const chunk of await f.genai(key).models.generateContentStream({ model: 'gemini-test', contents: 'count' })) text += chunk.text ?? '';
    expect(text).toBe('one two three');
    expect(f.gemini.forKey('gemini-key').at(-1)!.query.get('alt')).toBe('sse');
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 10, estimated: 0 });

    // Without alt=sse the answer is one streamed JSON array; a signed function call arrives as upstream sent it.
    f.gemini.behave('gemini-key', { thought: 'pondering', functionCall: { name: 'get_weather', args: { city: 'Rome' } } });
    const res = await fetch(`${f.url}/v1beta/models/gemini-test:streamGenerateContent?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'weather in Rome' }] }],
        generationConfig: { thinkingConfig: { includeThoughts: true } },
        tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] }],
      }),
    });
    expect(res.headers.get('content-type')).toContain('application/json');
    type Part = { text?: string; thought?: boolean; thoughtSignature?: string; functionCall?: { name: string; args: unknown } };
    const array = JSON.parse(await res.text()) as Array<{ candidates?: Array<{ content: { parts: Part[] } }> }>;
    const parts = array.flatMap((c) => c.candidates?.[0]?.content.parts ?? []);
    expect(parts.some((p) => p.thought && p.text === 'pondering')).toBe(true);
    const call = parts.find((p) => p.functionCall);
    expect(call).toMatchObject({ functionCall: { name: 'get_weather', args: { city: 'Rome' } }, thoughtSignature: GEMINI_SIGNATURE });
  });

  it('serves the Gemini door from an OpenAI channel by conversion, with tools cleaned for the trip', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const answer = await f.genai(key).models.generateContent({ model: 'gpt-behind-gemini', contents: 'hi', config: { systemInstruction: 'Short answers', maxOutputTokens: 40 } });
    expect(answer.text).toBe('Hello from the fake upstream');
    expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 10, candidatesTokenCount: 5 });
    const got = f.fake.forKey('openai-for-gemini').at(-1)!;
    expect(got.path).toBe('/v1/chat/completions');
    expect(got.body.model).toBe('gpt-behind-gemini');
    expect(got.body.messages[0]).toMatchObject({ role: 'system' });
    expect(JSON.stringify(got.body.messages[0])).toContain('Short answers');
    expect(got.body.max_tokens ?? got.body.max_completion_tokens).toBe(40);

    let text = '';
    for await (const chunk of await f.genai(key).models.generateContentStream({ model: 'gpt-behind-gemini', contents: 'stream it' })) text += chunk.text ?? '';
    expect(text).toBe('Hello from the fake upstream');
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ model_name: 'gpt-behind-gemini', is_stream: 1, prompt_tokens: 10, completion_tokens: 5 });
  });

  it('serves the Gemini door from an Anthropic channel: systemInstruction becomes system, function calls come back', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    f.claude.behave('claude-for-gemini', { toolUse: { name: 'get_weather', input: { city: 'Lyon' } } });
    const answer = await f.genai(key).models.generateContent({
      model: 'claude-behind-gemini',
      contents: 'Weather in Lyon?',
      config: { systemInstruction: 'Use the tool', tools: [weatherTool] },
    });
    expect(answer.functionCalls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Lyon' } });
    const got = f.claude.forKey('claude-for-gemini').at(-1)!;
    expect(JSON.stringify(got.body.system)).toContain('Use the tool');
    expect(got.body.tools[0].name).toBe('get_weather');
    expect(got.body.max_tokens).toBeGreaterThan(0);
  });

  it('OpenAI chat on a Gemini channel: tool schemas lose $schema and additionalProperties that Gemini rejects', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    f.gemini.behave('gemini-key', { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } });
    const answer = await f.openai(key).chat.completions.create({
      model: 'gemini-test',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.functionDeclarations[0].parametersJsonSchema } }],
    });
    const call = answer.choices[0].message.tool_calls![0] as { function: { name: string; arguments: string } };
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });
    const got = f.gemini.forKey('gemini-key').at(-1)!;
    const declared = JSON.stringify(got.body.tools);
    expect(declared).toContain('get_weather');
    expect(declared).not.toContain('$schema');
    expect(declared).not.toContain('additionalProperties');
    // Converted requests switch Google's default filters off, as the original does.
    expect(got.body.safetySettings.length).toBeGreaterThanOrEqual(5);
    expect(got.body.safetySettings.every((s: { threshold: string }) => s.threshold === 'BLOCK_NONE')).toBe(true);
  });

  it('GeminiAPIEnabled off closes the Gemini doors with a Google-shaped 403; the OpenAI door stays open', async () => {
    const { key } = await f.newUser({ quota: 100_000 });
    await f.setOption('GeminiAPIEnabled', false);
    try {
      const error = await f.genai(key).models.generateContent({ model: 'gemini-test', contents: 'x' }).catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(403);
      expect(JSON.parse(error.message).error.message).toContain('Gemini API is not supported');
      const chat = await f.openai(key).chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }] });
      expect(chat.choices[0].message.content).toBeTruthy();
    } finally {
      await f.setOption('GeminiAPIEnabled', true);
    }
  });

  it('countTokens is local and free; errors and model lists speak Google', async () => {
    const { key, userId } = await f.newUser({ quota: 100_000 });
    const counted = await f.genai(key).models.countTokens({ model: 'gemini-test', contents: 'How many tokens are in this sentence?' });
    expect(counted.totalTokens).toBeGreaterThan(5);
    await f.flush();
    const logs = await f.server.ctx.db.selectFrom('logs').select('id').where('user_id', '=', userId).where('type', '=', 2).execute();
    expect(logs).toHaveLength(0);

    const models = await f.genai(key).models.list();
    const names: string[] = [];
    for await (const m of models) names.push(m.name ?? '');
    expect(names).toContain('models/gemini-test');

    const error = await f.genai('sk-not-a-real-key-000000000000000000000000000000').models.generateContent({ model: 'gemini-test', contents: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(JSON.parse(error.message)).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });
});
