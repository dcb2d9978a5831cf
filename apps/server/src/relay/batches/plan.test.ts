import { describe, expect, it } from 'vitest';
import type { Price } from '../pipeline/accounting/pricing.js';
import { batchRatio, batchView, priceResults, readCreate, splitCharge, DEFAULT_BATCH_RATIO } from './plan.js';

const unit: Price = { type: 'tokens', input: 1, output: 1, extra: {} };
const line = (custom_id: string, type: string, usage?: object) => JSON.stringify({ custom_id, result: { type, ...(usage ? { message: { type: 'message', usage } } : {}) } });

describe('message batch pricing', () => {
  it("reads the channel's batch ratio from its plugin, else Anthropic's discount", () => {
    expect(batchRatio(undefined)).toBe(DEFAULT_BATCH_RATIO);
    expect(batchRatio({ batch: { price_ratio: '0.25' } })).toBe(0.25);
    expect(batchRatio({ batch: { price_ratio: 1 } })).toBe(1);
    expect(batchRatio({ batch: { price_ratio: 'half' } })).toBe(0.5);
    expect(batchRatio({ batch: { price_ratio: '-1' } })).toBe(0.5);
    expect(batchRatio({ batch: { price_ratio: '' } })).toBe(0.5);
  });

  it('bills succeeded messages only, each as one request, and ignores lines of custom ids the batch did not have', () => {
    const jsonl = [
      line('a', 'succeeded', { input_tokens: 10, output_tokens: 5 }),
      line('b', 'succeeded', { input_tokens: 3, output_tokens: 0, cache_read_input_tokens: 100 }),
      line('c', 'errored'),
      line('d', 'canceled'),
      line('e', 'expired'),
      line('stranger', 'succeeded', { input_tokens: 1000, output_tokens: 1000 }),
      'not json',
      '',
    ].join('\n');
    const priced = priceResults(jsonl, { ratio: 0.5, groupRatio: 2, models: { a: 'm1', b: 'm2', c: 'm1', d: 'm1', e: 'm2' } }, () => unit);
    expect(priced.counts).toEqual({ succeeded: 2, errored: 1, canceled: 1, expired: 1 });
    // (10 + 5) × 0.5 × 2 = 15; (3 + 100 × 0.1) × 0.5 × 2 = 13.
    expect(priced.byModel.map((c) => [c.model, c.cost, c.succeeded, c.cacheReadTokens])).toEqual([
      ['m1', 15, 1, 0],
      ['m2', 13, 1, 100],
    ]);
  });

  it('splits the charge over the log rows so they add up to it, never above the hold', () => {
    const c = (model: string, cost: number) => ({ model, cost, succeeded: 1, promptTokens: 0, completionTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(splitCharge([c('a', 10), c('b', 20)], 100).map((r) => r.quota)).toEqual([10, 20]);
    expect(splitCharge([c('a', 10), c('b', 20)], 25).map((r) => r.quota)).toEqual([10, 15]);
  });

  it('checks what routing and the hold need of a create body', () => {
    const ok = { custom_id: 'a', params: { model: 'm', max_tokens: 10, messages: [] } };
    expect(readCreate({ requests: [ok] })).toEqual([{ customId: 'a', model: 'm', maxTokens: 10, params: ok.params }]);
    for (const bad of [{}, { requests: [] }, { requests: [ok, ok] }, { requests: [{ ...ok, custom_id: 'a b' }] }, { requests: [{ ...ok, params: { model: 'm' } }] }, { requests: [{ ...ok, params: { ...ok.params, stream: true } }] }]) {
      expect(() => readCreate(bad)).toThrow();
    }
  });

  it("points results_url at the gateway once upstream has results", () => {
    expect(batchView({ id: 'msgbatch_1', results_url: 'https://api.anthropic.com/v1/messages/batches/msgbatch_1/results' }, 'http://gw')).toMatchObject({ results_url: 'http://gw/v1/messages/batches/msgbatch_1/results' });
    expect(batchView({ id: 'msgbatch_1', results_url: null }, 'http://gw').results_url).toBeNull();
  });
});
