import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import { describe, expect, it } from 'vitest';
import {
  anthropicRequestToHub, createAnthropicToHubStream, createGeminiToHubStream, createHubToAnthropicStream, createHubToResponsesStream,
  geminiRequestToHub, hubRequestToAnthropic, hubRequestToGemini, parseAnthropicRequest, parseGeminiRequest, parseResponsesRequest,
  responsesRequestToHub, sequentialIds, type AnthropicRequest, type AnthropicStreamEvent, type GeminiRequest, type GeminiResponse, type HubChunk, type ResponsesRequest,
} from './index.js';
import { jsonFixture, sseEvents } from './shared/fixture.js';

/** Cross-family conversions through the hub, as the doors use them. */
const anthropicOpts = { defaultMaxTokens: 8192, budgetPercentage: 0.8 };
const claudeCode = parseAnthropicRequest(jsonFixture<AnthropicRequest>('anthropic', 'request-claude-code.json'));
const codex = parseResponsesRequest(jsonFixture<ResponsesRequest>('responses', 'request-codex.json'));
const geminiCli = parseGeminiRequest(jsonFixture<GeminiRequest>('gemini', 'request-gemini-cli.json'));

function ndjson(events: unknown[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return new ReadableStream({ start: (c) => { c.enqueue(bytes); c.close(); } });
}

describe('requests across families', () => {
  it('Claude Code → Gemini: schemas cleaned, Anthropic thinking stripped, tool results named, budget kept', () => {
    const hub = anthropicRequestToHub(claudeCode).value;
    const { value, warnings } = hubRequestToGemini({ ...hub, model: 'gemini-2.5-pro' });
    expect(value.systemInstruction?.parts.map((p) => p.text)).toEqual(["You are Claude Code, Anthropic's official CLI for Claude.", 'Working directory: /home/dev/project']);
    expect(value.tools?.[0].functionDeclarations?.[0].parameters).toEqual({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] });
    expect(value.contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(value.contents[1].parts.map((p) => p.functionCall?.name ?? p.text)).toEqual(['Listing files.', 'Bash', 'Read']);
    expect(value.contents[2].parts.map((p) => p.functionResponse?.name ?? p.inlineData?.mimeType ?? p.text)).toEqual(['Bash', 'Read', 'image/png', 'Now summarise.']);
    expect(value.generationConfig).toMatchObject({ maxOutputTokens: 32000, temperature: 1, thinkingConfig: { thinkingBudget: 31999, includeThoughts: true } });
    expect(warnings).toEqual(expect.arrayContaining([
      'messages.2: Anthropic thinking blocks stripped',
      'tools.0.function.parameters: removed $schema, additionalProperties (not accepted by Gemini)',
      'request: dropped unsupported field "user"',
    ]));
  });

  it('Codex → Anthropic: instructions and developer text in system, JSON approximated, thinking off without a signed tool turn', () => {
    const hub = responsesRequestToHub(codex).value;
    const { value, warnings } = hubRequestToAnthropic({ ...hub, model: 'claude-sonnet-4-5' }, anthropicOpts);
    expect(value.system).toMatch(/^You are Codex[\s\S]*<permissions>workspace-write<\/permissions>\nRespond only with a valid JSON object matching/);
    expect(value.max_tokens).toBe(4000);
    expect(value.thinking).toBeUndefined();
    expect(value.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(value.messages[1].content).toEqual([{ type: 'text', text: 'Listing files now.' }, { type: 'tool_use', id: 'call_ls1', name: 'shell', input: { command: ['ls'] } }]);
    expect(value.messages[4].content).toEqual([{ type: 'tool_result', tool_use_id: 'call_rd1', content: '# Demo' }]);
    expect(warnings).toEqual(expect.arrayContaining([
      'messages.3: unsigned reasoning from another model stripped',
      'thinking disabled: the last assistant tool call has no signed thinking block to continue from',
      'request: dropped unsupported field "prompt_cache_key"',
    ]));
  });

  it('Gemini CLI → Anthropic: generated call ids pair tool_use with tool_result, signatures reported', () => {
    const hub = geminiRequestToHub(geminiCli, { model: 'claude-sonnet-4-5', ids: sequentialIds() }).value;
    const { value, warnings } = hubRequestToAnthropic(hub, anthropicOpts);
    const uses = (value.messages[1].content as Array<{ type: string; id?: string }>).filter((b) => b.type === 'tool_use').map((b) => b.id);
    const results = (value.messages[2].content as Array<{ type: string; tool_use_id?: string }>).map((b) => b.tool_use_id);
    expect(uses).toEqual(['call_1', 'call_2']);
    expect(results).toEqual(['call_1', 'call_2']);
    expect(value.stop_sequences).toEqual(['END']);
    expect(warnings).toContain('messages.2: Gemini thought signature dropped');
  });
});

describe('streams across families, read by the official SDKs', () => {
  it('Gemini upstream → Claude door', async () => {
    const g = createGeminiToHubStream({ model: 'gemini-2.5-flash', includeUsage: true, ids: sequentialIds() });
    const a = createHubToAnthropicStream({ model: 'gemini-2.5-flash', ids: sequentialIds() });
    const events = [...sseEvents<GeminiResponse>('gemini', 'stream-thinking-tool.sse').flatMap((c) => g.push(c)), ...g.finish()].flatMap((c) => a.push(c));
    events.push(...a.finish(g.usage() ?? undefined));
    const msg = await MessageStream.fromReadableStream(ndjson(events)).finalMessage();
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.usage).toMatchObject({ input_tokens: 200, cache_read_input_tokens: 1000, output_tokens: 70 });
  });

  it('Anthropic upstream → Responses door', async () => {
    const a = createAnthropicToHubStream({ includeUsage: true });
    const r = createHubToResponsesStream({ model: 'claude-sonnet-4-5', ids: sequentialIds() });
    const events = sseEvents<AnthropicStreamEvent>('anthropic', 'stream-thinking-tool.sse').flatMap((e) => a.push(e)).flatMap((c) => r.push(c));
    events.push(...r.finish(a.usage() ?? undefined));
    const res = await ResponseStream.fromReadableStream(ndjson(events)).finalResponse();
    expect(res.output.map((o) => o.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
    expect(res.output_text).toBe('Let me check the weather.');
    expect(res.usage).toMatchObject({ input_tokens: 4672, input_tokens_details: { cached_tokens: 3000 }, output_tokens: 89 });
  });

  it('OpenRouter-style `reasoning` deltas count as reasoning', () => {
    const r = createHubToResponsesStream({ model: 'm', ids: sequentialIds() });
    const chunk: HubChunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { reasoning: 'hmm' }, finish_reason: null }] };
    expect(r.push(chunk).map((e) => e.type)).toContain('response.reasoning_summary_text.delta');
  });
});
