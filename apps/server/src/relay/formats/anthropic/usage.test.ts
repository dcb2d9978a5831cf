import { describe, expect, it } from 'vitest';
import { emptyUsage, usageFromOpenAI, type Usage } from '../openai/usage.js';
import { jsonFixture, sseEvents } from '../shared/fixture.js';
import { createAnthropicToHubStream } from './stream-to-hub.js';
import type { AnthropicResponse, AnthropicStreamEvent } from './types.js';
import { mergeAnthropicUsage, usageFromAnthropic, usageToAnthropic } from './usage.js';

const u = (p: Partial<Usage>): Usage => ({ ...emptyUsage(), ...p });

describe('usageFromAnthropic', () => {
  it.each([
    ['plain', { input_tokens: 10, output_tokens: 5 }, u({ inputUncached: 10, output: 5 })],
    ['cache read and write are separate from input', { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, output_tokens: 5 }, u({ inputUncached: 10, cacheRead: 100, cacheWrite5m: 50, output: 5 })],
    [
      '1h and 5m writes split',
      { input_tokens: 1, cache_creation_input_tokens: 300, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 }, output_tokens: 2 },
      u({ inputUncached: 1, cacheWrite5m: 100, cacheWrite1h: 200, output: 2 }),
    ],
    ['nulls', { input_tokens: 3, cache_read_input_tokens: null, cache_creation_input_tokens: null, output_tokens: 0 }, u({ inputUncached: 3 })],
  ])('%s', (_n, raw, expected) => expect(usageFromAnthropic(raw)).toEqual(expected));

  it('round-trips through the Anthropic shape', () => {
    const x = u({ inputUncached: 7, cacheRead: 8, cacheWrite5m: 9, cacheWrite1h: 10, output: 11 });
    expect(usageFromAnthropic(usageToAnthropic(x))).toEqual(x);
  });

  it('message_delta replaces, never adds to, message_start counts', () => {
    const start = { input_tokens: 472, cache_read_input_tokens: 3000, output_tokens: 2 };
    const merged = mergeAnthropicUsage(start, { output_tokens: 89 });
    expect(usageFromAnthropic(merged)).toEqual(u({ inputUncached: 472, cacheRead: 3000, output: 89 }));
  });
});

describe('golden usage: Anthropic non-stream and stream', () => {
  it('non-stream response', async () => {
    const { anthropicResponseToHub } = await import('./response.js');
    const res = jsonFixture<AnthropicResponse>('anthropic', 'response-thinking-tool.json');
    const { usage, value } = anthropicResponseToHub(res);
    // The tier the answer reports travels with the counts (it prices the request).
    expect(usage).toEqual(u({ inputUncached: 2095, cacheRead: 11500, output: 503, serviceTier: 'standard' }));
    expect(value.usage).toMatchObject({ prompt_tokens: 13595, completion_tokens: 503, prompt_tokens_details: { cached_tokens: 11500 } });
  });
  it('stream: cache writes split 5m/1h survive the merge with message_delta', () => {
    const s = createAnthropicToHubStream({ includeUsage: true });
    const chunks = sseEvents<AnthropicStreamEvent>('anthropic', 'stream-thinking-tool.sse').flatMap((e) => s.push(e));
    const expected = u({ inputUncached: 472, cacheRead: 3000, cacheWrite5m: 200, cacheWrite1h: 1000, output: 89, serviceTier: 'standard' });
    expect(s.usage()).toEqual(expected);
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    // OpenAI carries the tier beside usage, not in it: the counts alone round-trip.
    expect(usageFromOpenAI(last.usage)).toEqual({ ...expected, serviceTier: undefined });
  });
});
