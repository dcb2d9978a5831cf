import { describe, expect, it } from 'vitest';
import { abbreviate, formatQuota, formatTimestamp } from './quota.js';

describe('quota display', () => {
  it('shows currency with two decimals', () => {
    expect(formatQuota(1_250_000, { quotaPerUnit: 500_000, displayInCurrency: true })).toBe('$2.50');
  });
  it('abbreviates counts at 10k, 1M and 1B', () => {
    expect(abbreviate(9_999)).toBe('9999');
    expect(abbreviate(12_345)).toBe('12.3k');
    expect(abbreviate(2_500_000)).toBe('2.5M');
    expect(abbreviate(3_000_000_000)).toBe('3.0B');
    expect(formatQuota(12_345, { quotaPerUnit: 500_000, displayInCurrency: false })).toBe('12.3k');
  });
  it('formats epoch seconds as local date and time', () => {
    const ts = new Date(2026, 0, 2, 3, 4, 5).getTime() / 1000;
    expect(formatTimestamp(ts)).toBe('2026-01-02 03:04:05');
  });
});
