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

  it('turn new-api\'s ModelPrice (dollars per call) into a per-call price that wins over a ratio', () => {
    expect(pricesFromRatios('{"a":1,"b":2}', undefined, '{"b":0.04,"c":0,"bad":-1}')).toEqual([
      { model: 'a', type: 'tokens', channel_type: 0, input: 1, output: 1 },
      { model: 'b', type: 'times', channel_type: 0, input: 20, output: 0 },
      { model: 'c', type: 'times', channel_type: 0, input: 0, output: 0 },
    ]);
  });
});
