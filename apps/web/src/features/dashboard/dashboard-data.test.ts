import { describe, expect, it } from 'vitest';
import type { DashboardRow } from '@one-hub/contract';
import { dailyTotals, modelCostSeries, modelRequestShares, modelsByProvider, rpmColour, statCard } from './dashboard-data';
import { daysBetween, lastLocalDays, trendPercent } from '../../lib/chart-data';

const row = (Date: string, ModelName: string, RequestCount: number, Quota: number): DashboardRow => ({ Date, ModelName, RequestCount, Quota, PromptTokens: 10 * RequestCount, CompletionTokens: 5 * RequestCount, RequestTime: 1500 });

describe('dashboard data', () => {
  it('builds the seven local days ending today, crossing a month end', () => {
    expect(lastLocalDays(7, new Date(2026, 2, 3, 0, 30))).toEqual(['2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
  });

  it('fills days without rows with zeros and sums several models of one day', () => {
    const days = ['2026-01-01', '2026-01-02', '2026-01-03'];
    const totals = dailyTotals([row('2026-01-01', 'a', 2, 100), row('2026-01-01', 'b', 1, 50), row('2026-01-03', 'a', 4, 10), row('2025-12-31', 'a', 9, 9)], days);
    expect(totals.map((d) => d.requests)).toEqual([3, 0, 4]);
    expect(totals.map((d) => d.quota)).toEqual([150, 0, 10]);
    expect(totals[1]).toEqual({ date: '2026-01-02', requests: 0, quota: 0, promptTokens: 0, completionTokens: 0, requestTime: 0 });
  });

  it('stacks cost per model in dollars with zero days and ignores the empty label of zero-filled rows', () => {
    const days = ['2026-01-01', '2026-01-02'];
    const series = modelCostSeries([row('2026-01-02', 'gpt', 1, 250000), row('2026-01-01', '', 0, 0), row('2026-01-01', 'claude', 1, 1234)], days, 500000);
    expect(series).toEqual([
      { name: 'claude', data: [0.002, 0] },
      { name: 'gpt', data: [0, 0.5] },
    ]);
  });

  it('compares today with yesterday', () => {
    expect(trendPercent(0, 0)).toBe(0);
    expect(trendPercent(0, 5)).toBe(-100);
    expect(trendPercent(5, 0)).toBe(100);
    expect(trendPercent(15, 10)).toBe(50);
    expect(trendPercent(1, 3)).toBe(-67);
    expect(statCard([1, 2, 4])).toEqual({ today: 4, trend: 100, series: [1, 2, 4] });
  });

  it('shares requests per model, largest first', () => {
    expect(modelRequestShares([row('d', 'a', 1, 0), row('e', 'b', 3, 0), row('e', 'a', 1, 0), row('e', '', 0, 0)])).toEqual([
      { name: 'b', value: 3 },
      { name: 'a', value: 2 },
    ]);
  });

  it('colours the RPM bar by usage', () => {
    expect([0, 50, 51, 80, 81, 100].map(rpmColour)).toEqual(['success', 'success', 'warning', 'warning', 'error', 'error']);
  });

  it('groups available models by owner in owner id order', () => {
    const m = (owned_by: string) => ({ owned_by, groups: ['default'], price: { model: '', type: 'tokens', channel_type: 1, input: 1, output: 1 } }) as never;
    const grouped = modelsByProvider({ 'gpt-b': m('OpenAI'), 'gpt-a': m('OpenAI'), claude: m('Anthropic'), x: m('Zed') }, [
      { id: 14, name: 'Anthropic', icon: 'a.svg' },
      { id: 1, name: 'OpenAI', icon: 'o.svg' },
    ]);
    expect(grouped.map((g) => [g.owner, g.models])).toEqual([
      ['OpenAI', ['gpt-a', 'gpt-b']],
      ['Anthropic', ['claude']],
      ['Zed', ['x']],
    ]);
  });

  it('lists every local day of an analytics range', () => {
    const start = new Date(2026, 0, 30, 0, 0, 0).getTime() / 1000;
    const end = new Date(2026, 1, 2, 23, 59, 59).getTime() / 1000;
    expect(daysBetween(start, end)).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
  });
});
