/** The summed columns of both roll-ups (`statistics` and `statistics_totals`). */
export const STAT_SUMS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
/** `statistics`: one row per UTC day, user, channel and model. */
export const STAT_KEYS = ['date', 'user_id', 'channel_id', 'model_name'] as const;
/** `statistics_totals`: the same sums over all users, one row per day, channel and model. */
export const TOTAL_KEYS = ['date', 'channel_id', 'model_name'] as const;

export interface TotalRow {
  date: string;
  channel_id: number;
  model_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

export interface StatRow extends TotalRow {
  user_id: number;
}

/**
 * The day × channel × model totals of a batch of roll-up rows, in key order (so writers on
 * several nodes lock the rows in the same order). Derived from the very rows written to
 * `statistics`, in the same transaction, so the two roll-ups never disagree.
 */
export function totalsOf(stats: StatRow[]): TotalRow[] {
  const byKey = new Map<string, TotalRow>();
  for (const s of stats) {
    const key = `${s.date}|${s.channel_id}|${s.model_name}`;
    const t = byKey.get(key);
    if (!t) {
      byKey.set(key, { date: s.date, channel_id: s.channel_id, model_name: s.model_name, request_count: s.request_count, quota: s.quota, prompt_tokens: s.prompt_tokens, completion_tokens: s.completion_tokens, request_time: s.request_time });
      continue;
    }
    for (const c of STAT_SUMS) t[c] += s[c];
  }
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}
