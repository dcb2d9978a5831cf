import { describe, expect, it } from 'vitest';
import { emptyUsage, type Usage } from '../../providers/types.js';
import { computeQuota, reserveQuota, type Price } from './pricing.js';
import { billingUsage } from '../../bridge/usage.js';
import { emptyUsage as emptyNormal, usageFromAnthropic, usageFromGemini, usageFromOpenAI } from '../../formats/index.js';

const unit: Price = { type: 'tokens', input: 1, output: 1, extra: {} };
const usage = (u: Partial<Usage>): Usage => ({ ...emptyUsage(), ...u });

describe('computeQuota', () => {
  it.each([
    ['plain tokens', usage({ promptTokens: 100, completionTokens: 50 }), unit, 1, 150],
    ['group ratio doubles', usage({ promptTokens: 100, completionTokens: 50 }), unit, 2, 300],
    ['output priced separately', usage({ promptTokens: 100, completionTokens: 50 }), { ...unit, output: 4 }, 1, 300],
    ['OpenAI cached share at 0.5', usage({ promptTokens: 100, cachedTokens: 40 }), unit, 1, 80],
    ['Anthropic/Gemini cache reads at 0.1', usage({ promptTokens: 100, cacheReadTokens: 40 }), unit, 1, 64],
    ['5-minute cache writes at 1.25', usage({ promptTokens: 100, cacheWriteTokens: 40 }), unit, 1, 110],
    ['1-hour cache writes at 2', usage({ promptTokens: 100, cacheWrite1hTokens: 40 }), unit, 1, 140],
    ['price overrides a class ratio', usage({ promptTokens: 100, cacheReadTokens: 40 }), { ...unit, extra: { cached_read_tokens: 0.5 } }, 1, 80],
    ['per-call price ignores tokens', usage({ promptTokens: 100 }), { type: 'times', input: 0.002, output: 0, extra: {} } as Price, 1, 2],
    ['nothing used costs nothing', usage({}), unit, 1, 0],
    ['a tiny paid request costs at least 1', usage({ promptTokens: 1 }), { ...unit, input: 0.001 }, 1, 1],
  ])('%s', (_name, u, price, group, expected) => {
    expect(computeQuota(u, price, group)).toBe(expected);
  });
});

describe('billing usage from each family', () => {
  it('keeps every token exactly once and prices each family’s cache reads by its own class', () => {
    const claude = billingUsage(usageFromAnthropic({ input_tokens: 10, cache_read_input_tokens: 30, cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 15 }, cache_creation_input_tokens: 20, output_tokens: 7 })!, 'anthropic');
    expect(claude).toMatchObject({ promptTokens: 60, completionTokens: 7, cachedTokens: 0, cacheReadTokens: 30, cacheWriteTokens: 5, cacheWrite1hTokens: 15 });
    // 60 − 27 + 1 (5 × 0.25) + 15 (15 × 1) = 49 in, 7 out
    expect(computeQuota(claude, unit, 1)).toBe(56);

    const openai = billingUsage(usageFromOpenAI({ prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 60 }, completion_tokens_details: { reasoning_tokens: 8 } })!, 'openai');
    expect(openai).toMatchObject({ promptTokens: 100, completionTokens: 20, cachedTokens: 60, cacheReadTokens: 0, reasoningTokens: 8 });

    const gemini = billingUsage(usageFromGemini({ promptTokenCount: 100, cachedContentTokenCount: 40, candidatesTokenCount: 10, thoughtsTokenCount: 5 })!, 'gemini');
    expect(gemini).toMatchObject({ promptTokens: 100, completionTokens: 15, cacheReadTokens: 40, reasoningTokens: 5 });
    expect(billingUsage(emptyNormal(), 'gemini')).toEqual(emptyUsage());
  });

  it('holds the prompt estimate plus the larger of the output cap and the pre-consumed floor', () => {
    expect(reserveQuota(unit, 1, 100, 1000, 500)).toBe(1100);
    expect(reserveQuota(unit, 1, 100, 50, 500)).toBe(600);
    expect(reserveQuota(unit, 1, 100, undefined, 500)).toBe(600);
    expect(reserveQuota({ ...unit, input: 0, output: 0 }, 1, 100, 50, 500)).toBe(0);
  });
});

describe('a service multiplier', () => {
  // Without one the arithmetic runs on two ratios, with one on three: the same exact result either way.
  it('bills as the group ratio multiplied by it, and ×1 as no multiplier at all', () => {
    const prices: Price[] = [
      { type: 'tokens', input: 0.075, output: 0.3, extra: { cached_tokens: 0.1 } },
      { type: 'tokens', input: 1.1, output: 3.3, extra: {} },
      { type: 'times', input: 0.002, output: 0, extra: {} },
    ];
    const u = usage({ promptTokens: 1_234, completionTokens: 567, cachedTokens: 200, reasoningTokens: 30 });
    for (const price of prices) {
      for (const group of [0.3, 1, 1.7]) {
        expect(computeQuota(u, { ...price, scale: 1 }, group)).toBe(computeQuota(u, price, group));
        expect(computeQuota(u, { ...price, scale: 2 }, group)).toBe(computeQuota(u, price, group * 2));
        expect(reserveQuota({ ...price, scale: 2 }, group, 900, 400, 0)).toBe(reserveQuota(price, group * 2, 900, 400, 0));
      }
    }
  });
});
