import type BetterSqlite3 from 'better-sqlite3';
import type { NewLog } from './logs.js';
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

const quote = (column: string) => `"${column.replace(/"/g, '""')}"`;

/**
 * Log rows and the daily roll-up in one synchronous SQLite transaction with
 * cached single-row statements: a 200-row multi-VALUES insert re-prepared on
 * every flush costs far more than the rows themselves.
 */
export function writeLogsAndStatsSync(raw: BetterSqlite3.Database, logs: NewLog[], stats: StatRow[]): void {
  raw.transaction(() => {
    for (const row of logs) {
      const columns = Object.keys(row).filter((c) => (row as Record<string, unknown>)[c] !== undefined);
      const signature = columns.join(',');
      const insert = statement(raw, `log:${signature}`, () => `INSERT INTO logs (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      insert.run(...columns.map((c) => (row as Record<string, unknown>)[c]));
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
