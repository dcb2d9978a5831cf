import { describe, expect, it } from 'vitest';
import { sseEvents } from '../shared/fixture.js';
import { UpstreamStreamError } from '../shared/errors.js';
import { sequentialIds } from '../shared/ids.js';
import type { HubChunk, HubDelta } from '../openai/types.js';
import { emptyUsage } from '../openai/usage.js';
import { createAnthropicToHubStream } from './stream-to-hub.js';
import { createHubToAnthropicStream } from './stream-from-hub.js';
import type { AnthropicStreamEvent } from './types.js';

const events = sseEvents<AnthropicStreamEvent>('anthropic', 'stream-thinking-tool.sse');

describe('createAnthropicToHubStream', () => {
  const s = createAnthropicToHubStream({ now: 1, includeUsage: true });
  const chunks = events.flatMap((e) => s.push(e));
  const deltas = chunks.filter((c) => c.choices.length).map((c) => c.choices[0].delta);
  it('keeps one chunk id and the upstream model', () => {
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set(['chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL']));
    expect(chunks[0].model).toBe('claude-sonnet-4-5-20250929');
  });
  it('maps every block kind to deltas', () => {
    expect(deltas).toEqual<HubDelta[]>([
      { role: 'assistant', content: '' },
      { reasoning_content: 'The user wants the weather' },
      { reasoning_content: ' in Paris; call the tool.' },
      { reasoning_signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
      { content: 'Let me check' },
      { content: ' the weather.' },
      { tool_calls: [{ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"location": "Par' } }] },
      { tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] },
      { tool_calls: [{ index: 1, id: 'toolu_01Vz2oBqmjBWXHzNZC4Pf1xW', type: 'function', function: { name: 'get_time', arguments: '' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{}' } }] },
      {},
    ]);
    expect(chunks.filter((c) => c.choices[0]?.finish_reason).map((c) => c.choices[0].finish_reason)).toEqual(['tool_calls']);
  });
  it('ends with one usage-only chunk and no more after finish()', () => {
    expect(chunks[chunks.length - 1].choices).toEqual([]);
    expect(s.finish()).toEqual([]);
  });
  it('omits the usage chunk when the caller did not ask for it', () => {
    const t = createAnthropicToHubStream();
    expect(events.flatMap((e) => t.push(e)).every((c) => c.choices.length === 1)).toBe(true);
    expect(t.usage()?.output).toBe(89);
  });
  it('turns an error event into an UpstreamStreamError after the text so far', () => {
    const t = createAnthropicToHubStream();
    const errEvents = sseEvents<AnthropicStreamEvent>('anthropic', 'stream-error.sse');
    const before = errEvents.slice(0, -1).flatMap((e) => t.push(e));
    expect(before.map((c) => c.choices[0].delta.content)).toEqual(['', 'Hello']);
    expect(() => t.push(errEvents[errEvents.length - 1])).toThrow(UpstreamStreamError);
    expect(t.usage()?.inputUncached).toBe(25);
  });
});

const chunk = (delta: HubDelta, finish: HubChunk['choices'][0]['finish_reason'] = null): HubChunk => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt', choices: [{ index: 0, delta, finish_reason: finish }] });

describe('createHubToAnthropicStream', () => {
  it('emits the full event sequence for reasoning, text and two tool calls', () => {
    const s = createHubToAnthropicStream({ model: 'gpt-4o', ids: sequentialIds(), inputTokens: 12 });
    const out = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'think' }),
      chunk({ content: 'Hi' }),
      chunk({ content: ' there' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      { ...chunk({}), choices: [], usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39, prompt_tokens_details: { cached_tokens: 10 } } },
    ].flatMap((c) => s.push(c));
    out.push(...s.finish());
    expect(out.map((e) => (e.type === 'content_block_delta' ? `${e.type}:${e.delta.type}` : e.type))).toEqual([
      'message_start',
      'content_block_start', 'content_block_delta:thinking_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta:text_delta', 'content_block_delta:text_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta:input_json_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta:input_json_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    expect(out[0]).toMatchObject({ message: { id: 'msg_1', model: 'gpt-4o', usage: { input_tokens: 12, output_tokens: 0 } } });
    expect(out.filter((e) => e.type === 'content_block_start').map((e) => (e as { index: number }).index)).toEqual([0, 1, 2, 3]);
    expect(out[8]).toEqual({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_a', name: 'f', input: {} } });
    expect(out[14]).toEqual({
      type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 9 },
    });
    expect(s.push(chunk({ content: 'late' }))).toEqual([]);
  });
  it('round trip: Anthropic events → hub → Anthropic keeps text, thinking signature and tool input', () => {
    const a = createAnthropicToHubStream({ includeUsage: true });
    const b = createHubToAnthropicStream({ model: 'claude', ids: sequentialIds() });
    const out = events.flatMap((e) => a.push(e)).flatMap((c) => b.push(c));
    out.push(...b.finish(a.usage() ?? undefined));
    const text = (t: string) => out.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === t ? [Object.values(e.delta)[1]] : [])).join('');
    expect(text('text_delta')).toBe('Let me check the weather.');
    expect(text('thinking_delta')).toBe('The user wants the weather in Paris; call the tool.');
    expect(text('signature_delta')).toBe('EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds');
    expect(text('input_json_delta')).toBe('{"location": "Paris"}{}');
    expect(out.at(-2)).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { cache_creation: { ephemeral_1h_input_tokens: 1000 }, output_tokens: 89 } });
  });
  it('error() after the first byte gives an Anthropic error event and ends the stream', () => {
    const s = createHubToAnthropicStream({ model: 'm', ids: sequentialIds() });
    s.push(chunk({ content: 'x' }));
    expect(s.error({ message: 'upstream cut', type: 'overloaded_error' })).toEqual([{ type: 'error', error: { type: 'overloaded_error', message: 'upstream cut' } }]);
    expect(s.finish()).toEqual([]);
  });
  it('a tool turn without finish_reason still stops as tool_use', () => {
    const s = createHubToAnthropicStream({ model: 'm', ids: sequentialIds() });
    s.push(chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }));
    expect(s.finish().find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });
  it('an empty upstream still yields a valid message', () => {
    const s = createHubToAnthropicStream({ model: 'm', ids: sequentialIds() });
    expect(s.finish({ ...emptyUsage(), inputUncached: 3, output: 0 }).map((e) => e.type)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });
});
