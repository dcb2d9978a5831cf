import { STAT_SUMS, type StatRow } from '../db/repos/rollup-rows.js';

type Row = Record<string, unknown>;

/** A log row's part in the daily roll-up (consumption rows only, as the recorder counts), times `sign`. */
function part(log: Row, sign: 1 | -1): StatRow | undefined {
  if (Number(log.type) !== 2) return undefined;
  const n = (c: string) => sign * Number(log[c] ?? 0);
  return {
    date: new Date(Number(log.created_at) * 1000).toISOString().slice(0, 10),
    user_id: Number(log.user_id ?? 0),
    channel_id: Number(log.channel_id ?? 0),
    model_name: String(log.model_name ?? ''),
    request_count: sign,
    quota: n('quota'),
    prompt_tokens: n('prompt_tokens'),
    completion_tokens: n('completion_tokens'),
    request_time: n('request_time'),
  };
}

/**
 * What imported log rows change in the roll-ups: an inserted consumption row adds its part, an
 * updated one takes its old part away and adds the new (`old` by id). Written in the same
 * transaction as the rows, so analytics counts imported history exactly once, however often the
 * import runs.
 */
export function rollupOfImportedLogs(inserts: Row[], updates: Row[], old: Map<string, Row>): StatRow[] {
  const byKey = new Map<string, StatRow>();
  const add = (r: StatRow | undefined) => {
    if (!r) return;
    const key = `${r.date}|${r.user_id}|${r.channel_id}|${r.model_name}`;
    const s = byKey.get(key);
    if (!s) byKey.set(key, r);
    else for (const c of STAT_SUMS) s[c] += r[c];
  };
  for (const r of inserts) add(part(r, 1));
  for (const u of updates) {
    const before = old.get(String(u.id));
    if (before) add(part(before, -1));
    add(part({ ...before, ...u }, 1));
  }
  return [...byKey.values()];
}
