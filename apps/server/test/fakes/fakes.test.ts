import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI, Type } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnthropic, thinkingSignature } from './anthropic-upstream.js';
import { FakeGemini, GEMINI_SIGNATURE } from './gemini-upstream.js';

// The official SDKs drive the fakes directly: if they parse the answers, streams and errors, the fakes speak the real wire formats.

const weatherTool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('FakeAnthropic through @anthropic-ai/sdk', () => {
  const fake = new FakeAnthropic();
  let url = '';
  const client = (apiKey: string) => new Anthropic({ apiKey, baseURL: url, maxRetries: 0 });

  beforeAll(async () => {
    url = await fake.start();
  });
  afterAll(() => fake.close());

  it('answers a plain message with fixed usage and records what it received', async () => {
    fake.behave('a-plain', { content: 'Four short words here' });
    const msg = await client('a-plain').messages.create({ model: 'claude-test', max_tokens: 100, system: 'Be brief', messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.content).toEqual([expect.objectContaining({ type: 'text', text: 'Four short words here' })]);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.usage).toMatchObject({ input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 0 });
    const [got] = fake.forKey('a-plain');
    expect(got.path).toBe('/v1/messages');
    expect(got.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(got.body.system).toBe('Be brief');
  });

  it('stops at max_tokens like the model does', async () => {
    fake.behave('a-max', { content: 'one two three four five' });
    const msg = await client('a-max').messages.create({ model: 'claude-test', max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.stop_reason).toBe('max_tokens');
    expect(msg.content[0]).toMatchObject({ text: 'one two' });
  });

  it('answers thinking and a tool call; the signature must come back untouched', async () => {
    fake.behave('a-tool', { thinking: 'Weather needs the tool.', content: 'Checking.', toolUse: { input: { city: 'Paris' } }, cache: { read: 300, creation: 50 } });
    const api = client('a-tool');
    const msg = await api.messages.create({ model: 'claude-test', max_tokens: 2000, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(msg.content[0]).toMatchObject({ thinking: 'Weather needs the tool.', signature: thinkingSignature('Weather needs the tool.') });
    expect(msg.content[2]).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.usage).toMatchObject({ input_tokens: 10, cache_read_input_tokens: 300, cache_creation_input_tokens: 50, output_tokens: 4 + 1 + 10 });

    const toolUse = msg.content[2] as Anthropic.ToolUseBlock;
    const history = (assistant: Anthropic.ContentBlockParam[]): Anthropic.MessageParam[] => [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: assistant },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '21°C' }] },
    ];
    const ok = await api.messages.create({ model: 'claude-test', max_tokens: 2000, tools: [weatherTool], messages: history(msg.content as Anthropic.ContentBlockParam[]) });
    expect(ok.type).toBe('message');
    const tampered = [{ ...(msg.content[0] as Anthropic.ThinkingBlock), signature: 'forged' }, toolUse];
    const err = await api.messages.create({ model: 'claude-test', max_tokens: 2000, tools: [weatherTool], messages: history(tampered) }).catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } });
  });

  it('streams the full event sequence, which the SDK accumulates into the same message', async () => {
    fake.behave('a-stream', { thinking: 'Think first.', content: 'Streamed answer here', toolUse: { input: { city: 'Paris', days: [1, 2, 3] } }, cache: { read: 7 } });
    const stream = client('a-stream').messages.stream({ model: 'claude-test', max_tokens: 2000, tools: [weatherTool], messages: [{ role: 'user', content: 'go' }] });
    const seen: string[] = [];
    stream.on('streamEvent', (e) => seen.push(e.type === 'content_block_delta' ? e.delta.type : e.type));
    const msg = await stream.finalMessage();
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(msg.content[0]).toMatchObject({ thinking: 'Think first.', signature: thinkingSignature('Think first.') });
    expect(msg.content[1]).toMatchObject({ text: 'Streamed answer here' });
    expect(msg.content[2]).toMatchObject({ input: { city: 'Paris', days: [1, 2, 3] } });
    expect(msg.usage).toMatchObject({ input_tokens: 10, cache_read_input_tokens: 7, output_tokens: 3 + 2 + 10 });
    expect(seen[0]).toBe('message_start');
    expect(seen.slice(-2)).toEqual(['message_delta', 'message_stop']);
    for (const t of ['thinking_delta', 'signature_delta', 'text_delta', 'input_json_delta', 'content_block_start', 'content_block_stop']) expect(seen).toContain(t);
    expect(fake.forKey('a-stream')[0].body.stream).toBe(true);
    // The SDK hides pings; the raw stream shows them, and every frame names its event.
    const raw = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'a-stream', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'm', max_tokens: 2000, stream: true, messages: [{ role: 'user', content: 'go' }] }),
    });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    const frames = (await raw.text()).trim().split('\n\n').map((f) => f.split('\n'));
    expect(frames.every(([event, data]) => event.startsWith('event: ') && data.startsWith('data: ') && JSON.parse(data.slice(6)).type === event.slice(7))).toBe(true);
    expect(frames.map(([event]) => event.slice(7))).toContain('ping');
  });

  it('sends an error event mid-stream, which the SDK raises', async () => {
    fake.behave('a-midfail', { content: 'one two three four', errorAfterChunks: 2 });
    const stream = client('a-midfail').messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const err = await stream.finalMessage().catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(String(err.message)).toContain('overloaded_error');
    expect(texts).toEqual(['one', ' two']);
  });

  it('rejects requests the real API rejects, in its error shape', async () => {
    fake.acceptKeys = new Set(['a-good']);
    try {
      const api = client('a-good');
      const bad = (body: unknown) => api.messages.create(body as Anthropic.MessageCreateParamsNonStreaming).catch((e) => e);
      const auth = await client('a-wrong').messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
      expect(auth).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(auth.error.error.type).toBe('authentication_error');
      const noMax = await bad({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      expect(noMax).toBeInstanceOf(Anthropic.BadRequestError);
      expect(noMax.error.error).toEqual({ type: 'invalid_request_error', message: 'max_tokens: Field required' });
      const system = await bad({ model: 'm', max_tokens: 5, messages: [{ role: 'system', content: 'x' }, { role: 'user', content: 'y' }] });
      expect(system.error.error.message).toContain('Unexpected role "system"');
      const twice = await bad({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, { role: 'user', content: 'y' }] });
      expect(twice.error.error.message).toContain('roles must alternate');
      const budget = await bad({ model: 'm', max_tokens: 1000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'x' }] });
      expect(budget.status).toBe(400);
      const noVersion = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'a-good', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }) });
      expect(noVersion.status).toBe(400);
      expect(await noVersion.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
    } finally {
      fake.acceptKeys = undefined;
    }
  });

  it('answers 429 with retry-after and 529 overloaded as the SDK expects', async () => {
    fake.behave('a-429', { status: 429, retryAfter: 3 });
    const limited = await client('a-429').messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(limited.headers.get('retry-after')).toBe('3');
    fake.behave('a-529', { status: 529 });
    const overloaded = await client('a-529').messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(overloaded).toBeInstanceOf(Anthropic.InternalServerError);
    expect(overloaded.status).toBe(529);
    expect(overloaded.error.error.type).toBe('overloaded_error');
  });

  it('counts tokens and lists models with cursor paging', async () => {
    const api = client('a-misc');
    const count = await api.messages.countTokens({ model: 'claude-test', system: 'sys', messages: [{ role: 'user', content: 'hello there' }] });
    expect(count.input_tokens).toBeGreaterThan(0);
    const first = await api.models.list({ limit: 2 });
    expect(first.data.map((m) => m.id)).toEqual(['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805']);
    expect(first.has_more).toBe(true);
    const ids: string[] = [];
    for await (const m of api.models.list({ limit: 2 })) ids.push(m.id);
    expect(ids).toHaveLength(3);
    expect(fake.forKey('a-misc').map((r) => r.path)).toContain('/v1/messages/count_tokens');
  });
});

