import { describe, expect, it } from 'vitest';
import { AnalyticsPeriodQuery, MultiUserStatsQuery } from './dashboard.js';
import { ModelInfoBody, PriceSyncQuery } from './price.js';

describe('MultiUserStatsQuery', () => {
  it('trims and de-duplicates usernames', () => {
    const q = MultiUserStatsQuery.parse({ usernames: ' a, b ,,a ', start_time: '2024-01-01', end_time: '2024-01-31' });
    expect(q.usernames).toEqual(['a', 'b']);
  });
  it.each([
    [{ start_time: '2024-01-01', end_time: '2024-01-02' }, 'usernames'],
    [{ usernames: ',', start_time: '2024-01-01', end_time: '2024-01-02' }, 'usernames'],
    [{ usernames: 'a', start_time: '2024/01/01', end_time: '2024-01-02' }, 'invalid start_time format'],
    [{ usernames: 'a', start_time: '2024-01-01', end_time: '2024-02-30x' }, 'invalid end_time format'],
    [{ usernames: 'a', start_time: '2024-02-01', end_time: '2024-01-01' }, 'end_time is before start_time'],
  ])('rejects %j', (input, message) => {
    const r = MultiUserStatsQuery.safeParse(input);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain(message);
  });
});

describe('AnalyticsPeriodQuery', () => {
  it('defaults to channel series over all users', () => {
    expect(AnalyticsPeriodQuery.parse({ start_timestamp: '10', end_timestamp: '20' })).toEqual({ start_timestamp: 10, end_timestamp: 20, group_type: 'channel', user_id: 0 });
  });
  it('keeps the top labels only when asked', () => {
    expect(AnalyticsPeriodQuery.parse({ start_timestamp: 1, end_timestamp: 2, top: '12' }).top).toBe(12);
  });
  it.each([
    { start_timestamp: 20, end_timestamp: 10 },
    { start_timestamp: 1, end_timestamp: 2, group_type: 'x' },
    { end_timestamp: 2 },
    { start_timestamp: 1, end_timestamp: 2, top: 0 },
    { start_timestamp: 1, end_timestamp: 2, top: 51 },
    { start_timestamp: 1, end_timestamp: 2, top: '2.5' },
  ])('rejects %j', (input) => {
    expect(AnalyticsPeriodQuery.safeParse(input).success).toBe(false);
  });
});

describe('ModelInfoBody lists', () => {
  it.each([
    [['text', 'image'], ['text', 'image']],
    ['["text"]', ['text']],
    ['https://docs.example', ['https://docs.example']],
    ['', []],
    [undefined, []],
  ])('%j → %j', (value, want) => {
    expect(ModelInfoBody.parse({ model: 'm', support_url: value }).support_url).toEqual(want);
  });
  it('requires a model', () => expect(ModelInfoBody.safeParse({ name: 'x' }).success).toBe(false));
});

describe('PriceSyncQuery', () => {
  it.each([[{}, 'system'], [{ updateMode: 'overwrite' }, 'overwrite']])('%j → %s', (input, mode) => expect(PriceSyncQuery.parse(input).updateMode).toBe(mode));
  it('rejects unknown modes', () => expect(PriceSyncQuery.safeParse({ updateMode: 'merge' }).success).toBe(false));
});
