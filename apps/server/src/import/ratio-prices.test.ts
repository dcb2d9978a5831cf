import { describe, expect, it } from 'vitest';
import { pricesFromRatios } from './ratio-prices.js';

describe('one-api ratio prices', () => {
  it('turn ModelRatio and CompletionRatio into per-token input and output prices', () => {
    expect(pricesFromRatios('{"gpt-4o":1.25,"gpt-3.5-turbo":0.25,"bad":"x","neg":-1}', '{"gpt-4o":4}')).toEqual([
      { model: 'gpt-4o', type: 'tokens', channel_type: 0, input: 1.25, output: 5 },
      { model: 'gpt-3.5-turbo', type: 'tokens', channel_type: 0, input: 0.25, output: 0.25 },
    ]);
    expect(pricesFromRatios('not json', undefined)).toEqual([]);
    expect(pricesFromRatios(undefined, undefined)).toEqual([]);
  });
});
