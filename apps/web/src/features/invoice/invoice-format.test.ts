import { describe, expect, it } from 'vitest';
import { countText, durationText, monthOf, monthStart, shareText, sumLines } from './invoice-format';

describe('invoice formatting', () => {
  it('accepts only real month starts as detail dates', () => {
    expect(monthStart('2024-01-01')).toBe('2024-01-01');
    expect(monthStart('2024-12-01')).toBe('2024-12-01');
    for (const bad of [undefined, '', '2024-01-15', '2024-13-01', '2024-00-01', 'abc', '2024-1-01']) expect(monthStart(bad), String(bad)).toBeNull();
    expect(monthOf('2024-02-01')).toBe('2024-02');
  });

  it('words request time from milliseconds', () => {
    expect(durationText(0)).toBe('0 ms');
    expect(durationText(850)).toBe('850 ms');
    expect(durationText(12_540)).toBe('12.5 s');
    expect(durationText(200_000)).toBe('3 m 20 s');
    expect(durationText(18_120_000)).toBe('5 h 02 m');
  });

  it('sums lines and gives each its share', () => {
    const line = (quota: number) => ({ request_count: 2, quota, prompt_tokens: 10, completion_tokens: 5, request_time: 100 });
    expect(sumLines([line(30), line(10)])).toEqual({ request_count: 4, quota: 40, prompt_tokens: 20, completion_tokens: 10, request_time: 200 });
    expect(sumLines([])).toEqual({ request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 });
    expect(shareText(30, 40)).toBe('75.0%');
    expect(shareText(0, 0)).toBe('—');
    expect(countText(1234567)).toBe('1,234,567');
  });
});
