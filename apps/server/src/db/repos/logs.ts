import type { LogListQuery } from '@one-hub/contract';
import type { Insertable } from 'kysely';
import type { Db } from '../index.js';
import type { LogsTable } from '../schema.js';

export type NewLog = Insertable<LogsTable>;

/** Writes one non-consumption log row (top-up, manage, system). Relay rows go through the batch recorder. */
export async function insertLog(db: Db, row: NewLog): Promise<void> {
  await db.insertInto('logs').values(row).execute();
}

/**
 * Consumption and other log rows with the list filters of api.md §10.4 (own rows when userId is set);
 * no join and no selection, so counts and sums touch the log table only (migration 0016 indexes each filter).
 */
export function logListQuery(db: Db, f: LogListQuery, userId?: number) {
  let q = db.selectFrom('logs');
  // A user's own error rows are listed too; toLogJson shows them only the generic reason.
  if (userId !== undefined) q = q.where('logs.user_id', '=', userId);
  if (f.log_type) q = q.where('logs.type', '=', f.log_type);
  if (f.start_timestamp) q = q.where('logs.created_at', '>=', f.start_timestamp);
  if (f.end_timestamp) q = q.where('logs.created_at', '<=', f.end_timestamp);
  if (f.model_name) q = q.where('logs.model_name', '=', f.model_name);
  if (f.token_name) q = q.where('logs.token_name', '=', f.token_name);
  if (userId === undefined) {
    if (f.username) q = q.where('logs.username', '=', f.username);
    const channel = f.channel_id ?? f.channel;
    if (channel) q = q.where('logs.channel_id', '=', channel);
    if (f.source_ip) q = q.where('logs.source_ip', '=', f.source_ip);
  }
  return q;
}

export const LOG_ORDER_COLUMNS = ['created_at', 'channel_id', 'user_id', 'token_name', 'model_name', 'type', 'source_ip', 'id', 'quota'] as const;

/** Sum of consumption quota under the same filters. */
export async function sumConsumedQuota(db: Db, f: LogListQuery, userId?: number): Promise<number> {
  const row = await logListQuery(db, { ...f, log_type: 2 }, userId)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('logs.quota'), eb.lit(0)).as('quota'))
    .executeTakeFirst();
  return Number(row?.quota ?? 0);
}