describe('FakeGemini through @google/genai', () => {
  const fake = new FakeGemini();
  let url = '';
  const client = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: url } });
  const weather = { name: 'get_weather', description: 'Weather of a city', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } } };

  beforeAll(async () => {
    url = await fake.start();
  });
  afterAll(() => fake.close());

  it('answers generateContent with fixed usage; the key arrives in x-goog-api-key', async () => {
    fake.behave('g-plain', { content: 'Three words here' });
    const res = await client('g-plain').models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { systemInstruction: 'Be brief' } });
    expect(res.text).toBe('Three words here');
    expect(res.candidates?.[0].finishReason).toBe('STOP');
    expect(res.usageMetadata).toMatchObject({ promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 });
    const [got] = fake.forKey('g-plain');
    expect(got.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(got.headers['x-goog-api-key']).toBe('g-plain');
    expect(got.body.systemInstruction).toBeDefined();
  });

  it('answers thought parts and a signed function call with cache and thought usage', async () => {
    fake.behave('g-call', { thought: 'Need the weather tool', content: 'Calling it.', functionCall: { args: { city: 'Paris' } }, cachedTokens: 600 });
    const res = await client('g-call').models.generateContent({ model: 'gemini-2.5-pro', contents: 'Weather in Paris?', config: { thinkingConfig: { includeThoughts: true }, tools: [{ functionDeclarations: [weather] }] } });
    const parts = res.candidates![0].content!.parts!;
    expect(parts[0]).toEqual({ text: 'Need the weather tool', thought: true });
    expect(res.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(parts[2].thoughtSignature).toBe(GEMINI_SIGNATURE);
    expect(res.usageMetadata).toMatchObject({ promptTokenCount: 610, cachedContentTokenCount: 600, thoughtsTokenCount: 4, candidatesTokenCount: 2 + 10 });
  });

  it('streams SSE chunks with alt=sse that the SDK reads', async () => {
    fake.behave('g-stream', { thought: 'hmm', content: 'a streamed reply' });
    const stream = await client('g-stream').models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' });
    let text = '';
    let last: any;
    for await (const chunk of stream) {
      text += chunk.text ?? '';
      last = chunk;
    }
    expect(text).toBe('a streamed reply');
    expect(last.candidates[0].finishReason).toBe('STOP');
    expect(last.usageMetadata).toMatchObject({ candidatesTokenCount: 3, thoughtsTokenCount: 1 });
    const [got] = fake.forKey('g-stream');
    expect(got.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(got.query.get('alt')).toBe('sse');
  });

  it('streams one JSON array without alt=sse, keyed by ?key=', async () => {
    fake.behave('g-array', { content: 'x y' });
    const res = await fetch(`${url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?key=g-array`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(res.headers.get('content-type')).toContain('application/json');
    const text = await res.text();
    expect(text.startsWith('[{')).toBe(true);
    expect(text).toContain('\n,\r\n');
    const chunks = JSON.parse(text);
    expect(chunks.map((c: any) => c.candidates[0].content.parts[0].text).join('')).toBe('x y');
    expect(fake.forKey('g-array')).toHaveLength(1);
  });

  it('rejects what the real API rejects, in Google error shape', async () => {
    const api = client('g-bad');
    const status = async (p: Promise<unknown>) => {
      const e: any = await p.catch((err) => err);
      expect(e).toBeInstanceOf(ApiError);
      return { status: e.status, error: JSON.parse(e.message).error };
    };
    // The SDK drops additionalProperties itself, so this one goes on the wire by hand, as a converting gateway would send it.
    const schema = await fetch(`${url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'g-bad' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', properties: { o: { type: 'object', additionalProperties: false } } } }] }],
      }),
    });
    expect(schema.status).toBe(400);
    const schemaError = (await schema.json()).error;
    expect(schemaError).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(schemaError.message).toBe(`Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters.properties["o"].value': Cannot find field.`);
    const role = await status(api.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'system', parts: [{ text: 'x' }] }] }));
    expect(role.error.message).toBe('Please use a valid role: user, model.');
    const empty = await fetch(`${url}/v1beta/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': 'g-bad' }, body: '{"contents":[]}' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.message).toContain('contents is not specified');
    const unsigned = await status(api.models.generateContent({
      model: 'gemini-3-pro-preview',
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { t: 21 } } }] },
      ],
    }));
    expect(unsigned.error.message).toContain('thought_signature');
    fake.acceptKeys = new Set(['g-good']);
    try {
      const key = await status(api.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }));
      expect(key.error.message).toContain('API key not valid');
    } finally {
      fake.acceptKeys = undefined;
    }
    fake.behave('g-429', { status: 429 });
    const limited = await status(client('g-429').models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }));
    expect(limited).toMatchObject({ status: 429, error: { status: 'RESOURCE_EXHAUSTED' } });
  });

  it('breaks a stream off after some chunks', async () => {
    fake.behave('g-cut', { content: 'a b c d e', cutAfterChunks: 2 });
    const stream = await client('g-cut').models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' });
    let text = '';
    const err = await (async () => {
      for await (const chunk of stream) text += chunk.text ?? '';
    })().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(text).toBe('a b');
  });

  it('counts tokens and pages through the models list', async () => {
    const api = client('g-misc');
    const count = await api.models.countTokens({ model: 'gemini-2.5-flash', contents: 'hello there' });
    expect(count.totalTokens).toBeGreaterThan(0);
    const names: string[] = [];
    for await (const m of await api.models.list({ config: { pageSize: 3 } })) names.push(m.name!);
    expect(names).toEqual(['models/gemini-2.5-pro', 'models/gemini-2.5-flash', 'models/gemini-3-pro-preview', 'models/text-embedding-004']);
    expect(fake.forKey('g-misc').filter((r) => r.path === '/v1beta/models')).toHaveLength(2);
  });
});
