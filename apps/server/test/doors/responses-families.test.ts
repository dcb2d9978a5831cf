import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { FakeBedrock } from '../fakes/bedrock-upstream.js';
import { FakeVertex } from '../fakes/vertex-upstream.js';
import { FakeNativeProviders } from '../fakes/native-providers.js';
import { doorFixture, type DoorFixture } from './fixture.js';

const tools = [{ type: 'function' as const, name: 'lookup', strict: false, parameters: { type: 'object', properties: { q: { type: 'string' } } } }];

/** `/v1/responses` on channel families beyond Anthropic and Gemini: an OpenAI-dialect provider without Responses, Bedrock and Vertex. */
describe.each(testDialects())('Responses door on more channel families on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  const bedrock = new FakeBedrock('us-east-1');
  const vertex = new FakeVertex();
  const azure = new FakeNativeProviders();
  const email = `responses-${dialect}@proj-r.iam.gserviceaccount.com`;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    await Promise.all([bedrock.start(), vertex.start(), azure.start()]);
    for (const m of ['deepseek-chat', 'claude-3-5-sonnet-20241022', 'claude-sonnet-4-20250514', 'gemini-2.5-pro']) {
      await f.server.ctx.db.deleteFrom('prices').where('model', '=', m).execute();
      await f.unitPrice(m);
    }
    await f.addChannel({ type: 28, key: 'deepseek-key', base_url: f.fake.url, models: 'deepseek-chat' });
    await f.addChannel({ type: 32, key: bedrock.addCredentials('AKIDRESPONSES', 'secret/r'), base_url: bedrock.url, models: 'claude-3-5-sonnet-20241022' });
    await f.addChannel({ type: 42, key: vertex.serviceAccount(email, 'proj-r'), other: 'us-east5|proj-r', base_url: vertex.url, models: 'claude-sonnet-4-20250514,gemini-2.5-pro' });
    ({ key } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([bedrock.close(), vertex.close(), azure.close()]);
  });

  async function streamed(model: string, extra: Record<string, unknown> = {}) {
    const events: any[] = [];
    for await (const e of await f.openai(key).responses.create({ model, input: 'Look up x', stream: true, ...extra } as never) as unknown as AsyncIterable<any>) events.push(e);
    events.forEach((e, i) => expect(e.sequence_number).toBe(i));
    return events;
  }

  it('passes through to an Azure channel: /openai/responses with the api-version, the deployment as model', async () => {
    await f.addChannel({ type: 3, key: 'az-resp-key', base_url: azure.url, other: '2025-04-01-preview', models: 'azure-resp', model_mapping: JSON.stringify({ 'azure-resp': '+gpt4o-deploy' }) });
    await f.unitPrice('azure-resp');
    const answer = await f.openai(key).responses.create({ model: 'azure-resp', input: 'hi', store: false });
    expect(answer.output_text).toBe('Hello from the provider');
    const got = azure.forKey('az-resp-key').at(-1)!;
    expect(got.path).toBe('/openai/responses');
    expect(got.query.get('api-version')).toBe('2025-04-01-preview');
    expect(got.headers['api-key']).toBe('az-resp-key');
    expect(got.body).toMatchObject({ model: 'gpt4o-deploy', input: 'hi', store: false });
    const events = await streamed('azure-resp');
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { usage: { output_tokens: 4 } } });
  });

  it('converts to chat completions for an OpenAI-dialect provider that has no Responses API (DeepSeek)', async () => {
    const answer = await f.openai(key).responses.create({ model: 'deepseek-chat', instructions: 'Be brief.', input: 'hi', max_output_tokens: 50 });
    expect(answer.output_text).toBe('Hello from the fake upstream');
    const got = f.fake.forKey('deepseek-key').at(-1)!;
    expect(got.path).toBe('/v1/chat/completions');
    expect(got.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(got.body.max_tokens ?? got.body.max_completion_tokens).toBe(50);
    const events = await streamed('deepseek-chat');
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { usage: { output_tokens: 5 } } });
  });

  it('serves /v1/responses through chat completions on an OpenAI channel marked compatible_response', async () => {
    await f.addChannel({ type: 1, key: 'compat-key', models: 'compat-model', compatible_response: true });
    await f.unitPrice('compat-model');
    const first = await f.openai(key).responses.create({ model: 'compat-model', instructions: 'Be brief.', input: 'hi' });
    expect(first.output_text).toBe('Hello from the fake upstream');
    expect(f.fake.forKey('compat-key').at(-1)!.path).toBe('/v1/chat/completions');
    // Converted, so the gateway keeps it for previous_response_id.
    await f.openai(key).responses.create({ model: 'compat-model', input: 'more', previous_response_id: first.id });
    const messages = f.fake.forKey('compat-key').at(-1)!.body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
    const events = await streamed('compat-model');
    expect(events.at(-1).type).toBe('response.completed');
    expect(f.fake.forKey('compat-key').at(-1)!.body.stream).toBe(true);
  });

  it('converts for Claude on Bedrock: function call from the binary event stream', async () => {
    bedrock.behave('AKIDRESPONSES', { toolUse: { name: 'lookup', input: { q: 'x' } } });
    const events = await streamed('claude-3-5-sonnet-20241022', { tools });
    const done = events.at(-1);
    expect(done.type).toBe('response.completed');
    const call = done.response.output.find((o: { type: string }) => o.type === 'function_call');
    expect(call).toMatchObject({ name: 'lookup', status: 'completed' });
    expect(JSON.parse(call.arguments)).toEqual({ q: 'x' });
    const got = bedrock.forKey('AKIDRESPONSES').at(-1)!;
    expect(got.path).toMatch(/invoke-with-response-stream$/);
    expect(got.body.tools[0]).toMatchObject({ name: 'lookup' });
    bedrock.behave('AKIDRESPONSES', {});
  });

  it('converts for Claude and Gemini models on Vertex', async () => {
    vertex.behave(email, { content: 'Vertex says hi' });
    const claude = await f.openai(key).responses.create({ model: 'claude-sonnet-4-20250514', input: 'hi' });
    expect(claude.output_text).toBe('Vertex says hi');
    expect(vertex.forKey(email).at(-1)!.path).toMatch(/anthropic\/models\/claude-sonnet-4@20250514:rawPredict$/);
    const events = await streamed('gemini-2.5-pro');
    expect(events.at(-1).type).toBe('response.completed');
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('Vertex says hi');
    expect(vertex.forKey(email).at(-1)!.path).toMatch(/google\/models\/gemini-2.5-pro:streamGenerateContent$/);
  });
});
