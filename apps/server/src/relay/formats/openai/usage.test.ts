import { describe, expect, it } from 'vitest';
import { emptyUsage, inputTokens, outputTokens, usageFromOpenAI, usageToOpenAI, usageToResponses, type Usage } from './usage.js';

const u = (p: Partial<Usage>): Usage => ({ ...emptyUsage(), ...p });

describe('usageFromOpenAI', () => {
  it.each([
    ['plain chat', { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 }, u({ inputUncached: 100, output: 20 })],
    [
      'cached ⊂ prompt, reasoning ⊂ completion',
      { prompt_tokens: 1000, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 800 }, completion_tokens_details: { reasoning_tokens: 250 } },
      u({ inputUncached: 200, cacheRead: 800, output: 50, reasoning: 250 }),
    ],
    [
      'audio in and out',
      { prompt_tokens: 50, completion_tokens: 40, prompt_tokens_details: { audio_tokens: 30 }, completion_tokens_details: { audio_tokens: 35 } },
      u({ inputUncached: 20, audioIn: 30, output: 5, audioOut: 35 }),
    ],
    [
      'Responses API names',
      { input_tokens: 500, output_tokens: 60, input_tokens_details: { cached_tokens: 100 }, output_tokens_details: { reasoning_tokens: 10 } },
      u({ inputUncached: 400, cacheRead: 100, output: 50, reasoning: 10 }),
    ],
    [
      'cache-write extension fields',
      { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 600, cache_write_1h_tokens: 400 } },
      u({ inputUncached: 300, cacheRead: 100, cacheWrite5m: 200, cacheWrite1h: 400, output: 10 }),
    ],
    ['DeepSeek top-level cache hits', { prompt_tokens: 100, completion_tokens: 1, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36 }, u({ inputUncached: 36, cacheRead: 64, output: 1 })],
    ['garbage values count as zero', { prompt_tokens: -5, completion_tokens: 'x' }, emptyUsage()],
    ['cached larger than prompt is capped', { prompt_tokens: 10, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 50 } }, u({ cacheRead: 10 })],
  ])('%s', (_name, raw, expected) => {
    expect(usageFromOpenAI(raw)).toEqual(expected);
  });

  it('answers null for a missing usage', () => {
    expect(usageFromOpenAI(undefined)).toBeNull();
    expect(usageFromOpenAI(null)).toBeNull();
  });
});

describe('usage totals and back to OpenAI', () => {
  const full = u({ inputUncached: 10, cacheRead: 20, cacheWrite5m: 30, cacheWrite1h: 40, audioIn: 1, imageIn: 2, output: 5, reasoning: 6, audioOut: 7, imageOut: 8 });
  it('sums disjoint buckets', () => {
    expect(inputTokens(full)).toBe(103);
    expect(outputTokens(full)).toBe(26);
  });
  it('round-trips every bucket through the OpenAI shape', () => {
    const wire = usageToOpenAI(full);
    expect(wire).toMatchObject({ prompt_tokens: 103, completion_tokens: 26, total_tokens: 129 });
    expect(wire.prompt_tokens_details).toEqual({ cached_tokens: 20, audio_tokens: 1, image_tokens: 2, cache_write_tokens: 70, cache_write_1h_tokens: 40 });
    expect(usageFromOpenAI(wire)).toEqual(full);
  });
  it('omits zero extension fields', () => {
    expect(usageToOpenAI(u({ inputUncached: 3, output: 4 })).prompt_tokens_details).toEqual({ cached_tokens: 0 });
  });
  it('renders the Responses API usage', () => {
    expect(usageToResponses(full)).toEqual({
      input_tokens: 103, input_tokens_details: { cached_tokens: 20, cache_write_tokens: 70 }, output_tokens: 26, output_tokens_details: { reasoning_tokens: 6 }, total_tokens: 129,
    });
  });
});

describe('reasoning helpers', async () => {
  const { effortFromBudget, reasoningOf } = await import('./reasoning.js');
  it.each([[1024, 'low'], [2048, 'low'], [8192, 'medium'], [12_001, 'high'], [31_999, 'high']])('budget %i → %s', (b, e) => expect(effortFromBudget(b)).toBe(e));
  it('reads reasoning_content, then reasoning', () => {
    expect(reasoningOf({ reasoning_content: 'a', reasoning: 'b' })).toBe('a');
    expect(reasoningOf({ reasoning: 'b' })).toBe('b');
    expect(reasoningOf({ reasoning: { effort: 'high' } })).toBe('');
    expect(reasoningOf(undefined)).toBe('');
  });
});
