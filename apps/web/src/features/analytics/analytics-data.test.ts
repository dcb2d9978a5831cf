import { describe, expect, it } from 'vitest';
import { REST_SERIES, type AnalyticsPeriod, type AnalyticsTotals } from '@one-hub/contract';
import { attachmentName, modelUsageSeries, parseUsernames, periodCharts, totalsCards } from './analytics-data';

const seriesSum = (s: Array<{ data: number[] }>) => s.reduce((a, x) => a + x.data.reduce((b, v) => b + v, 0), 0);

describe('analytics data', () => {
  it('adds up the top cards', () => {
    const totals: AnalyticsTotals = {
      user_statistics: { total_quota: 100, total_used_quota: 40, total_user: 10, total_inviter_user: 3 },
      channel_statistics: [
        { status: 1, total_channels: 5 },
        { status: 2, total_channels: 2 },
        { status: 3, total_channels: 1 },
      ],
      redemption_statistic: [
        { status: 1, count: 4, quota: 999 },
        { status: 3, count: 2, quota: 500 },
      ],
      order_statistics: [
        { order_currency: 'CNY', quota: 1000, money: 10 },
        { order_currency: 'USD', quota: 2000, money: 3 },
      ],
    };
    expect(totalsCards(totals)).toEqual({
      usedQuota: 40,
      balanceQuota: 100,
      users: 10,
      invitedUsers: 3,
      directUsers: 7,
      channels: 8,
      activeChannels: 5,
      disabledChannels: 2,
      testDisabledChannels: 1,
      redeemedQuota: 500,
      orderQuota: 3000,
      orderMoney: [
        { currency: 'CNY', money: 10 },
        { currency: 'USD', money: 3 },
      ],
    });
  });

  it('spreads the period over every day with zeros and splits direct from invited sign-ups', () => {
    const days = ['2026-01-01', '2026-01-02', '2026-01-03'];
    const period: AnalyticsPeriod = {
      channel_statistics: [
        { Date: '2026-01-01', Channel: 'b', RequestCount: 2, Quota: 500000, PromptTokens: 10, CompletionTokens: 5, RequestTime: 0 },
        { Date: '2026-01-03', Channel: 'a', RequestCount: 1, Quota: 250000, PromptTokens: 1, CompletionTokens: 1, RequestTime: 0 },
      ],
      user_statistics: [{ date: '2026-01-02', user_count: 5, inviter_user_count: 2 }],
      redemption_statistics: [{ date: '2026-01-03', quota: 1000000, user_count: 2 }],
      order_statistics: [{ date: '2026-01-01', order_amount: 30 }],
    };
    const c = periodCharts(period, days, 500000);
    const withOther = periodCharts({ ...period, channel_statistics: [...period.channel_statistics, { ...period.channel_statistics[0], Channel: '' }] }, days, 500000, { other: 'Other', rest: 'Rest' });
    expect(withOther.requests.map((s) => s.name)).toContain('Other');
    expect(seriesSum(withOther.requests)).toBe(seriesSum(c.requests) + period.channel_statistics[0].RequestCount);
    expect(c.cost).toEqual([
      { name: 'a', data: [0, 0, 0.5] },
      { name: 'b', data: [1, 0, 0] },
    ]);
    expect(c.tokens.find((s) => s.name === 'b')!.data).toEqual([15, 0, 0]);
    expect(c.requests.find((s) => s.name === 'a')!.data).toEqual([0, 0, 1]);
    expect([c.direct, c.invited]).toEqual([
      [0, 3, 0],
      [0, 2, 0],
    ]);
    expect([c.redeemed, c.redeemers, c.orders]).toEqual([
      [0, 0, 2],
      [0, 0, 2],
      [30, 0, 0],
    ]);
  });

  it('names the folded rest and stacks it last, its sums kept', () => {
    const days = ['2026-01-01', '2026-01-02'];
    const point = (Date: string, Channel: string, RequestCount: number) => ({ Date, Channel, RequestCount, Quota: RequestCount * 500000, PromptTokens: RequestCount, CompletionTokens: 0, RequestTime: 0 });
    const period: AnalyticsPeriod = {
      channel_statistics: [point('2026-01-01', 'zeta', 1), point('2026-01-01', REST_SERIES, 7), point('2026-01-02', 'alpha', 2), point('2026-01-02', '', 3), point('2026-01-02', REST_SERIES, 4)],
      user_statistics: [],
      redemption_statistics: [],
      order_statistics: [],
    };
    const c = periodCharts(period, days, 500000, { other: 'Other', rest: 'Everything else' });
    expect(c.requests).toEqual([
      { name: 'alpha', data: [0, 2] },
      { name: 'Other', data: [0, 3] },
      { name: 'zeta', data: [1, 0] },
      { name: 'Everything else', data: [7, 4] },
    ]);
    expect(c.cost.at(-1)).toEqual({ name: 'Everything else', data: [7, 4] });
    expect(seriesSum(c.tokens)).toBe(17);
  });

  it('stacks each user model usage', () => {
    const stats = {
      data: [
        { username: 'ann', request_count: 3, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 },
        { username: 'bob', request_count: 1, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 },
      ],
      model_usage: [
        { username: 'ann', model_name: 'gpt', request_count: 2 },
        { username: 'ann', model_name: 'claude', request_count: 1 },
        { username: 'bob', model_name: 'gpt', request_count: 1 },
      ],
    };
    expect(modelUsageSeries(stats)).toEqual({
      users: ['ann', 'bob'],
      series: [
        { name: 'claude', data: [1, 0] },
        { name: 'gpt', data: [2, 1] },
      ],
    });
  });

  it('reads the CSV file name and the username list', () => {
    expect(attachmentName('attachment; filename=multi_user_stats_2026-01-01_2026-01-07.csv', 'x.csv')).toBe('multi_user_stats_2026-01-01_2026-01-07.csv');
    expect(attachmentName(null, 'x.csv')).toBe('x.csv');
    expect(parseUsernames(' ann, bob，ann\ncid ,')).toEqual(['ann', 'bob', 'cid']);
  });
});
