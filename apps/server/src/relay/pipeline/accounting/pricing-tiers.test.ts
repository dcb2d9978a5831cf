import { describe, expect, it } from 'vitest';
import { emptyUsage, type Usage } from '../../providers/types.js';
import { computeQuota, priceTier, reserveQuota, unitsCost, worstTier, type Price } from './pricing.js';

const usage = (u: Partial<Usage>): Usage => ({ ...emptyUsage(), ...u });
// ≤ 200k prompt tokens: 1 in, 2 out; above: 2 in, 3 out and dearer cache reads.
const tiered: Price = { type: 'tokens', input: 1, output: 2, extra: {}, tiers: [{ above: 200_000, input: 2, output: 3, extra: { cached_tokens: 0.25 } }] };

describe('tiered prices', () => {
  it('chooses the tier from the actual prompt tokens: 1k at the base price, 250k at the upper tier', () => {
    expect(priceTier(tiered, 1000).index).toBe(0);
    expect(priceTier(tiered, 200_000).index).toBe(0);
    expect(priceTier(tiered, 200_001).index).toBe(1);
    expect(computeQuota(usage({ promptTokens: 1000, completionTokens: 10 }), tiered, 1)).toBe(1000 + 20);
    expect(computeQuota(usage({ promptTokens: 250_000, completionTokens: 10 }), tiered, 1)).toBe(500_000 + 30);
    // The tier's own cache ratio: 40k cached at 0.25 → 250k − 30k = 220k input tokens at 2.
    expect(computeQuota(usage({ promptTokens: 250_000, cachedTokens: 40_000 }), tiered, 1)).toBe(440_000);
  });

  it('picks the highest tier passed among several', () => {
    const three: Price = { ...tiered, tiers: [{ above: 100, input: 5, output: 5, extra: {} }, { above: 1000, input: 9, output: 9, extra: {} }] };
    expect([50, 101, 1000, 1001].map((n) => priceTier(three, n).index)).toEqual([0, 1, 1, 2]);
  });

  it('holds at the dearest tier, so the settled cost never exceeds the hold', () => {
    expect(worstTier(tiered)).toMatchObject({ input: 2, output: 3 });
    const held = reserveQuota(tiered, 1, 250_000, 100, 0);
    expect(held).toBe(500_000 + 300);
    expect(computeQuota(usage({ promptTokens: 250_000, completionTokens: 100 }), tiered, 1)).toBeLessThanOrEqual(held);
  });

  it('a per-call price ignores tiers', () => {
    expect(computeQuota(usage({ promptTokens: 300_000 }), { ...tiered, type: 'times', input: 0.02 }, 1)).toBe(20);
  });
});

describe('exact integer quota', () => {
  it('has no float drift: 10·i tokens at 0.1 cost exactly i, and a million of them add up to n(n+1)/2', () => {
    const price: Price = { type: 'tokens', input: 0.1, output: 0.3, extra: {} };
    const n = 1_000_000;
    let sum = 0;
    for (let i = 1; i <= n; i++) sum += computeQuota(usage({ promptTokens: 10 * i }), price, 1);
    expect(sum).toBe((n * (n + 1)) / 2);
    // Float arithmetic makes 30 × 0.1 = 3.0000000000000004 and bills 4.
    expect(computeQuota(usage({ promptTokens: 30 }), price, 1)).toBe(3);
    expect(computeQuota(usage({ promptTokens: 1000, completionTokens: 300 }), price, 1.1)).toBe(209);
  });

  it('per-second and per-call task costs are exact too', () => {
    expect(unitsCost({ type: 'tokens', input: 0.1, output: 0, extra: {} }, 1, 3)).toBe(300);
    expect(unitsCost({ type: 'times', input: 0.07, output: 0, extra: {} }, 1, 100)).toBe(7000);
  });
});
