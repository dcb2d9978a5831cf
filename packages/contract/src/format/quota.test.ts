import { describe, expect, it } from 'vitest';
import { abbreviate, currencyToQuota, formatQuota, quotaToCurrency } from './quota.js';
import { formatTimestamp, formatTimestampMs } from './time.js';

const money = { quotaPerUnit: 500_000, displayInCurrency: true };
const count = { quotaPerUnit: 500_000, displayInCurrency: false };

describe('quota display', () => {
  it.each([
    [1_250_000, money, '$2.50'],
    [0, money, '$0.00'],
    [-250_000, money, '-$0.50'],
    [1, money, '$0.00'],
    [9_999, count, '9999'],
    [10_000, count, '10.0k'],
    [12_345, count, '12.3k'],
    [999_999, count, '1000.0k'],
    [2_500_000, count, '2.5M'],
    [3_000_000_000, count, '3.0B'],
    [-20_000, count, '-20.0k'],
  ] as const)('%d shown as %s', (q, d, text) => {
    expect(formatQuota(q, d)).toBe(text);
  });

  it('abbreviates at exactly the thresholds', () => {
    expect(abbreviate(1e6)).toBe('1.0M');
    expect(abbreviate(1e9)).toBe('1.0B');
  });

  it('falls back to 500000 per unit when the unit is missing, and honours extra digits', () => {
    expect(quotaToCurrency(500_000, 0)).toBe('$1.00');
    expect(quotaToCurrency(1, 500_000, 6)).toBe('$0.000002');
  });

  it('converts typed dollars back to quota points', () => {
    expect(currencyToQuota(1.5, 500_000)).toBe(750_000);
    expect(currencyToQuota(0.0000011, 500_000)).toBe(1);
  });
});

describe('timestamps', () => {
  it('formats epoch seconds as local date and time', () => {
    const ts = new Date(2026, 0, 2, 3, 4, 5).getTime() / 1000;
    expect(formatTimestamp(ts)).toBe('2026-01-02 03:04:05');
  });
  it('formats epoch milliseconds and rejects garbage', () => {
    expect(formatTimestampMs(new Date(2025, 11, 31, 23, 59, 59).getTime())).toBe('2025-12-31 23:59:59');
    expect(formatTimestamp(Number.NaN)).toBe('');
  });
});
