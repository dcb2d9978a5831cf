import { describe, expect, it } from 'vitest';
import { formatNumber } from './format-number';

describe('formatNumber', () => {
  it.each([['zh_CN'], ['zh_HK'], ['en_US'], ['ja_JP']])('groups the digits in %s', (lang) => {
    expect(formatNumber(200000, lang)).toBe('200,000');
    expect(formatNumber(1234567, lang)).toBe('1,234,567');
  });
});
