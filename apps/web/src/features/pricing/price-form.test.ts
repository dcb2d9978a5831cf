import { describe, expect, it } from 'vitest';
import { formToPrice, priceToForm, validatePriceForm } from './price-form';

describe('price form', () => {
  it('needs a unique model name, a provider and non-negative prices', () => {
    const f = priceToForm();
    expect(validatePriceForm(f, false, new Set())).toEqual({ model: 'errors.required' });
    expect(validatePriceForm({ ...f, model: 'gpt-4o' }, false, new Set(['gpt-4o']))).toEqual({ model: 'errors.taken' });
    expect(validatePriceForm({ ...f, model: 'x', channel_type: 0, input: '-1', output: '' }, false, new Set())).toEqual({ channel_type: 'errors.provider', input: 'errors.price', output: 'errors.price' });
    // per-call prices ignore output
    expect(validatePriceForm({ ...f, model: 'x', type: 'times', output: '' }, false, new Set())).toEqual({});
  });

  it('checks batch models and extra ratio rows', () => {
    const f = priceToForm();
    expect(validatePriceForm(f, true, new Set())).toEqual({ models: 'errors.required' });
    expect(validatePriceForm({ ...f, models: ['a', 'b'] }, true, new Set(['b']))).toEqual({ models: 'errors.taken' });
    expect(validatePriceForm({ ...f, models: ['a'], extra: [{ kind: 'cached_tokens', value: '0.5' }, { kind: 'cached_tokens', value: '1' }] }, true, new Set())).toEqual({ extra: 'errors.extra' });
    expect(validatePriceForm({ ...f, models: ['a'], extra: [{ kind: 'cached_tokens', value: 'x' }] }, true, new Set())).toEqual({ extra: 'errors.extra' });
  });

  it('converts typed dollars per 1M and sends extra ratios as numbers', () => {
    const f = { ...priceToForm({ model: 'm', extra_ratios: { cached_tokens: 0.5 } }), entry: 'USD' as const, unit: 'M' as const, input: '2.5', output: '10' };
    expect(formToPrice(f)).toEqual({ type: 'tokens', channel_type: 1, input: 1.25, output: 5, locked: false, extra_ratios: { cached_tokens: 0.5 }, tiers: null, service_ratios: null });
    expect(formToPrice({ ...priceToForm(), type: 'times', input: '20', output: '99' })).toMatchObject({ input: 20, output: 20, extra_ratios: null });
  });

  it('round-trips long-context tiers, converting their prices like the base price, and checks their order', () => {
    const loaded = priceToForm({ model: 'm', input: 1, output: 2, tiers: [{ above: 200000, input: 2, output: 3, extra_ratios: { cached_tokens: 0.25 } }] });
    expect(loaded.tiers).toEqual([{ above: '200000', input: '2', output: '3', extra: [{ kind: 'cached_tokens', value: '0.25' }] }]);
    expect(formToPrice(loaded).tiers).toEqual([{ above: 200000, input: 2, output: 3, extra_ratios: { cached_tokens: 0.25 } }]);
    expect(formToPrice({ ...loaded, entry: 'USD', unit: 'M', tiers: [{ above: '200000', input: '5', output: '15', extra: [] }] }).tiers).toEqual([{ above: 200000, input: 2.5, output: 7.5 }]);
    const twice = { ...loaded, tiers: [{ above: '1000', input: '1', output: '1', extra: [] }, { above: '1000', input: '2', output: '2', extra: [] }] };
    expect(validatePriceForm(twice, false, new Set())).toEqual({ tiers: 'errors.tiers' });
    expect(validatePriceForm({ ...loaded, tiers: [{ above: '0', input: '1', output: '1', extra: [] }] }, false, new Set())).toEqual({ tiers: 'errors.tiers' });
    // A tier's own ratios are checked like the base price's: one row per class, numbers ≥ 0.
    const ratios = (extra: { kind: string; value: string }[]) => ({ ...loaded, tiers: [{ above: '1000', input: '1', output: '1', extra }] });
    expect(validatePriceForm(ratios([{ kind: 'cached_read_tokens', value: '-1' }]), false, new Set())).toEqual({ tiers: 'errors.tiers' });
    expect(validatePriceForm(ratios([{ kind: 'cached_read_tokens', value: '0.1' }, { kind: 'cached_read_tokens', value: '0.2' }]), false, new Set())).toEqual({ tiers: 'errors.tiers' });
    expect(formToPrice(ratios([{ kind: 'cached_read_tokens', value: '0.1' }, { kind: 'cached_write_tokens', value: '1.5' }])).tiers).toEqual([{ above: 1000, input: 1, output: 1, extra_ratios: { cached_read_tokens: 0.1, cached_write_tokens: 1.5 } }]);
    expect(validatePriceForm(loaded, false, new Set())).toEqual({});
    expect(formToPrice({ ...loaded, type: 'times' }).tiers).toBeNull();
  });
});
