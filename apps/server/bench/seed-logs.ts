// A quick SQLite seeder of consumption log rows and their daily roll-ups, for the big-data bench
// mode and the housekeeping tests (issue 25.2/25.5). Rows are spread evenly over `days` days up
// to `now`, over `users` users, `channels` channels and `models` model names. The full-size
// operator seed (all dialects, users, tokens, channels) is scripts/seed-big.ts of issue 25.
import type BetterSqlite3 from 'better-sqlite3';

export interface LogSeed {
  rows: number;
  days: number;
  users: number;
  channels: number;
  models: number;
  /** Epoch seconds the newest row is written at. */
  now: number;
}

export function seedLogs(raw: BetterSqlite3.Database, s: LogSeed): void {
  const insert = raw.prepare(
    'INSERT INTO logs (created_at, type, user_id, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel_id, request_time, content, is_stream) VALUES (?, 2, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)',
  );
  const upsert = raw.prepare(
    'INSERT INTO statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (date, user_id, channel_id, model_name) DO UPDATE SET request_count = statistics.request_count + excluded.request_count, quota = statistics.quota + excluded.quota, ' +
      'prompt_tokens = statistics.prompt_tokens + excluded.prompt_tokens, completion_tokens = statistics.completion_tokens + excluded.completion_tokens, request_time = statistics.request_time + excluded.request_time',
  );
  const total = raw.prepare(
    'INSERT INTO statistics_totals (date, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (date, channel_id, model_name) DO UPDATE SET request_count = statistics_totals.request_count + excluded.request_count, quota = statistics_totals.quota + excluded.quota, ' +
      'prompt_tokens = statistics_totals.prompt_tokens + excluded.prompt_tokens, completion_tokens = statistics_totals.completion_tokens + excluded.completion_tokens, request_time = statistics_totals.request_time + excluded.request_time',
  );
  const span = s.days * 86_400;
  const step = span / s.rows;
  const CHUNK = 20_000;
  for (let start = 0; start < s.rows; start += CHUNK) {
    const stats = new Map<string, [string, number, number, string, number, number, number, number, number]>();
    raw.transaction(() => {
      for (let i = start; i < Math.min(s.rows, start + CHUNK); i++) {
        const at = Math.floor(s.now - span + i * step);
        const user = 1 + (i % s.users);
        const channel = 1 + ((i * 7) % s.channels);
        const model = `model-${(i * 13) % s.models}`;
        const quota = 100 + (i % 900);
        insert.run(at, user, `user${user}`, `token${user}`, model, quota, 50, 150, channel, 300, `seeded row ${i}`);
        const date = new Date(at * 1000).toISOString().slice(0, 10);
        const key = `${date}|${user}|${channel}|${model}`;
        const r = stats.get(key) ?? [date, user, channel, model, 0, 0, 0, 0, 0];
        r[4] += 1;
        r[5] += quota;
        r[6] += 50;
        r[7] += 150;
        r[8] += 300;
        stats.set(key, r);
      }
      for (const r of stats.values()) upsert.run(...r);
      // The day × channel × model totals (migration 0019) of the same rows.
      for (const [date, , channel, model, ...sums] of stats.values()) total.run(date, channel, model, ...sums);
    })();
  }
}
