import { sql } from 'kysely';
import { LOG_TYPE, type LogMessage } from '@one-hub/contract';
import type { Db } from '../index.js';
import { nowSeconds } from '../../common/time.js';
import { transact } from '../retry.js';

export interface FailedTask {
  table: 'midjourneys' | 'tasks';
  id: number;
  userId: number;
  tokenId: number;
  channelId: number;
  quota: number;
  reason: string;
  /** Log text and its message key, e.g. `构图失败 <id>，补偿 <amount>`. */
  message: { content: string; msg: LogMessage };
  /** More for the log row's metadata. */
  note?: Record<string, unknown>;
}

/**
 * Ends a pending task as FAILURE and gives its charge back to the user and the token it came
 * from, reversing the used-quota counters, with a log row — all in one transaction, and only
 * if this call is the one that ended the task (a finished row is never refunded twice).
 */
export async function failAndRefund(db: Db, t: FailedTask): Promise<boolean> {
  return transact(db, async (trx) => {
    const ended =
      t.table === 'midjourneys'
        ? await trx
            .updateTable('midjourneys')
            .set({ status: 'FAILURE', progress: '100%', fail_reason: t.reason, finish_time: Date.now() })
            .where('id', '=', t.id)
            .where('progress', '<>', '100%')
            .executeTakeFirst()
        : await trx
            .updateTable('tasks')
            .set({ status: 'FAILURE', progress: 100, fail_reason: t.reason, finish_time: nowSeconds(), updated_at: nowSeconds() })
            .where('id', '=', t.id)
            .where('progress', '<>', 100)
            .executeTakeFirst();
    if (Number(ended.numUpdatedRows) !== 1) return false;
    if (t.quota <= 0) return true;
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${t.quota}`, used_quota: sql`used_quota - ${t.quota}` })
      .where('id', '=', t.userId)
      .execute();
    await trx
      .updateTable('tokens')
      .set({ remain_quota: sql`remain_quota + ${t.quota}`, used_quota: sql`used_quota - ${t.quota}` })
      .where('id', '=', t.tokenId)
      .where('unlimited_quota', '<>', 1)
      .execute();
    await trx.updateTable('channels').set({ used_quota: sql`used_quota - ${t.quota}` }).where('id', '=', t.channelId).execute();
    const user = await trx.selectFrom('users').select('username').where('id', '=', t.userId).executeTakeFirst();
    await trx
      .insertInto('logs')
      .values({ type: LOG_TYPE.system, created_at: nowSeconds(), user_id: t.userId, username: user?.username ?? '', token_id: t.tokenId, channel_id: t.channelId, quota: t.quota, content: t.message.content, metadata: JSON.stringify({ msg: t.message.msg, ...t.note }) })
      .execute();
    return true;
  });
}
