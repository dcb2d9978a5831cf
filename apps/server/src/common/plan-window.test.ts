import { describe, expect, it } from 'vitest';
import { periodEnd, windowAt } from './plan-window.js';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('plan periods and windows', () => {
  it('ends a calendar month on the same day, clamped to the month\'s last day', () => {
    expect(periodEnd(at('2026-01-31T10:00:00Z'), 'month', 1)).toBe(at('2026-02-28T10:00:00Z'));
    expect(periodEnd(at('2026-11-15T00:00:00Z'), 'month', 3)).toBe(at('2027-02-15T00:00:00Z'));
    expect(periodEnd(at('2026-11-15T00:00:00Z'), 'week', 2)).toBe(at('2026-11-29T00:00:00Z'));
    expect(periodEnd(at('2026-11-15T00:00:00Z'), 'day', 30)).toBe(at('2026-12-15T00:00:00Z'));
  });

  it('counts 5-hour windows from the start, days and Monday weeks in UTC, clipped to the subscription', () => {
    const start = at('2026-11-26T07:30:00Z');
    const end = at('2026-12-26T07:30:00Z');
    expect(windowAt('5h', start, end, at('2026-11-26T13:00:00Z'))).toEqual({ start: at('2026-11-26T12:30:00Z'), end: at('2026-11-26T17:30:00Z') });
    expect(windowAt('day', start, end, at('2026-11-26T09:00:00Z'))).toEqual({ start, end: at('2026-11-27T00:00:00Z') });
    expect(windowAt('day', start, end, at('2026-11-28T09:00:00Z'))).toEqual({ start: at('2026-11-28T00:00:00Z'), end: at('2026-11-29T00:00:00Z') });
    // 2026-11-30 is a Monday.
    expect(windowAt('week', start, end, at('2026-12-02T00:00:00Z'))).toEqual({ start: at('2026-11-30T00:00:00Z'), end: at('2026-12-07T00:00:00Z') });
    expect(windowAt('week', start, end, at('2026-12-25T00:00:00Z'))).toEqual({ start: at('2026-12-21T00:00:00Z'), end });
    expect(windowAt('period', start, end, at('2026-12-01T00:00:00Z'))).toEqual({ start, end });
    // Before the start: the first window.
    expect(windowAt('5h', start, end, start - 100)).toEqual({ start, end: start + 5 * 3600 });
  });
});
