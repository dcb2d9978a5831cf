import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { GEMINI_SIGNATURE } from '../fakes/gemini-upstream.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather of a city',
  strict: false,
  parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

/** Checks the invariants of a Responses event stream and returns the event types in order. */
function checkSequence(events: Array<{ type: string; sequence_number: number; item_id?: string; output_index?: number; item?: { id: string } }>): string[] {
  events.forEach((e, i) => expect(e.sequence_number).toBe(i));
  const ids = new Map<number, string>();
  for (const e of events) {
    const id = e.item?.id ?? e.item_id;
    if (e.output_index === undefined || !id) continue;
    if (!ids.has(e.output_index)) ids.set(e.output_index, id);
    expect(id).toBe(ids.get(e.output_index));
  }
  return events.map((e) => e.type);
}

describe.each(testDialects())('OpenAI Responses door on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  let userId: number;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['resp-claude', 'resp-gemini', 'resp-openai']) await f.unitPrice(m);
    await f.addChannel({ type: 14, key: 'resp-claude-key', base_url: f.claude.url, models: 'resp-claude', model_mapping: JSON.stringify({ 'resp-claude': '+claude-sonnet-4-5-20250929' }) });
    await f.addChannel({ type: 25, key: 'resp-gemini-key', base_url: f.gemini.url, models: 'resp-gemini', model_mapping: JSON.stringify({ 'resp-gemini': '+gemini-2.5-pro' }) });
    await f.addChannel({ type: 1, key: 'resp-openai-key', models: 'resp-openai' });
    ({ key, userId } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  it('passes through to an OpenAI channel: create, stream:true and responses.stream', async () => {
    const client = f.openai(key);
    const plain = await client.responses.create({ model: 'resp-openai', input: 'Say hello', store: false });
    expect(plain.output_text).toBe('Hello from the fake upstream');
    const got = f.fake.forKey('resp-openai-key').at(-1)!;
    expect(got.path).toBe('/v1/responses');
    expect(got.body).toMatchObject({ model: 'resp-openai', input: 'Say hello', store: false });

    const events: any[] = [];
    for await (const e of await client.responses.create({ model: 'resp-openai', input: 'Say hello', stream: true })) events.push(e);
    expect(events.at(-1).type).toBe('response.completed');
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('Hello from the fake upstream');

    const final = await client.responses.stream({ model: 'resp-openai', input: 'Say hello' }).finalResponse();
    expect(final.output_text).toBe('Hello from the fake upstream');
    expect(await f.lastLog(userId)).toMatchObject({ model_name: 'resp-openai', is_stream: 1, prompt_tokens: 9, completion_tokens: 5, estimated: 0 });

    // A stream whose response.completed carries no usage is billed on counted tokens, never refunded whole.
    f.fake.behave('resp-openai-key', { noUsage: true });
    for await (const e of await client.responses.create({ model: 'resp-openai', input: 'Say hello', stream: true })) void e;
    f.fake.behave('resp-openai-key', {});
    const log = await f.lastLog(userId);
    expect(log).toMatchObject({ is_stream: 1, estimated: 1, completion_tokens: 5 });
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.quota).toBeGreaterThan(0);
  });

  it('converts for an Anthropic channel: instructions, items, tools, reasoning effort, max_output_tokens', async () => {
    f.claude.behave('resp-claude-key', { content: 'It is sunny', toolUse: { name: 'get_weather', input: { city: 'Paris' } } });
    const answer = await f.openai(key).responses.create({
      model: 'resp-claude',
      instructions: 'You are terse.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' }] },
      ],
      tools: [weatherTool],
      tool_choice: 'auto',
      reasoning: { effort: 'high' },
      max_output_tokens: 3000,
    });
    expect(answer.status).toBe('completed');
    const call = answer.output.find((o) => o.type === 'function_call')!;
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
    expect(JSON.parse((call as { arguments: string }).arguments)).toEqual({ city: 'Paris' });
    expect(answer.output.some((o) => o.type === 'reasoning')).toBe(true);
    expect(answer.usage).toMatchObject({ input_tokens: 10 });
    const got = f.claude.forKey('resp-claude-key').at(-1)!;
    expect(got.path).toBe('/v1/messages');
    expect(JSON.stringify(got.body.system)).toContain('You are terse.');
    expect(got.body.model).toBe('claude-sonnet-4-5-20250929');
    expect(got.body.max_tokens).toBe(3000);
    expect(got.body.thinking).toMatchObject({ type: 'enabled' });
    expect(got.body.tools[0]).toMatchObject({ name: 'get_weather', input_schema: { type: 'object' } });
    expect(got.body.messages[0].content[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });

    // The function-call round trip comes back as tool_use / tool_result.
    f.claude.behave('resp-claude-key', { content: 'Sunny in Paris' });
    const second = await f.openai(key).responses.create({
      model: 'resp-claude',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '22 degrees' },
      ],
      tools: [weatherTool],
    });
    expect(second.output_text).toBe('Sunny in Paris');
    const sent = f.claude.forKey('resp-claude-key').at(-1)!.body;
    expect(sent.messages[1].content[0]).toMatchObject({ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } });
    expect(sent.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'call_1' });
    expect(await f.lastLog(userId)).toMatchObject({ model_name: 'resp-claude', prompt_tokens: 10, completion_tokens: 3, estimated: 0 });
  });

  it('streams from an Anthropic channel: full event sequence, stable ids, usage on response.completed', async () => {
    f.claude.behave('resp-claude-key', { content: 'Three streamed words', thinking: 'Consider it' });
    const events: any[] = [];
    const stream = await f.openai(key).responses.create({ model: 'resp-claude', input: 'go', stream: true, reasoning: { effort: 'low' } });
    for await (const e of stream) events.push(e);
    const types = checkSequence(events);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    for (const t of ['response.output_item.added', 'response.reasoning_summary_text.delta', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done']) {
      expect(types).toContain(t);
    }
    expect(types.at(-1)).toBe('response.completed');
    const done = events.at(-1).response;
    expect(done.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('Three streamed words');

    // responses.stream assembles the same events into a final response.
    f.claude.behave('resp-claude-key', { content: 'Helper stream' });
    const final = await f.openai(key).responses.stream({ model: 'resp-claude', input: 'go' }).finalResponse();
    expect(final.output_text).toBe('Helper stream');
    expect(await f.lastLog(userId)).toMatchObject({ model_name: 'resp-claude', is_stream: 1, completion_tokens: 2, estimated: 0 });
  });

  it('streams text then a tool call without repeating the text, and reports Anthropic cache reads', async () => {
    f.claude.behave('resp-claude-key', { content: 'Checking the weather', toolUse: { name: 'get_weather', input: { city: 'Oslo' } }, cache: { read: 30 } });
    const events: any[] = [];
    for await (const e of await f.openai(key).responses.create({ model: 'resp-claude', input: 'Weather in Oslo?', tools: [weatherTool], stream: true })) events.push(e);
    checkSequence(events);
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('Checking the weather');
    expect(events.filter((e) => e.type === 'response.output_text.done').map((e) => e.text)).toEqual(['Checking the weather']);
    const done = events.at(-1);
    expect(done.type).toBe('response.completed');
    expect(done.response.output.map((o: { type: string }) => o.type)).toEqual(['message', 'function_call']);
    expect(JSON.parse(done.response.output[1].arguments)).toEqual({ city: 'Oslo' });
    expect(done.response.usage).toMatchObject({ input_tokens: 40, input_tokens_details: { cached_tokens: 30 } });
    expect(await f.lastLog(userId)).toMatchObject({ prompt_tokens: 40, cache_read_tokens: 30, estimated: 0 });
  });

  it('converts for a Gemini channel: schema cleaned, JSON schema output, function call streamed with arguments', async () => {
    f.gemini.behave('resp-gemini-key', { content: '{"files":[]}' });
    const answer = await f.openai(key).responses.create({
      model: 'resp-gemini',
      instructions: 'Answer in JSON.',
      input: 'List files',
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { files: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }, strict: true } },
      max_output_tokens: 100,
      store: false,
    });
    expect(answer.output_text).toBe('{"files":[]}');
    const got = f.gemini.forKey('resp-gemini-key').at(-1)!;
    expect(got.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(got.body.systemInstruction.parts[0].text).toBe('Answer in JSON.');
    expect(got.body.generationConfig).toMatchObject({ maxOutputTokens: 100, responseMimeType: 'application/json' });
    expect(JSON.stringify(got.body.generationConfig.responseSchema ?? got.body.generationConfig.responseJsonSchema)).toContain('files');

    f.gemini.behave('resp-gemini-key', { functionCall: { name: 'get_weather', args: { city: 'Rome' } } });
    const events: any[] = [];
    for await (const e of await f.openai(key).responses.create({ model: 'resp-gemini', input: 'Weather in Rome?', tools: [weatherTool], tool_choice: 'required', stream: true })) events.push(e);
    const types = checkSequence(events);
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types).toContain('response.function_call_arguments.done');
    expect(types.at(-1)).toBe('response.completed');
    const call = events.at(-1).response.output.find((o: { type: string }) => o.type === 'function_call');
    expect(call).toMatchObject({ name: 'get_weather', status: 'completed' });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Rome' });
    const sent = f.gemini.forKey('resp-gemini-key').at(-1)!;
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent');
    const decl = sent.body.tools[0].functionDeclarations[0];
    expect(decl.name).toBe('get_weather');
    expect(JSON.stringify(decl)).not.toContain('$schema');
    expect(JSON.stringify(decl)).not.toContain('additionalProperties');
    expect(sent.body.toolConfig.functionCallingConfig.mode).toBe('ANY');
    expect(GEMINI_SIGNATURE).toBeTruthy();
  });

  it('reports max_output_tokens truncation as response.incomplete', async () => {
    f.gemini.behave('resp-gemini-key', { content: 'one two three four five six' });
    const plain = await f.openai(key).responses.create({ model: 'resp-gemini', input: 'count', max_output_tokens: 2 });
    expect(plain.status).toBe('incomplete');
    expect(plain.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    const events: any[] = [];
    for await (const e of await f.openai(key).responses.create({ model: 'resp-gemini', input: 'count', max_output_tokens: 2, stream: true })) events.push(e);
    expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
  });

  it('ends a stream broken by upstream with response.failed, and answers errors in the Responses shape', async () => {
    f.claude.behave('resp-claude-key', { content: 'a b c d e f', errorAfterChunks: 2 });
    const events: any[] = [];
    for await (const e of await f.openai(key).responses.create({ model: 'resp-claude', input: 'go', stream: true })) events.push(e);
    checkSequence(events);
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('a b');
    expect(events.map((e) => e.type)).not.toContain('response.completed');
    expect(events.at(-1)).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { message: expect.stringMatching(/overloaded|broke off/i) } } });
    expect(await f.lastLog(userId)).toMatchObject({ model_name: 'resp-claude', is_stream: 1, content: expect.stringContaining('broke off') });

    // Upstream refusing before the first byte: no stream is opened, the status and error come back in OpenAI's shape.
    f.claude.behave('resp-claude-key', { status: 529 });
    const overloaded = await f.openai(key).responses.create({ model: 'resp-claude', input: 'go', stream: true }).catch((e) => e);
    expect(overloaded.status).toBeGreaterThanOrEqual(500);
    expect(overloaded.error.message).toMatch(/unavailable/i);

    f.claude.behave('resp-claude-key', {});
    const bad = await fetch(`${f.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'resp-claude', input: 42 }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ message: expect.any(String) });
    const unknown = await fetch(`${f.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'no-such-model', input: 'x' }) });
    // No channel of any group carries the model: a 404 the client does not retry.
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toContain('no-such-model');
    const poor = await f.newUser({ quota: 1 });
    const broke = await f.openai(poor.key).responses.create({ model: 'resp-claude', input: 'x', max_output_tokens: 1000 }).catch((e) => e);
    expect(broke.status).toBe(402);
    expect(broke.error.type).toBe('insufficient_quota');
    const badKey = await fetch(`${f.url}/v1/responses`, { method: 'POST', headers: { authorization: 'Bearer sk-wrong', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'resp-claude', input: 'x' }) });
    expect(badKey.status).toBe(401);
    expect((await badKey.json()).error.message).toBeTruthy();
  });
});
