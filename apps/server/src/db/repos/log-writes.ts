import { sql } from 'kysely';
import type { Db } from '../index.js';
import { dialectOf } from '../helpers.js';
import type { NewLog } from './logs.js';
import { sqliteHandle } from '../index.js';
import { insertLogsBatched, upsertStatisticsBatched } from './log-writes-batch.js';
import { writeFlushSync, writeLogsAndStatsSync, type CounterDeltas } from './log-writes-sqlite.js';

/** Queued log rows and roll-up deltas in one go (SQLite: one synchronous transaction). */
export async function writeLogsAndStats(db: Db, logs: NewLog[], stats: StatRow[]): Promise<void> {
  const raw = sqliteHandle(db);
  if (raw && !raw.inTransaction) return writeLogsAndStatsSync(raw, logs, stats);
  await insertLogs(db, logs);
  await upsertStatistics(db, stats);
}

/**
 * A whole flush (counters, log rows, roll-up) in one synchronous transaction, where the
 * database allows it (SQLite with its connection free): answers false, writing nothing,
 * elsewhere. Throws after rolling everything back.
 */
export function writeFlushAtOnce(db: Db, counters: CounterDeltas, logs: NewLog[], stats: StatRow[]): boolean {
  const raw = sqliteHandle(db);
  if (!raw || raw.inTransaction) return false;
  writeFlushSync(raw, counters, logs, stats);
  return true;
}

/** Log rows outside the one-transaction SQLite path: multi-row INSERTs on PostgreSQL and MySQL. */
export async function insertLogs(db: Db, rows: NewLog[]): Promise<void> {
  const d = dialectOf(db);
  if (d !== 'sqlite') return insertLogsBatched(db, d, rows);
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('logs').values(rows.slice(i, i + 200)).execute();
}

export interface StatRow {
  date: string;
  user_id: number;
  channel_id: number;
  model_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

const SUMS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;

/** Adds to the daily roll-up, creating the row when it is the day's first (PostgreSQL and MySQL: multi-row upserts). */
export async function upsertStatistics(db: Db, rows: StatRow[]): Promise<void> {
  const d = dialectOf(db);
  if (d !== 'sqlite') return upsertStatisticsBatched(db, d, rows);
  for (const row of rows) {
    const set = Object.fromEntries(SUMS.map((c) => [c, sql`statistics.${sql.ref(c)} + excluded.${sql.ref(c)}`]));
    await db
      .insertInto('statistics')
      .values(row)
      .onConflict((oc) => oc.columns(['date', 'user_id', 'channel_id', 'model_name']).doUpdateSet(set))
      .execute();
  }
}
