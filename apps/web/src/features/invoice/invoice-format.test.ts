import { describe, expect, it } from 'vitest';
import { countText, durationParts, monthOf, monthStart, shareText, sumLines } from './invoice-format';

describe('invoice formatting', () => {
  it('accepts only real month starts as detail dates', () => {
    expect(monthStart('2024-01-01')).toBe('2024-01-01');
    expect(monthStart('2024-12-01')).toBe('2024-12-01');
    for (const bad of [undefined, '', '2024-01-15', '2024-13-01', '2024-00-01', 'abc', '2024-1-01']) expect(monthStart(bad), String(bad)).toBeNull();
    expect(monthOf('2024-02-01')).toBe('2024-02');
  });

  it('splits request time from milliseconds into the unit to show', () => {
    expect(durationParts(0)).toEqual({ kind: 'millis', values: { n: 0 } });
    expect(durationParts(850.4)).toEqual({ kind: 'millis', values: { n: 850 } });
    expect(durationParts(12_540)).toEqual({ kind: 'seconds', values: { n: '12.5' } });
    expect(durationParts(200_000)).toEqual({ kind: 'minutes', values: { m: 3, s: 20 } });
    expect(durationParts(18_120_000)).toEqual({ kind: 'hours', values: { h: 5, m: '02' } });
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
