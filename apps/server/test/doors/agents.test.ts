import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { thinkingSignature } from '../fakes/anthropic-upstream.js';
import { doorFixture, type DoorFixture } from './fixture.js';

/** The recorded Claude Code request, grown to twenty tools, with a signature the fake Anthropic accepts. */
function claudeCodeRequest(model: string): Record<string, any> {
  const body = JSON.parse(readFileSync(new URL('../../src/relay/formats/anthropic/__fixtures__/request-claude-code.json', import.meta.url), 'utf8'));
  const thinking = body.messages[1].content[0];
  thinking.signature = thinkingSignature(thinking.thinking);
  for (let i = body.tools.length; i < 20; i++) {
    body.tools.push({ name: `Tool${i}`, description: `Extra tool ${i}`, input_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, properties: { arg: { type: 'string' } } } });
  }
  return { ...body, model };
}

async function readSse(res: Response): Promise<Array<{ event: string; data: any }>> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1] ?? '';
      const data = /^data: (.+)$/m.exec(block)?.[1] ?? '';
      return { event, data: data === '[DONE]' ? data : JSON.parse(data) };
    });
}

describe.each(testDialects())('Coding-agent requests on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['claude-sonnet-4-5-20250929', 'cc-openai', 'cc-gemini', 'shared-model']) await f.unitPrice(m);
    await f.addChannel({ type: 14, key: 'cc-claude', base_url: f.claude.url, models: 'claude-sonnet-4-5-20250929' });
    await f.addChannel({ type: 1, key: 'cc-openai', models: 'cc-openai' });
    await f.addChannel({ type: 25, key: 'cc-gemini', base_url: f.gemini.url, models: 'cc-gemini', model_mapping: JSON.stringify({ 'cc-gemini': 'gemini-2.5-pro' }) });
    ({ key } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${f.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('replays a Claude Code request byte for byte to an Anthropic channel and streams its events back', async () => {
    const text = JSON.stringify(claudeCodeRequest('claude-sonnet-4-5-20250929'));
    const res = await post('/v1/messages', text, { 'anthropic-beta': 'interleaved-thinking-2025-05-14' });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events[0].event).toBe('message_start');
    expect(events.at(-1)!.event).toBe('message_stop');
    const got = f.claude.forKey('cc-claude').at(-1)!;
    expect(got.raw).toBe(text);
    expect(got.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
  });

  it('replays the same Claude Code request on an OpenAI channel: tool round trip, system and images carried over', async () => {
    const res = await post('/v1/messages', claudeCodeRequest('cc-openai'));
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['message_start', 'content_block_start', 'content_block_delta', 'message_delta', 'message_stop']));
    const body = f.fake.forKey('cc-openai').at(-1)!.body;
    expect(body.messages[0].role).toBe('system');
    expect(JSON.stringify(body.messages[0])).toContain('You are Claude Code');
    const assistant = body.messages.find((m: any) => m.role === 'assistant');
    expect(assistant.tool_calls.map((c: any) => c.function.name)).toEqual(['Bash', 'Read']);
    const results = body.messages.filter((m: any) => m.role === 'tool');
    expect(results.map((m: any) => m.tool_call_id)).toEqual(['toolu_01Ls', 'toolu_01Rd']);
    expect(JSON.stringify(body.messages)).toContain('data:image/png;base64,iVBORw0KGgo=');
    // Nineteen function tools cross over; Anthropic's hosted web_search tool cannot run elsewhere.
    expect(body.tools).toHaveLength(19);
    expect(body.tools.map((t: any) => t.function.name)).not.toContain('web_search');
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('replays it on a Gemini channel: schemas cleaned, roles alternate, function responses paired', async () => {
    const res = await post('/v1/messages', claudeCodeRequest('cc-gemini'));
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events.at(-1)!.event).toBe('message_stop');
    const got = f.gemini.forKey('cc-gemini').at(-1)!;
    expect(got.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent');
    expect(JSON.stringify(got.body.tools)).not.toMatch(/\$schema|additionalProperties/);
    expect(got.body.systemInstruction.parts.map((p: any) => p.text).join('\n')).toContain('You are Claude Code');
    const calls = got.body.contents.flatMap((c: any) => c.parts).filter((p: any) => p.functionResponse);
    expect(calls.map((p: any) => p.functionResponse.name)).toEqual(['Bash', 'Read']);
  });

  it('an Anthropic upstream failing mid-stream ends the stream with an Anthropic error event, and delivered tokens are billed', async () => {
    const { key: k, userId } = await f.newUser({ quota: 100_000 });
    f.claude.behave('cc-claude', { content: 'one two three four five six', errorAfterChunks: 2 });
    const stream = new Anthropic({ apiKey: k, baseURL: f.url, maxRetries: 0 }).messages.stream({ model: 'claude-sonnet-4-5-20250929', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    const error = await stream.finalMessage().catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error.message)).toMatch(/overloaded|error/i);
    const log = await f.lastLog(userId);
    expect(log.completion_tokens).toBeGreaterThan(0);
    f.claude.behave('cc-claude', {});
  });

  it('an OpenAI upstream cut mid-stream reaches a /v1/messages caller as an Anthropic error event, never message_stop', async () => {
    f.fake.behave('cc-openai', { content: 'alpha beta gamma delta', cutAfterChunks: 2 });
    const res = await post('/v1/messages', { model: 'cc-openai', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'go' }] });
    const events = await readSse(res);
    expect(events.at(-1)!.event).toBe('error');
    expect(events.at(-1)!.data).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(events.map((e) => e.event)).not.toContain('message_stop');
    f.fake.behave('cc-openai', {});
  });

  it('fails over across families before the first byte: an overloaded Anthropic channel hands over to an OpenAI one', async () => {
    await f.addChannel({ type: 14, key: 'busy-claude', base_url: f.claude.url, models: 'shared-model', priority: 10 });
    await f.addChannel({ type: 1, key: 'spare-openai', models: 'shared-model', priority: 0 });
    f.claude.behave('busy-claude', { status: 529 });
    await f.setOption('RetryTimes', 2);
    const { key: k, userId } = await f.newUser({ quota: 100_000 });
    const answer = await new Anthropic({ apiKey: k, baseURL: f.url, maxRetries: 0 }).messages.create({ model: 'shared-model', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.content[0]).toMatchObject({ type: 'text', text: 'Hello from the fake upstream' });
    expect(f.claude.forKey('busy-claude')).toHaveLength(1);
    const log = await f.lastLog(userId);
    expect(log.channel_id).not.toBe(0);
    expect(log.prompt_tokens).toBe(10);
  });
});
