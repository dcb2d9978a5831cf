import { describe, expect, it } from 'vitest';
import type { PriceEntry } from '@one-hub/contract';
import { entryToRate, filterPrices, groupPrices, priceChanges, priceText, rateToUsd, unpricedModels } from './price-logic';

const p = (model: string, o: Partial<PriceEntry> = {}): PriceEntry => ({ model, type: 'tokens', channel_type: 1, input: 15, output: 30, locked: false, ...o });

describe('price logic', () => {
  it('converts rates to dollars and typed dollars or yuan back to rates', () => {
    expect(rateToUsd(15, 'K')).toBe(0.03);
    expect(rateToUsd(15, 'M')).toBe(30);
    expect(rateToUsd(10, 'M', 'times')).toBe(0.02);
    expect(entryToRate(0.03, 'USD', 'K')).toBe(15);
    expect(entryToRate(30, 'USD', 'M')).toBe(15);
    expect(entryToRate(0.014, 'RMB', 'K')).toBe(1);
    expect(entryToRate(7, 'rate', 'M')).toBe(7);
    expect(entryToRate(1, 'USD', 'K')).toBe(500);
  });

  it('writes prices per 1K/1M, per call without a unit, and free as null', () => {
    expect(priceText(15, 'K', 'tokens')).toBe('$0.03 / 1K');
    expect(priceText(0.125, 'M', 'tokens')).toBe('$0.25 / 1M');
    expect(priceText(25, 'K', 'times')).toBe('$0.05');
    expect(priceText(0, 'K', 'tokens')).toBeNull();
  });

  it('filters by model or provider name, type, provider and lock', () => {
    const rows = [p('gpt-4o'), p('claude-3', { channel_type: 14, locked: true }), p('mj_imagine', { type: 'times', channel_type: 34 })];
    const owner = (id: number) => ({ 1: 'OpenAI', 14: 'Anthropic', 34: 'Midjourney' })[id] ?? '';
    expect(filterPrices(rows, { search: 'anthrop', type: '', owner: 0, locked: '' }, owner).map((r) => r.model)).toEqual(['claude-3']);
    expect(filterPrices(rows, { search: '', type: 'times', owner: 0, locked: '' }, owner).map((r) => r.model)).toEqual(['mj_imagine']);
    expect(filterPrices(rows, { search: '', type: '', owner: 1, locked: '' }, owner).map((r) => r.model)).toEqual(['gpt-4o']);
    expect(filterPrices(rows, { search: '', type: '', owner: 0, locked: 'unlocked' }, owner)).toHaveLength(2);
  });

  it('groups equal prices (extra ratios in any key order) and keeps different locks apart', () => {
    const groups = groupPrices([p('a', { extra_ratios: { x: 1, y: 2 } }), p('b', { extra_ratios: { y: 2, x: 1 } }), p('c', { locked: true, extra_ratios: { x: 1, y: 2 } }), p('d', { input: 1 })]);
    expect(groups.map((g) => g.models)).toEqual([['a', 'b'], ['c'], ['d']]);
  });

  it('finds unpriced models and words the changes of a price, tiers included', () => {
    expect(unpricedModels(['a', 'b', 'c'], [p('b')])).toEqual(['a', 'c']);
    expect(priceChanges(p('b'), p('b', { output: 40 }), 'en_US')).toEqual([{ field: 'output', from: '30', to: '40' }]);
    expect(priceChanges(p('a'), p('a', { extra_ratios: { cached_tokens: 0.5 } }), 'en_US')).toEqual([{ field: 'extra', from: '-', to: 'cached_tokens×0.5' }]);
    expect(priceChanges(p('a'), p('a', { tiers: [{ above: 200000, input: 2, output: 3 }] }), 'en_US')).toEqual([{ field: 'tiers', from: '-', to: '>200,000: 2/3' }]);
    // A tier's own cache ratio changing is a change too.
    expect(priceChanges(p('a', { tiers: [{ above: 200000, input: 2, output: 3 }] }), p('a', { tiers: [{ above: 200000, input: 2, output: 3, extra_ratios: { cached_read_tokens: 0.1 } }] }), 'en_US')).toEqual([
      { field: 'tiers', from: '>200,000: 2/3', to: '>200,000: 2/3 (cached_read_tokens×0.1)' },
    ]);
    expect(priceChanges(p('a'), p('a'), 'en_US')).toEqual([]);
    // Service multipliers changing is a change, and prices differing only in them are not one group.
    expect(priceChanges(p('a'), p('a', { service_ratios: { priority: 2, flex: 0.5 } }), 'en_US')).toEqual([{ field: 'service', from: '-', to: 'flex×0.5 priority×2' }]);
    expect(groupPrices([p('a'), p('b', { service_ratios: { fast: 6 } })]).map((g) => g.models)).toEqual([['a'], ['b']]);
  });
});
