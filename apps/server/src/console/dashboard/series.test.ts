import { describe, expect, it } from 'vitest';
import { REST_SERIES } from '@one-hub/contract';
import { keptKeys, lastDays, ordersPerDay, periodSeries, redemptionsPerDay, registrationsPerDay, toCsv, usageRate, zeroFilledDashboard, type LabelledUsage } from './series.js';

const sums = (n: number) => ({ request_count: n, quota: n * 10, prompt_tokens: n * 2, completion_tokens: n * 3, request_time: n * 100 });
const t = (day: string, h = 0) => Date.parse(`${day}T00:00:00Z`) / 1000 + h * 3600;

describe('lastDays', () => {
  it.each([
    ['2024-03-02T23:59:00Z', 3, ['2024-02-29', '2024-03-01', '2024-03-02']],
    ['2024-01-01T00:00:00Z', 2, ['2023-12-31', '2024-01-01']],
    ['2024-05-05T12:00:00Z', 1, ['2024-05-05']],
  ])('%s, %i days', (now, n, want) => expect(lastDays(Date.parse(now), n)).toEqual(want));
});

describe('zeroFilledDashboard', () => {
  it('gives a day without usage one zero row and sorts models within a day', () => {
    const rows = [
      { date: '2024-01-02', model_name: 'b', ...sums(1) },
      { date: '2024-01-02', model_name: 'a', ...sums(2) },
    ];
    const out = zeroFilledDashboard(['2024-01-01', '2024-01-02', '2024-01-03'], rows);
    expect(out.map((r) => [r.Date, r.ModelName, r.RequestCount])).toEqual([
      ['2024-01-01', '', 0],
      ['2024-01-02', 'a', 2],
      ['2024-01-02', 'b', 1],
      ['2024-01-03', '', 0],
    ]);
    expect(out[1]).toEqual({ Date: '2024-01-02', ModelName: 'a', RequestCount: 2, Quota: 20, PromptTokens: 4, CompletionTokens: 6, RequestTime: 200 });
  });
  it('reads numeric strings from drivers that return sums as text', () => {
    const out = zeroFilledDashboard(['2024-01-01'], [{ date: '2024-01-01', model_name: 'x', request_count: '7', quota: '70', prompt_tokens: '1', completion_tokens: '2', request_time: '3' }]);
    expect(out[0]).toMatchObject({ RequestCount: 7, Quota: 70 });
  });
});

describe('periodSeries', () => {
  const row = (date: string, model: string, channel: string | null, owner: string | null, n: number): LabelledUsage => ({
    date, model_name: model, channel_id: 9, channel_name: channel, owner_name: owner, ...sums(n),
  });
  const rows = [row('d1', 'gpt', 'A', 'OpenAI', 1), row('d1', 'gpt', 'B', 'OpenAI', 2), row('d1', 'x', 'A', null, 4), row('d2', 'gpt', null, 'OpenAI', 8)];
  it.each([
    ['channel', [['d1', 'A', 5], ['d1', 'B', 2], ['d2', '#9', 8]]],
    ['model', [['d1', 'gpt', 3], ['d1', 'x', 4], ['d2', 'gpt', 8]]],
    ['model_type', [['d1', '', 4], ['d1', 'OpenAI', 3], ['d2', 'OpenAI', 8]]],
  ] as const)('groups by %s', (type, want) => {
    expect(periodSeries(rows, type).map((s) => [s.Date, s.Channel, s.RequestCount])).toEqual(want);
  });
  it('sums to the same totals in every grouping, unowned models under "other"', () => {
    const totals = (type: 'model' | 'model_type' | 'channel') =>
      periodSeries(rows, type).reduce((a, s) => [a[0] + s.RequestCount, a[1] + s.Quota, a[2] + s.PromptTokens + s.CompletionTokens], [0, 0, 0]);
    expect(totals('model_type')).toEqual([15, 150, 75]);
    expect(totals('model')).toEqual(totals('model_type'));
    expect(totals('channel')).toEqual(totals('model_type'));
  });
  it('puts the folded rest last in each day', () => {
    const folded = [row('d1', 'zeta', 'A', null, 1), row('d1', REST_SERIES, 'A', null, 9), row('d1', 'alpha', 'A', null, 2)];
    expect(periodSeries(folded, 'model').map((s) => s.Channel)).toEqual(['alpha', 'zeta', REST_SERIES]);
  });
});

