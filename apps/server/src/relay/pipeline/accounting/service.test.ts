import { describe, expect, it } from 'vitest';
import { emptyUsage, type Usage } from '../../providers/types.js';
import { readOpenAIUsage } from '../../providers/openai-compatible/usage.js';
import { computeQuota, reserveQuota, type Price } from './pricing.js';
import { holdRatio, serviceAsk, serviceClass } from './service.js';

const price: Price = { type: 'tokens', input: 1, output: 1, extra: {}, service: { flex: 0.5, priority: 2, scale: 1.1, fast: 6 } };
const usage = (u: Partial<Usage>): Usage => ({ ...emptyUsage(), ...u });

describe('service classes', () => {
  it.each([
    ['nothing asked, nothing reported', {}, {}, undefined, false, 1],
    ['asked tier when none is reported', { service_tier: 'flex' }, {}, 'flex', false, 0.5],
    ['reported tier wins over the asked one', { service_tier: 'auto' }, { serviceTier: 'priority' }, 'priority', false, 2],
    ['OpenAI "fast" is priority processing', { service_tier: 'fast' }, {}, 'fast', false, 2],
    ['standard names bill ×1', { service_tier: 'standard_only' }, { serviceTier: 'standard' }, 'standard', false, 1],
    ['an unknown tier bills ×1', {}, { serviceTier: 'batch-ish' }, 'batch-ish', false, 1],
    ['fast mode multiplies the tier', { speed: 'fast' }, { serviceTier: 'priority', speed: 'fast' }, 'priority', true, 12],
    ['reported standard speed drops fast mode', { speed: 'fast' }, { speed: 'standard' }, undefined, false, 1],
  ])('%s', (_name, body, reported, tier, fast, ratio) => {
    expect(serviceClass(price, serviceAsk(body), usage(reported))).toEqual({ ...(tier ? { tier } : {}), fast, ratio });
  });

  it('holds at the dearest class the answer could come back in', () => {
    expect(holdRatio(price, serviceAsk({}))).toBe(2); // auto: any tier the project defaults to
    expect(holdRatio(price, serviceAsk({ service_tier: 'flex' }))).toBe(1); // flex may be served at standard
    expect(holdRatio(price, serviceAsk({ service_tier: 'standard_only' }))).toBe(1);
    expect(holdRatio(price, serviceAsk({ service_tier: 'default', speed: 'fast' }))).toBe(6);
    expect(holdRatio({ ...price, service: undefined }, serviceAsk({ speed: 'fast' }))).toBe(1);
  });

  it('multiplies the whole cost exactly, cache classes included', () => {
    const u = usage({ promptTokens: 1000, completionTokens: 100, cachedTokens: 200, cacheWriteTokens: 400 });
    // 1000 + trunc(200 × −0.5) + trunc(400 × 0.25) = 1000 − 100 + 100 = 1000 in, 100 out.
    expect(computeQuota(u, price, 1)).toBe(1100);
    // × 1.1 (scale tier) is 1210 exactly, not 1210.0000000000002 rounded up to 1211.
    expect(computeQuota(u, { ...price, scale: 1.1 }, 1)).toBe(1210);
    // × 0.3 group × 1.1: 363.
    expect(computeQuota(u, { ...price, scale: 1.1 }, 0.3)).toBe(363);
    // The hold scales the same way: (10 prompt + 1000 output) × 2.
    expect(reserveQuota({ ...price, scale: 2 }, 1, 10, 1000, 0)).toBe(2020);
  });

  it('reads OpenAI cache writes and the answer’s tier', () => {
    expect(readOpenAIUsage({ prompt_tokens: 50, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 20 } }, 'flex')).toMatchObject({
      promptTokens: 50,
      cachedTokens: 10,
      cacheWriteTokens: 20,
      serviceTier: 'flex',
    });
    expect(readOpenAIUsage({ input_tokens: 50, output_tokens: 5, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 30 } })).toMatchObject({ cacheWriteTokens: 30 });
  });
});
