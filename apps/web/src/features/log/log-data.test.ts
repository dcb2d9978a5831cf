import { describe, expect, it } from 'vitest';
import { discount, durationTone, extraTokens, logPricing, requestRoute, speedTone, tokensPerSecond } from './log-data';

describe('log data', () => {
  it('reads the door, the conversion and the usage source of a relay row', () => {
    expect(requestRoute({ estimated: false, metadata: { door: '/v1/messages', usage_source: 'reported', converted_to: 'gemini' } })).toEqual({ door: '/v1/messages', convertedTo: 'gemini', estimated: false });
    expect(requestRoute({ estimated: true, metadata: { door: '/v1beta' } })).toEqual({ door: '/v1beta', estimated: true });
    expect(requestRoute({ estimated: false, metadata: { door: '/v1/responses', usage_source: 'estimated' } })?.estimated).toBe(true);
    // Rows from before doors were logged, and non-relay rows, show nothing.
    expect(requestRoute({ estimated: false, metadata: { group_ratio: 1 } })).toBeNull();
    expect(requestRoute({ estimated: false, metadata: null })).toBeNull();
  });

  it('colours durations by total seconds', () => {
    expect([0, 0.5, 10, 10.01, 50, 51, 100, 101].map(durationTone)).toEqual(['default', 'success', 'success', 'primary', 'primary', 'secondary', 'secondary', 'error']);
  });

  it('measures output speed after the first response', () => {
    expect(tokensPerSecond(100, 6000, 1000)).toBe(20);
    expect(tokensPerSecond(100, 5000)).toBe(20);
    // a first response after the end is ignored rather than giving a negative time
    expect(tokensPerSecond(10, 2000, 5000)).toBe(5);
    expect(tokensPerSecond(0, 5000, 1000)).toBeNull();
    expect(tokensPerSecond(10, 1000, 1000)).toBe(10);
    expect(tokensPerSecond(10, 0)).toBeNull();
  });

  it('colours speeds', () => {
    expect([5, 10, 12, 15, 18, 20, 21].map(speedTone)).toEqual(['error', 'error', 'secondary', 'secondary', 'primary', 'primary', 'success']);
  });

  it('lists extra token kinds with their side and ratio', () => {
    expect(extraTokens({ cached_tokens: 30, reasoning_tokens: 7, input_audio_tokens: 0, extra_ratios: { cached: 0.5 } })).toEqual([
      { key: 'cached_tokens', side: 'input', value: 30, ratio: 0.5 },
      { key: 'reasoning_tokens', side: 'output', value: 7 },
    ]);
    expect(extraTokens(null)).toEqual([]);
  });

  it('prices a row per million tokens or per call, before and after the group ratio', () => {
    const tokens = logPricing({ group: 'vip', metadata: { group_name: 'vip', group_ratio: 0.5, price_type: 'tokens', input_ratio: 1.25, output_ratio: 5 } })!;
    expect(tokens).toMatchObject({ type: 'tokens', groupName: 'vip', groupRatio: 0.5, input: 2.5, output: 10, actualInput: 1.25, actualOutput: 5 });
    const call = logPricing({ group: '', metadata: { price_type: 'times', input_ratio: 10, output_ratio: 10, is_backup_group: true, backup_group_name: 'default' } })!;
    expect(call).toMatchObject({ type: 'times', input: 0.02, groupRatio: 1, backupGroup: 'default' });
    expect(logPricing({ group: '', metadata: null })).toBeNull();
  });

  it('computes the group discount', () => {
    expect(discount(250000, 0.5, 500000)).toEqual({ original: 1, actual: 0.5, savedPercent: 50 });
    expect(discount(250000, 1, 500000)).toBeNull();
  });
});
