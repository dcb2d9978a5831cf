import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { MessageBatchesTable } from '../schema.js';
import { insertReturningId } from '../helpers.js';
import { nowSeconds } from '../../common/time.js';
import { transact } from '../retry.js';

export type MessageBatchRow = Selectable<MessageBatchesTable>;

/** Relay reads and writes of Message Batch rows; every read for a caller is limited to the caller's own, not deleted, batches. */

export const insertMessageBatch = (db: Db, row: Insertable<MessageBatchesTable>) => insertReturningId(db, 'message_batches', row);

export function findOwnMessageBatch(db: Db, userId: number, batchId: string): Promise<MessageBatchRow | undefined> {
  return db.selectFrom('message_batches').selectAll().where('batch_id', '=', batchId).where('user_id', '=', userId).where('deleted_at', '=', 0).executeTakeFirst();
}

/**
 * One page of the caller's batches, newest first as Anthropic lists them: `afterId` continues
 * towards older batches, `beforeId` towards newer ones (answered newest first as well).
 */
export async function pageOwnMessageBatches(db: Db, userId: number, opts: { limit: number; afterId?: string; beforeId?: string }): Promise<MessageBatchRow[]> {
  const cursor = opts.afterId ?? opts.beforeId;
  const at = cursor ? await findOwnMessageBatch(db, userId, cursor) : undefined;
  if (cursor && !at) return [];
  let q = db.selectFrom('message_batches').selectAll().where('user_id', '=', userId).where('deleted_at', '=', 0);
  if (at && opts.beforeId) {
    const rows = await q.where('id', '>', at.id).orderBy('id', 'asc').limit(opts.limit).execute();
    return rows.reverse();
  }
  if (at) q = q.where('id', '<', at.id);
  return q.orderBy('id', 'desc').limit(opts.limit).execute();
}

/** Batches not billed yet (running, canceling, or ended with results not yet read). */
export function unsettledMessageBatches(db: Db, limit: number): Promise<MessageBatchRow[]> {
  return db.selectFrom('message_batches').selectAll().where('settled_at', '=', 0).orderBy('id').limit(limit).execute();
}

export async function updateMessageBatch(db: Db, id: number, set: Updateable<MessageBatchesTable>): Promise<void> {
  await db.updateTable('message_batches').set(set).where('id', '=', id).execute();
}

/**
 * Bills an ended batch once: the row takes its cost and settlement time, and what creation held
 * above the cost goes back to the user and the token it came from, reversing the used-quota
 * counters — in one transaction, and only if this call is the one that settled the row.
 */
export async function settleMessageBatch(db: Db, row: Pick<MessageBatchRow, 'id' | 'user_id' | 'token_id' | 'channel_id' | 'held'>, cost: number): Promise<boolean> {
  const back = Math.max(0, row.held - cost);
  return transact(db, async (trx) => {
    const now = nowSeconds();
    const done = await trx
      .updateTable('message_batches')
      .set({ settled_at: now, updated_at: now, quota: row.held - back, status: 'ended' })
      .where('id', '=', row.id)
      .where('settled_at', '=', 0)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return false;
    if (back <= 0) return true;
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${back}`, used_quota: sql`used_quota - ${back}` })
      .where('id', '=', row.user_id)
      .execute();
    await trx
      .updateTable('tokens')
      .set({ remain_quota: sql`remain_quota + ${back}`, used_quota: sql`used_quota - ${back}` })
      .where('id', '=', row.token_id)
      .where('unlimited_quota', '<>', 1)
      .execute();
    await trx.updateTable('channels').set({ used_quota: sql`used_quota - ${back}` }).where('id', '=', row.channel_id).execute();
    return true;
  });
}
