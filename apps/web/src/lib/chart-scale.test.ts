import { describe, expect, it } from 'vitest';
import { niceCeil, stackedMax, valueAxis } from './chart-scale';

const count = (v: number) => String(Math.round(v));
const dollars = (v: number) => `$${v.toFixed(3)}`;
const labels = (a: { max: number; tickAmount: number }, f: (v: number) => string) => Array.from({ length: a.tickAmount + 1 }, (_, i) => f((a.max * i) / a.tickAmount));

describe('value axis', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect([0.6, 1, 1.4, 3, 7, 0.00024, 120].map(niceCeil)).toEqual([1, 1, 2, 5, 10, 0.0005, 200]);
  });

  it.each([
    [3, count],
    [1, count],
    [7, count],
    [41, count],
    [0, count],
    [0.0012, dollars],
    [0.06, dollars],
    [0.0004, dollars],
    [12.5, dollars],
  ])('never repeats a tick label for a top of %s', (max, format) => {
    const axis = valueAxis(max, format);
    const shown = labels(axis, format);
    expect(new Set(shown).size, shown.join(' ')).toBe(shown.length);
    expect(axis.max).toBeGreaterThanOrEqual(max);
    expect(axis.tickAmount).toBeLessThanOrEqual(5);
  });

  it('gives a count axis of 0–3 whole steps', () => {
    expect(labels(valueAxis(3, count), count)).toEqual(['0', '1', '2', '3']);
  });

  it('finds the highest stacked day', () => {
    expect(stackedMax([{ data: [1, 2, 3] }, { data: [4, 0, 1] }])).toBe(5);
    expect(stackedMax([])).toBe(0);
  });
});
