import { sql } from 'kysely';
import type { Db } from '../index.js';
import { dialectOf } from '../helpers.js';
import type { NewLog } from './logs.js';
import { sqliteHandle } from '../index.js';
import { insertLogsBatched, upsertStatisticsBatched } from './log-writes-batch.js';
import { tryWriteFlushSync, writeFlushSync, writeLogsAndStatsSync, type CounterDeltas } from './log-writes-sqlite.js';
import { STAT_KEYS, STAT_SUMS, TOTAL_KEYS, totalsOf, type StatRow } from './rollup-rows.js';
import { transact } from '../retry.js';

/**
 * Queued log rows and roll-up deltas in one transaction (SQLite: one synchronous transaction). A
 * row the database refuses costs only itself: the others are committed, then its error is thrown.
 */
export async function writeLogsAndStats(db: Db, logs: NewLog[], stats: StatRow[]): Promise<void> {
  const raw = sqliteHandle(db);
  if (raw && !raw.inTransaction) return writeLogsAndStatsSync(raw, logs, stats);
  const refused = await inTransaction(db, async (trx) => {
    const log = await insertLogs(trx, logs);
    return (await upsertStatistics(trx, stats)) ?? log;
  });
  if (refused) throw refused;
}

/**
 * A whole flush (counters, log rows, roll-up) in one synchronous transaction, where the
 * database allows it (SQLite with its connection free): answers false, writing nothing,
 * elsewhere. Throws after rolling everything back. With `busyMs` it waits at most that long for
 * the write lock and answers 'busy', having written nothing, when another connection held it.
 */
export function writeFlushAtOnce(db: Db, counters: CounterDeltas, logs: NewLog[], stats: StatRow[], busyMs?: number): boolean | 'busy' {
  const raw = sqliteHandle(db);
  if (!raw || raw.inTransaction) return false;
  if (busyMs === undefined) writeFlushSync(raw, counters, logs, stats);
  else if (!tryWriteFlushSync(raw, counters, logs, stats, busyMs)) return 'busy';
  return true;
}

/** `fn` in a transaction (retried on lock conflicts), or as it is when `db` already is one. */
function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : transact(db, fn);
}

/** Log rows outside the one-transaction SQLite path: multi-row INSERTs on PostgreSQL and MySQL; answers the first refused row's error. */
async function insertLogs(db: Db, rows: NewLog[]): Promise<unknown> {
  const d = dialectOf(db);
  if (d !== 'sqlite') return insertLogsBatched(db, d, rows);
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('logs').values(rows.slice(i, i + 200)).execute();
}

export type { StatRow };

/**
 * Adds to the daily roll-up and to its day × channel × model totals, creating rows on a key's
 * first use, in one transaction (PostgreSQL and MySQL: multi-row upserts); answers the first
 * refused row's error.
 */
export async function upsertStatistics(db: Db, rows: StatRow[]): Promise<unknown> {
  const d = dialectOf(db);
  if (d !== 'sqlite') return inTransaction(db, (trx) => upsertStatisticsBatched(trx, d, rows));
  await inTransaction(db, async (trx) => {
    for (const [table, keys, row] of [
      ...rows.map((r) => ['statistics', STAT_KEYS, r] as const),
      ...totalsOf(rows).map((r) => ['statistics_totals', TOTAL_KEYS, r] as const),
    ]) {
      const set = Object.fromEntries(STAT_SUMS.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + excluded.${sql.ref(c)}`]));
      const values = Object.fromEntries([...keys, ...STAT_SUMS].map((c) => [c, row[c as keyof typeof row]]));
      await trx
        .insertInto(table)
        .values(values as never)
        .onConflict((oc) => oc.columns([...keys]).doUpdateSet(set as never))
        .execute();
    }
  });
}
