import Anthropic from '@anthropic-ai/sdk';
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  createAnthropicToHubStream, createGeminiToHubStream, createHubToAnthropicStream, createHubToGeminiStream, createHubToResponsesStream,
  sequentialIds, type AnthropicStreamEvent, type GeminiResponse, type HubChunk,
} from './index.js';
import { sseEvents } from './shared/fixture.js';

/** The SDKs' fromReadableStream reads newline-delimited JSON events. */
function ndjson(events: unknown[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return new ReadableStream({ start: (c) => { c.enqueue(bytes); c.close(); } });
}

const openaiChunks = sseEvents<HubChunk>('openai', 'chat-stream-reasoning-tools.sse');

describe('official SDKs accumulate our streams', () => {
  it('@anthropic-ai/sdk MessageStream reads hub → Anthropic events into a complete message', async () => {
    const s = createHubToAnthropicStream({ model: 'deepseek-reasoner', ids: sequentialIds() });
    const events = [...openaiChunks.flatMap((c) => s.push(c)), ...s.finish()];
    const msg: Anthropic.Message = await MessageStream.fromReadableStream(ndjson(events)).finalMessage();
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'Need the file list first.', signature: '' },
      { type: 'text', text: "I'll run ls.", citations: null },
      { type: 'tool_use', id: 'call_0_5b3e', name: 'shell', input: { command: ['ls'] } },
      { type: 'tool_use', id: 'call_1_9a1f', name: 'read_file', input: { path: 'README.md' } },
    ].map((b) => (b.type === 'text' ? expect.objectContaining({ type: 'text', text: b.text }) : b)));
    expect(msg.usage).toMatchObject({ input_tokens: 476, cache_read_input_tokens: 1024, output_tokens: 120 });
  });

  it('openai ResponseStream reads hub → Responses events into the final response', async () => {
    const s = createHubToResponsesStream({ model: 'deepseek-reasoner', ids: sequentialIds() });
    const events = [...openaiChunks.flatMap((c) => s.push(c)), ...s.finish()];
    const res = await ResponseStream.fromReadableStream(ndjson(events)).finalResponse();
    expect(res.status).toBe('completed');
    expect(res.output_text).toBe("I'll run ls.");
    expect(res.output.filter((o) => o.type === 'function_call').map((o) => (o as { arguments: string }).arguments)).toEqual(['{"command":["ls"]}', '{"path":"README.md"}']);
    expect(res.usage?.input_tokens_details.cached_tokens).toBe(1024);
  });

  it('openai ChatCompletionStream reads Anthropic → hub chunks (tool calls aggregate by stable id)', async () => {
    const s = createAnthropicToHubStream({ includeUsage: true });
    const chunks = sseEvents<AnthropicStreamEvent>('anthropic', 'stream-thinking-tool.sse').flatMap((e) => s.push(e));
    const done = await ChatCompletionStream.fromReadableStream(ndjson(chunks)).finalChatCompletion();
    const m = done.choices[0].message;
    expect(m.content).toBe('Let me check the weather.');
    expect(m.tool_calls?.map((t) => (t.type === 'function' ? [t.function.name, t.function.arguments] : []))).toEqual([['get_weather', '{"location": "Paris"}'], ['get_time', '{}']]);
    expect(done.choices[0].finish_reason).toBe('tool_calls');
  });

  it('openai ChatCompletionStream reads Gemini → hub chunks', async () => {
    const s = createGeminiToHubStream({ model: 'gemini-2.5-flash', includeUsage: true, ids: sequentialIds() });
    const chunks = [...sseEvents<GeminiResponse>('gemini', 'stream-thinking-tool.sse').flatMap((c) => s.push(c)), ...s.finish()];
    const done = await ChatCompletionStream.fromReadableStream(ndjson(chunks)).finalChatCompletion();
    expect(done.choices[0].message.content).toBe('Let me look that up.');
    expect(done.choices[0].message.tool_calls).toHaveLength(2);
    expect(done.usage).toMatchObject({ prompt_tokens: 1200, completion_tokens: 70 });
  });

  it('@google/genai GenerateContentResponse reads hub → Gemini stream chunks', () => {
    const s = createHubToGeminiStream({ model: 'deepseek-reasoner', responseId: 'r' });
    const chunks = [...openaiChunks.flatMap((c) => s.push(c)), ...s.finish()].map((c) => Object.assign(new GenerateContentResponse(), c));
    expect(chunks.map((c) => c.text ?? '').join('')).toBe("I'll run ls.");
    const last = chunks[chunks.length - 1];
    expect(last.functionCalls?.map((f) => [f.name, f.args])).toEqual([['shell', { command: ['ls'] }], ['read_file', { path: 'README.md' }]]);
    expect(last.usageMetadata).toMatchObject({ promptTokenCount: 1500, cachedContentTokenCount: 1024, thoughtsTokenCount: 40, candidatesTokenCount: 80 });
  });
});
