import { describe, expect, it } from 'vitest';
import { rollupOfImportedLogs } from './log-rollup.js';

const DAY = 1_790_000_000; // 2026-09-21 UTC
const log = (id: number, over: Record<string, unknown> = {}) => ({ id, type: 2, created_at: DAY, user_id: 1, channel_id: 3, model_name: 'm', quota: 10, prompt_tokens: 2, completion_tokens: 1, request_time: 50, ...over });

describe('rollupOfImportedLogs', () => {
  it('adds inserted consumption rows, summed per day, user, channel and model; other types count nothing', () => {
    expect(rollupOfImportedLogs([log(1), log(2), log(3, { type: 1 }), log(4, { model_name: 'n' })], [], new Map())).toEqual([
      { date: '2026-09-21', user_id: 1, channel_id: 3, model_name: 'm', request_count: 2, quota: 20, prompt_tokens: 4, completion_tokens: 2, request_time: 100 },
      { date: '2026-09-21', user_id: 1, channel_id: 3, model_name: 'n', request_count: 1, quota: 10, prompt_tokens: 2, completion_tokens: 1, request_time: 50 },
    ]);
  });

  it('moves an updated row: its old part taken away, its new part added', () => {
    const old = new Map([['5', log(5)]]);
    expect(rollupOfImportedLogs([], [{ id: 5, quota: 25, model_name: 'n' }], old)).toEqual([
      { date: '2026-09-21', user_id: 1, channel_id: 3, model_name: 'm', request_count: -1, quota: -10, prompt_tokens: -2, completion_tokens: -1, request_time: -50 },
      { date: '2026-09-21', user_id: 1, channel_id: 3, model_name: 'n', request_count: 1, quota: 25, prompt_tokens: 2, completion_tokens: 1, request_time: 50 },
    ]);
    // A row that stops being a consumption row leaves the roll-up.
    expect(rollupOfImportedLogs([], [{ id: 5, type: 5 }], old)).toEqual([expect.objectContaining({ request_count: -1, quota: -10 })]);
  });
});