describe('keptKeys', () => {
  const total = (channel_id: number, channel_name: string | null, model_name: string, owner_name: string | null, quota: number) => ({ channel_id, channel_name, model_name, owner_name, quota });
  const totals = [total(1, 'A', 'gpt', 'OpenAI', 50), total(2, 'B', 'claude', 'Anthropic', 30), total(3, 'A', 'x', null, 25), total(4, null, 'y', null, '40' as unknown as number)];
  it.each([
    // channels 1 and 3 share the name A (75), channel 4 is deleted (#4, 40)
    ['channel', 1, [1, 3]],
    ['channel', 2, [1, 3, 4]],
    ['model', 2, ['gpt', 'y']],
    // unowned models (65) rank as the OTHER_SERIES label ''
    ['model_type', 1, ['']],
    ['model_type', 2, ['', 'OpenAI']],
  ] as const)('keeps the keys of the top labels by %s (top %i)', (type, top, want) => {
    expect(keptKeys(totals, type, top)).toEqual(want);
  });
  it('folds nothing when there are no more labels than the top', () => {
    expect(keptKeys(totals, 'channel', 3)).toBeNull();
    expect(keptKeys(totals, 'model_type', 3)).toBeNull();
  });
  it('breaks quota ties by label', () => {
    expect(keptKeys([total(1, 'b', '', null, 5), total(2, 'a', '', null, 5)], 'channel', 1)).toEqual([2]);
  });
});

describe('per-day buckets', () => {
  it('counts registrations and invited users per day', () => {
    expect(registrationsPerDay([{ created_time: t('2024-01-02', 1), inviter_id: 0 }, { created_time: t('2024-01-02', 5), inviter_id: 3 }, { created_time: t('2024-01-01'), inviter_id: 0 }])).toEqual([
      { date: '2024-01-01', user_count: 1, inviter_user_count: 0 },
      { date: '2024-01-02', user_count: 2, inviter_user_count: 1 },
    ]);
  });
  it('counts distinct redeemers, not creators', () => {
    expect(redemptionsPerDay([{ redeemed_time: t('2024-01-01'), quota: 5, used_user_id: 7 }, { redeemed_time: t('2024-01-01', 2), quota: 6, used_user_id: 7 }, { redeemed_time: t('2024-01-01', 3), quota: 1, used_user_id: 8 }])).toEqual([
      { date: '2024-01-01', quota: 12, user_count: 2 },
    ]);
  });
  it('sums order amounts per day', () => {
    expect(ordersPerDay([{ created_at: t('2024-01-03'), order_amount: 1.1 }, { created_at: t('2024-01-03', 1), order_amount: 2.2 }])).toEqual([{ date: '2024-01-03', order_amount: 3.3 }]);
  });
});

describe('usageRate', () => {
  it.each([[0, 0, 0], [5, 0, 0], [1, 3, 33.33], [600, 600, 100], [2, 600, 0.33]])('%i of %i → %f', (used, max, want) => expect(usageRate(used, max)).toBe(want));
});

describe('toCsv', () => {
  it('quotes separators and defuses spreadsheet formulas', () => {
    expect(toCsv(['a', 'b'], [['x,y', 1], ['say "hi"', 2], ['=SUM(A1)', -3]])).toBe('a,b\r\n"x,y",1\r\n"say ""hi""",2\r\n\'=SUM(A1),-3\r\n');
  });
});
