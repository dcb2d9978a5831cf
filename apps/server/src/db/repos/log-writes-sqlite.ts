import type BetterSqlite3 from 'better-sqlite3';
import type { NewLog } from './logs.js';
import type { LogsTable } from '../schema.js';
import type { StatRow } from './log-writes.js';

const SUMS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
const KEYS = ['date', 'user_id', 'channel_id', 'model_name'] as const;

const cache = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function statement(raw: BetterSqlite3.Database, key: string, text: () => string): BetterSqlite3.Statement {
  let byKey = cache.get(raw);
  if (!byKey) cache.set(raw, (byKey = new Map()));
  let s = byKey.get(key);
  if (!s) byKey.set(key, (s = raw.prepare(text())));
  return s;
}

/** Every column a log row may carry, with what the table gives an absent one (0, '' or NULL, as migration 0001 declares). */
const LOG_DEFAULTS: { [K in Exclude<keyof LogsTable, 'id'>]-?: number | string | null } = {
  user_id: 0,
  created_at: 0,
  type: 0,
  content: null,
  username: '',
  token_name: '',
  token_id: 0,
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  channel_id: 0,
  request_time: 0,
  is_stream: 0,
  source_ip: '',
  group: '',
  request_id: '',
  estimated: 0,
  metadata: null,
};
const LOG_COLUMNS = Object.keys(LOG_DEFAULTS) as Array<keyof typeof LOG_DEFAULTS>;

/**
 * Log rows and the daily roll-up in one synchronous SQLite transaction with
 * cached single-row statements: a 200-row multi-VALUES insert re-prepared on
 * every flush costs far more than the rows themselves. Every row binds all
 * columns (absent ones their defaults), so one statement serves every row shape.
 */
export function writeLogsAndStatsSync(raw: BetterSqlite3.Database, logs: NewLog[], stats: StatRow[]): void {
  raw.transaction(() => {
    const insert = statement(raw, 'logs', () => `INSERT INTO logs (${LOG_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`);
    const values: unknown[] = new Array(LOG_COLUMNS.length);
    for (const row of logs) {
      for (let i = 0; i < LOG_COLUMNS.length; i++) values[i] = row[LOG_COLUMNS[i]] ?? LOG_DEFAULTS[LOG_COLUMNS[i]];
      insert.run(values);
    }
    const upsert = statement(
      raw,
      'statistics',
      () =>
        `INSERT INTO statistics (${[...KEYS, ...SUMS].join(', ')}) VALUES (${[...KEYS, ...SUMS].map(() => '?').join(', ')}) ` +
        `ON CONFLICT (${KEYS.join(', ')}) DO UPDATE SET ${SUMS.map((c) => `${c} = statistics.${c} + excluded.${c}`).join(', ')}`,
    );
    for (const s of stats) upsert.run(...KEYS.map((k) => s[k]), ...SUMS.map((k) => s[k]));
  })();
}
